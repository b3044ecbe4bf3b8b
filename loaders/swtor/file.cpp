#include "swtor/swtor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <glm/gtc/quaternion.hpp>

namespace horde::swtor {

namespace {
std::string hex(uint64_t v) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(v));
    return text;
}

uint32_t u32At(std::span<const std::byte> bytes, size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
}
} // namespace

Axes fileAxes() {
    return Axes{.up = Axes::Up::Y, .leftHanded = false, .clockwiseFrontFaces = false, .metresPerUnit = 0.1f};
}

uint32_t vertexSizeFor(uint16_t mask) {
    uint32_t size = (mask & kPosition) ? 12u : 0u;
    if (mask & kSkin) size += 8;
    if (mask & kNormalTangent) size += 8;
    if (mask & kColour) size += 4;
    for (uint16_t uv : kUvSets)
        if (mask & uv) size += 4;
    return size;
}

Header readHeader(Reader& r) {
    Header h;
    r.seek(0, "header");
    if (!r.expect("GAWB", "magic")) return h;
    uint32_t major = r.u32("majorVersion");
    if (r.ok() && major != kMajorVersion)
        r.failAt(4, "majorVersion",
                 major == 5 ? "version 5 (the 64-bit layout of game update 7.2.1 and later) is not supported; horde reads version 4"
                            : "is " + std::to_string(major) + ", expected 4");
    r.u32("minorVersion"); // always 3 in the spec; nothing horde reads depends on it
    h.offsetBnry = r.u32("offsetBNRY");
    h.numCachedOffsets = r.u32("numCachedOffsets");
    h.type = r.u32("type");
    if (r.ok() && h.type >= kTypeCount)
        r.failAt(0x14, "type", "is " + std::to_string(h.type) + ", expected 0 (geometry), 1 (geometry with .clo) or 2 (skeleton)");
    h.numMeshes = r.u16("numMeshes");
    h.numMaterials = r.u16("numMaterials");
    h.numBones = r.u16("numBones");
    h.numAttachments = r.u16("numAttachments");
    r.skip(16 + 32, "boundingBox"); // 16 zero bytes, then the global box, which horde recomputes
    h.offsetCachedOffsets = r.u32("offsetCachedOffsets");
    h.offsetMeshHeaders = r.u32("offsetMeshHeader");
    h.offsetMaterialNames = r.u32("offsetMaterialNameOffsets");
    h.offsetBones = r.u32("offsetBoneStructure");
    h.offsetAttachments = r.u32("offsetAttachments");
    return h;
}

bool seekTable(Reader& r, uint32_t offset, uint64_t count, uint64_t size, std::string_view field) {
    if (!r.ok()) return false;
    if (count == 0) return true;
    if (offset < kHeaderEnd)
        return r.fail(field, "offset " + hex(offset) + " of " + std::to_string(count) + " entries points into the header");
    return r.seek(offset, field) && r.fits(count, size, field);
}

bool checkSkippedSections(Reader& r, const Header& h, std::vector<std::string>& warnings) {
    const size_t size = r.size();
    if (!r.ok()) return false;
    if (size < kHeaderEnd + kTrailerSize) return r.failAt(size, "EGCD", "file of " + std::to_string(size) + " bytes is too short for a header and the EGCD trailer");
    const size_t trailer = size - kTrailerSize;

    if (!seekTable(r, h.offsetCachedOffsets, h.numCachedOffsets, kCachedOffsetSize, "cachedOffsets")) return false;
    uint32_t stale = 0;
    for (uint32_t i = 0; i < h.numCachedOffsets; ++i) {
        size_t at = r.offset();
        uint32_t address = r.u32("cachedOffsets.address");
        uint32_t value = r.u32("cachedOffsets.value");
        if (!r.ok()) return false;
        if (address > size - 4 || value > size)
            return r.failAt(at, "cachedOffsets", "entry " + std::to_string(i) + " (" + hex(address) + " -> " + hex(value) +
                                                     ") points past the end of the file (" + std::to_string(size) + " bytes)");
        if (u32At(r.all(), address) != value) ++stale;
    }
    if (stale > 0)
        warnings.push_back(r.file() + ": " + std::to_string(stale) + " cached-offsets entries do not match the offsets they cache (ignored)");

    if (h.offsetBnry != 0) {
        if (h.offsetBnry < kHeaderEnd || h.offsetBnry > trailer - 4)
            return r.failAt(0x0C, "offsetBNRY", hex(h.offsetBnry) + " is not between the header and the EGCD trailer");
        r.seek(h.offsetBnry, "bnryLength");
        uint32_t length = r.u32("bnryLength");
        if (length != 0) {
            if (length > trailer - h.offsetBnry - 4)
                return r.failAt(h.offsetBnry, "bnryLength", std::to_string(length) + " runs past the EGCD trailer at " + hex(trailer));
            if (!r.expect("BNRY", "bnryMagic")) return false;
        }
    }

    r.seek(trailer, "EGCD");
    if (!r.expect("EGCD", "EGCD")) return false;
    r.u32("egcdUnknown");
    uint32_t bnry = r.u32("egcdOffsetBNRY");
    if (r.ok() && bnry != h.offsetBnry)
        return r.failAt(size - 4, "egcdOffsetBNRY", hex(bnry) + " differs from the header's offsetBNRY " + hex(h.offsetBnry));
    return r.ok();
}

Budget copyBudget(const Reader& r) {
    const uint64_t limit = 4 * uint64_t(r.size()) + (uint64_t(1) << 20);
    return Budget(limit, "the file's headers share names or tables so much that reading them would copy more than " +
                             std::to_string(limit) + " bytes");
}

std::string readName(Reader& r, std::string_view field, Budget& copies) {
    size_t at = r.offset();
    uint32_t offset = r.u32(field);
    if (!r.ok()) return {};
    std::span<const std::byte> all = r.all();
    if (offset < kHeaderEnd || offset >= all.size()) {
        r.failAt(at, field, "string offset " + hex(offset) + " is outside the file's sections (file is " + std::to_string(all.size()) + " bytes)");
        return {};
    }
    const auto* begin = reinterpret_cast<const char*>(all.data() + offset);
    const void* end = std::memchr(begin, 0, all.size() - offset);
    if (!end) {
        r.failAt(at, field, "string at " + hex(offset) + " has no terminating NUL before the end of the file");
        return {};
    }
    if (!r.chargeAt(at, copies, uint64_t(static_cast<const char*>(end) - begin), field)) return {};
    return std::string(begin, static_cast<const char*>(end));
}

glm::mat4 readMatrix(Reader& r, std::string_view field) {
    glm::mat4 m(1.0f);
    for (int row = 0; row < 4; ++row) m[row] = r.vec4(field);
    return m;
}

uint8_t packUnit(float v) {
    float b = std::round(std::clamp(v, -1.0f, 1.0f) * 127.0f + 127.0f);
    return static_cast<uint8_t>(b);
}

} // namespace horde::swtor
