// DDS: Microsoft's "DDS " header and its DX10 extension (docs/formats/dds.md). Every field is
// checked before use; the levels the header claims must all lie inside the file.
#include <algorithm>
#include <bit>
#include <cstring>

#include "reader.h"
#include "texture/texture.h"

namespace horde {

namespace {

constexpr uint32_t kHeaderSize = 124, kPixelFormatSize = 32;
constexpr uint32_t kFlagMipCount = 0x20000;
constexpr uint32_t kPfAlphaPixels = 0x1, kPfFourCC = 0x4, kPfRgb = 0x40;
constexpr uint32_t kCaps2Cubemap = 0x200, kCaps2Volume = 0x200000;
constexpr uint32_t kDx10Texture2D = 3;

constexpr uint32_t fourCC(const char (&s)[5]) {
    return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 | uint32_t(uint8_t(s[3])) << 24;
}

struct PixelLayout {
    uint32_t flags = 0, fourCC = 0, bits = 0, r = 0, g = 0, b = 0, a = 0;
};

// How the stored texels become a PixelFormat: as they are, or widened from 24 bits / given alpha.
struct Source {
    PixelFormat format = PixelFormat::RGBA8;
    uint32_t storedBytesPerTexel = 0; // 0: blocks, kept as stored
    bool opaque = false;              // 32-bit texels whose fourth byte is not alpha
};

bool fromDxgi(uint32_t dxgi, Source& out) {
    switch (dxgi) {
    case 71: case 72: out.format = PixelFormat::BC1; return true;
    case 74: case 75: out.format = PixelFormat::BC2; return true;
    case 77: case 78: out.format = PixelFormat::BC3; return true;
    case 80: out.format = PixelFormat::BC4; return true;
    case 83: out.format = PixelFormat::BC5; return true;
    case 98: case 99: out.format = PixelFormat::BC7; return true;
    case 28: case 29: out = {PixelFormat::RGBA8, 4, false}; return true;
    case 87: case 91: out = {PixelFormat::BGRA8, 4, false}; return true;
    case 88: case 93: out = {PixelFormat::BGRA8, 4, true}; return true;
    default: return false;
    }
}

bool fromFourCC(uint32_t code, Source& out) {
    if (code == fourCC("DXT1")) out.format = PixelFormat::BC1;
    else if (code == fourCC("DXT2") || code == fourCC("DXT3")) out.format = PixelFormat::BC2;
    else if (code == fourCC("DXT4") || code == fourCC("DXT5")) out.format = PixelFormat::BC3;
    else if (code == fourCC("ATI1") || code == fourCC("BC4U")) out.format = PixelFormat::BC4;
    else if (code == fourCC("ATI2") || code == fourCC("BC5U")) out.format = PixelFormat::BC5;
    else return false;
    return true;
}

// 24- and 32-bit RGB with byte-aligned masks in either channel order.
bool fromMasks(const PixelLayout& pf, Source& out) {
    const bool alpha = (pf.flags & kPfAlphaPixels) && pf.a == 0xFF000000u;
    if (pf.bits == 32 && pf.r == 0x00FF0000u && pf.g == 0x0000FF00u && pf.b == 0x000000FFu) out = {PixelFormat::BGRA8, 4, !alpha};
    else if (pf.bits == 32 && pf.r == 0x000000FFu && pf.g == 0x0000FF00u && pf.b == 0x00FF0000u) out = {PixelFormat::RGBA8, 4, !alpha};
    else if (pf.bits == 24 && pf.r == 0x00FF0000u && pf.g == 0x0000FF00u && pf.b == 0x000000FFu) out = {PixelFormat::BGRA8, 3, true};
    else if (pf.bits == 24 && pf.r == 0x000000FFu && pf.g == 0x0000FF00u && pf.b == 0x00FF0000u) out = {PixelFormat::RGBA8, 3, true};
    else return false;
    return true;
}

std::string hex(uint32_t v) {
    char s[16];
    std::snprintf(s, sizeof s, "0x%08X", v);
    return s;
}

} // namespace

Result<Texture> readDds(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator) {
    Reader r(bytes, std::string(file));
    r.expect("DDS ", "magic");
    const size_t headerAt = r.offset();
    if (r.u32("header.size") != kHeaderSize && r.ok()) r.failAt(headerAt, "header.size", "must be 124");
    const uint32_t flags = r.u32("header.flags");
    const uint32_t height = r.u32("header.height");
    const uint32_t width = r.u32("header.width");
    r.u32("header.pitchOrLinearSize"); // recomputed from width and format: writers disagree on it
    r.u32("header.depth");
    const size_t mipAt = r.offset();
    const uint32_t mipField = r.u32("header.mipMapCount");
    r.skip(11 * 4, "header.reserved1");
    const size_t pfAt = r.offset();
    if (r.u32("pixelFormat.size") != kPixelFormatSize && r.ok()) r.failAt(pfAt, "pixelFormat.size", "must be 32");
    PixelLayout pf;
    pf.flags = r.u32("pixelFormat.flags");
    pf.fourCC = r.u32("pixelFormat.fourCC");
    pf.bits = r.u32("pixelFormat.rgbBitCount");
    pf.r = r.u32("pixelFormat.rBitMask");
    pf.g = r.u32("pixelFormat.gBitMask");
    pf.b = r.u32("pixelFormat.bBitMask");
    pf.a = r.u32("pixelFormat.aBitMask");
    r.u32("header.caps");
    const size_t caps2At = r.offset();
    const uint32_t caps2 = r.u32("header.caps2");
    r.skip(3 * 4, "header.caps3..reserved2");
    if (!r.ok()) return r.error();
    if (caps2 & (kCaps2Cubemap | kCaps2Volume)) {
        r.failAt(caps2At, "header.caps2", "a cube map or volume texture; horde draws 2D textures only");
        return r.error();
    }

    Source source;
    if ((pf.flags & kPfFourCC) && pf.fourCC == fourCC("DX10")) {
        const size_t dxgiAt = r.offset();
        const uint32_t dxgi = r.u32("dx10.dxgiFormat");
        const uint32_t dimension = r.u32("dx10.resourceDimension");
        r.u32("dx10.miscFlag");
        const uint32_t arraySize = r.u32("dx10.arraySize");
        r.u32("dx10.miscFlags2");
        if (!r.ok()) return r.error();
        if (!fromDxgi(dxgi, source)) r.failAt(dxgiAt, "dx10.dxgiFormat", std::to_string(dxgi) + " is not a format horde reads (BC1-5, BC7, RGBA8, BGRA8)");
        else if (dimension != kDx10Texture2D) r.failAt(dxgiAt + 4, "dx10.resourceDimension", std::to_string(dimension) + " is not a 2D texture (3)");
        else if (arraySize > 1) r.failAt(dxgiAt + 12, "dx10.arraySize", std::to_string(arraySize) + " layers; horde draws single 2D textures");
    } else if (pf.flags & kPfFourCC) {
        if (!fromFourCC(pf.fourCC, source))
            r.failAt(pfAt + 8, "pixelFormat.fourCC", hex(pf.fourCC) + " is not a format horde reads (DXT1-5, ATI1/BC4U, ATI2/BC5U, DX10)");
    } else if (!(pf.flags & kPfRgb) || !fromMasks(pf, source)) {
        r.failAt(pfAt + 4, "pixelFormat", std::to_string(pf.bits) + "-bit texels with masks " + hex(pf.r) + " " + hex(pf.g) + " " +
                                              hex(pf.b) + " " + hex(pf.a) + " are not a layout horde reads (24/32-bit RGB or BGR)");
    }
    if (!r.ok()) return r.error();
    if (width == 0 || height == 0 || width > kMaxTextureSize || height > kMaxTextureSize) {
        r.failAt(headerAt + 8, "header.width/height", std::to_string(width) + " x " + std::to_string(height) +
                                                        " is not between 1 and " + std::to_string(kMaxTextureSize));
        return r.error();
    }
    const uint32_t fullChain = uint32_t(std::bit_width(std::max(width, height)));
    const uint32_t mips = (flags & kFlagMipCount) && mipField > 0 ? mipField : 1;
    if (mips > fullChain) {
        r.failAt(mipAt, "header.mipMapCount", std::to_string(mips) + " levels; a " + std::to_string(width) + " x " +
                                                std::to_string(height) + " texture has at most " + std::to_string(fullChain));
        return r.error();
    }

    Texture t;
    t.file = std::string(file);
    t.format = source.format;
    t.width = width;
    t.height = height;
    uint64_t total = 0;
    for (uint32_t m = 0; m < mips; ++m) {
        TextureLevel level{std::max(width >> m, 1u), std::max(height >> m, 1u), total, 0};
        level.size = levelBytes(t.format, level.width, level.height);
        total += level.size;
        t.levels.push_back(level);
    }
    const uint64_t storedTotal = source.storedBytesPerTexel ? total / 4 * source.storedBytesPerTexel : total;
    const size_t dataAt = r.offset();
    if (storedTotal > r.remaining()) {
        // Name the first level that runs past the end: the one a lying header or a cut file loses.
        uint64_t at = 0;
        uint32_t m = 0;
        for (; m < mips; ++m) {
            uint64_t stored = source.storedBytesPerTexel ? t.levels[m].size / 4 * source.storedBytesPerTexel : t.levels[m].size;
            if (at + stored > r.remaining()) break;
            at += stored;
        }
        r.failAt(dataAt + at, "level " + std::to_string(m),
                 std::to_string(mips) + " levels of " + pixelFormatName(t.format) + " need " + std::to_string(storedTotal) +
                     " bytes after the header but the file has " + std::to_string(r.remaining()));
        return r.error();
    }
    std::span<const std::byte> data = r.bytes(size_t(storedTotal), "levels");
    // The levels lie one after another in the file as in the storage: kept as stored, they are
    // one copy from the mapped file into the (mapped GPU) storage.
    std::shared_ptr<TextureStorage> storage = allocateLevels(t, allocator, total);
    std::byte* out = storage->bytes.data();
    if (source.storedBytesPerTexel == 0 || (source.storedBytesPerTexel == 4 && !source.opaque)) {
        std::memcpy(out, data.data(), data.size());
    } else {
        const uint32_t stride = source.storedBytesPerTexel;
        for (uint64_t i = 0, n = total / 4; i < n; ++i) {
            std::memcpy(out + i * 4, &data[i * stride], 3);
            out[i * 4 + 3] = std::byte{0xFF};
        }
    }
    storage->commit();
    return t;
}

Result<Texture> readBiowareDds(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator) {
    Reader r(bytes, std::string(file));
    const uint32_t width = r.u32("header.width");
    const uint32_t height = r.u32("header.height");
    const size_t colorsAt = r.offset();
    const uint32_t colors = r.u32("header.colors");
    r.u32("header.baseLevelSize");
    r.f32("header.alphaMean");
    if (!r.ok()) return r.error();
    if (colors != 3 && colors != 4) {
        r.failAt(colorsAt, "header.colors", std::to_string(colors) + " is neither 3 (DXT1) nor 4 (DXT5)");
        return r.error();
    }
    if (width == 0 || height == 0 || width > kMaxTextureSize || height > kMaxTextureSize) {
        r.failAt(0, "header.width/height", std::to_string(width) + " x " + std::to_string(height) + " is not between 1 and " +
                                               std::to_string(kMaxTextureSize));
        return r.error();
    }
    Texture t;
    t.file = std::string(file);
    t.format = colors == 3 ? PixelFormat::BC1 : PixelFormat::BC3;
    t.width = width;
    t.height = height;
    // The header has no level count: the levels are as many whole ones as the file holds.
    const uint32_t fullChain = uint32_t(std::bit_width(std::max(width, height)));
    uint64_t total = 0;
    for (uint32_t m = 0; m < fullChain; ++m) {
        TextureLevel level{std::max(width >> m, 1u), std::max(height >> m, 1u), total, 0};
        level.size = levelBytes(t.format, level.width, level.height);
        if (total + level.size > r.remaining()) break;
        total += level.size;
        t.levels.push_back(level);
    }
    if (t.levels.empty()) {
        r.failAt(r.offset(), "level 0", std::to_string(width) + " x " + std::to_string(height) + " " + pixelFormatName(t.format) + " needs " +
                                            std::to_string(levelBytes(t.format, width, height)) + " bytes but the file has " +
                                            std::to_string(r.remaining()) + " after the header");
        return r.error();
    }
    std::span<const std::byte> data = r.bytes(size_t(total), "levels");
    std::shared_ptr<TextureStorage> storage = allocateLevels(t, allocator, total);
    std::memcpy(storage->bytes.data(), data.data(), data.size());
    storage->commit();
    return t;
}

} // namespace horde
