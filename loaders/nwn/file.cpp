#include "nwn/nwn.h"

#include <cctype>
#include <cmath>
#include <cstdio>

namespace horde::nwn {

File::File(std::span<const std::byte> bytes, const std::filesystem::path& path)
    : r_(bytes, path.string()),
      reads_(kReadBudgetPerByte * bytes.size(), "the file's structures share data so much that decoding would read more than " +
                                                    std::to_string(kReadBudgetPerByte) + " times its " +
                                                    std::to_string(bytes.size()) + " bytes") {}

bool File::open() {
    if (r_.size() < kFileHeaderSize)
        return r_.failAt(r_.size(), "header",
                         "NWN binary model cut short: its " + std::to_string(kFileHeaderSize) +
                             "-byte file header runs past the end of the file");
    if (r_.u32("header: binary marker") != 0)
        return r_.failAt(0, "header: binary marker", "not 0, so not a binary MDL (an ASCII MDL starts with text: horde reads only compiled, binary MDL)");
    uint32_t model = r_.u32("header: model data size");
    uint32_t raw = r_.u32("header: raw data size");
    if (!r_.ok()) return false;
    // A file cut short: say where it ends and which region runs past it.
    const uint64_t rawAt = uint64_t(kFileHeaderSize) + model;
    if (rawAt > r_.size())
        return r_.failAt(r_.size(), "header: model data size",
                         "NWN binary model cut short: model data (offset " + std::to_string(kFileHeaderSize) +
                             ", size " + std::to_string(model) + ") runs past the end of the file");
    if (rawAt + raw > r_.size())
        return r_.failAt(r_.size(), "header: raw data size",
                         "NWN binary model cut short: raw data (offset " + std::to_string(rawAt) + ", size " +
                             std::to_string(raw) + ") runs past the end of the file");
    if (model < kModelHeaderSize)
        return r_.failAt(4, "header: model data size", "smaller than the model header (" + std::to_string(model) + " bytes)");
    modelSize_ = model;
    rawBegin_ = kFileHeaderSize + model;
    rawSize_ = raw;
    return true;
}

bool File::inside(size_t begin, uint64_t bytes, size_t regionBegin, size_t regionSize, std::string_view field,
                  std::string_view region) {
    if (!r_.ok()) return false;
    uint64_t rel = begin - regionBegin;
    if (begin < regionBegin || rel > regionSize || bytes > regionSize - rel)
        return r_.fail(field, "offset " + std::to_string(rel) + " + " + std::to_string(bytes) + " bytes runs past the " +
                                  std::string(region) + " (" + std::to_string(regionSize) + " bytes)");
    return r_.seek(begin, field);
}

bool File::seekStruct(uint32_t base, size_t size, size_t offset, std::string_view field) {
    if (base == 0) return r_.fail(field, "null model-data pointer");
    if (!inside(kFileHeaderSize + size_t(base), size, kFileHeaderSize, modelSize_, field, "model data")) return false;
    return r_.seek(kFileHeaderSize + size_t(base) + offset, field);
}

bool File::seekModelHeader(size_t offset, std::string_view field) {
    if (!inside(kFileHeaderSize, kModelHeaderSize, kFileHeaderSize, modelSize_, field, "model data")) return false;
    return r_.seek(kFileHeaderSize + offset, field);
}

bool File::seekModelArray(uint32_t offset, uint64_t count, uint64_t elementSize, std::string_view field) {
    if (count == 0) return r_.ok();
    if (offset == 0) return r_.fail(field, std::to_string(count) + " elements at a null model-data pointer");
    if (elementSize != 0 && count > modelSize_ / elementSize)
        return r_.fail(field, "count " + std::to_string(count) + " does not fit in the model data");
    return inside(kFileHeaderSize + size_t(offset), count * elementSize, kFileHeaderSize, modelSize_, field, "model data") &&
           r_.charge(reads_, count * elementSize, field);
}

bool File::seekRawArray(uint32_t offset, uint64_t count, uint64_t elementSize, std::string_view field) {
    if (offset == kRawNull) return r_.fail(field, "null raw-data pointer");
    if (elementSize != 0 && count > rawSize_ / elementSize + 1)
        return r_.fail(field, "count " + std::to_string(count) + " does not fit in the raw data");
    return inside(rawBegin_ + size_t(offset), count * elementSize, rawBegin_, rawSize_, field, "raw data") &&
           r_.charge(reads_, count * elementSize, field);
}

Array File::array(std::string_view field) {
    Array a;
    a.offset = r_.u32(field);
    a.count = r_.u32(field);
    r_.u32(field); // allocated: equals used in compiled files and means nothing on disk
    return a;
}

bool readModelHeader(File& file, ModelHeader& h) {
    Reader& r = file.reader();
    if (!file.seekModelHeader(kGeomName, "model name")) return false;
    h.name = file.name(64, "model name");
    h.root = r.u32("model root node");
    file.seekModelHeader(kModelAnimations, "model animations");
    h.animations = file.array("model animations");
    file.seekModelHeader(kModelAnimationScale, "model animation scale");
    h.animationScale = r.f32("model animation scale");
    h.supermodel = file.name(64, "model supermodel");
    if (asciiLower(h.supermodel) == "null") h.supermodel.clear();
    if (!r.ok()) return false;
    if (!std::isfinite(h.animationScale))
        return r.failAt(kFileHeaderSize + kModelAnimationScale, "model animation scale", "not finite");
    if (h.root == 0) return r.failAt(kFileHeaderSize + kGeomRootNode, "model root node", "null: the model has no nodes");
    return true;
}

Axes fileAxes() {
    return Axes{.up = Axes::Up::Z, .leftHanded = false, .clockwiseFrontFaces = false, .metresPerUnit = 1.0f};
}

std::string hex(uint32_t value) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%X", value);
    return text;
}

} // namespace horde::nwn
