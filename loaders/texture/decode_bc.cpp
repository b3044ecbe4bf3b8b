// Block-compressed texels decoded on the CPU, for what leaves the GPU's world: PNG images in a
// glTF export and content hashes. Integer arithmetic with fixed rounding (docs/formats/dds.md),
// so one block decodes to the same bytes everywhere.
#include <cstring>

#include "texture/decode_bc7.h"
#include "texture/texture.h"

namespace horde {

namespace {
using Texel = std::array<uint8_t, 4>;

uint16_t le16(const std::byte* p) { return uint16_t(uint16_t(p[0]) | uint16_t(p[1]) << 8); }
uint32_t le32(const std::byte* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }

// RGB565 with each channel widened by repeating its top bits (5 -> 8: v << 3 | v >> 2).
Texel expand565(uint16_t c) {
    const uint32_t r = c >> 11, g = (c >> 5) & 63, b = c & 31;
    return {uint8_t(r << 3 | r >> 2), uint8_t(g << 2 | g >> 4), uint8_t(b << 3 | b >> 2), 255};
}

uint8_t mix(uint32_t a, uint32_t b, uint32_t wa, uint32_t wb) {
    return uint8_t((a * wa + b * wb + (wa + wb) / 2) / (wa + wb));
}

// The colour half of BC1-3: `punchThrough` only for BC1, whose c0 <= c1 blocks have three
// colours and transparent black.
void colorBlock(const std::byte* b, bool punchThrough, Texel out[16]) {
    const uint16_t c0 = le16(b), c1 = le16(b + 2);
    Texel palette[4] = {expand565(c0), expand565(c1), {}, {}};
    const bool four = !punchThrough || c0 > c1;
    for (int ch = 0; ch < 3; ++ch) {
        if (four) {
            palette[2][ch] = mix(palette[0][ch], palette[1][ch], 2, 1);
            palette[3][ch] = mix(palette[0][ch], palette[1][ch], 1, 2);
        } else {
            palette[2][ch] = mix(palette[0][ch], palette[1][ch], 1, 1);
            palette[3][ch] = 0;
        }
    }
    palette[2][3] = 255;
    palette[3][3] = four ? 255 : 0;
    const uint32_t bits = le32(b + 4);
    for (int i = 0; i < 16; ++i) out[i] = palette[(bits >> (2 * i)) & 3];
}

// BC3's alpha, BC4 and BC5's channels: two endpoints and sixteen 3-bit indices.
void channelBlock(const std::byte* b, uint8_t out[16]) {
    const uint32_t e0 = uint32_t(b[0]), e1 = uint32_t(b[1]);
    uint8_t palette[8] = {uint8_t(e0), uint8_t(e1)};
    if (e0 > e1) {
        for (uint32_t k = 1; k <= 6; ++k) palette[k + 1] = mix(e0, e1, 7 - k, k);
    } else {
        for (uint32_t k = 1; k <= 4; ++k) palette[k + 1] = mix(e0, e1, 5 - k, k);
        palette[6] = 0;
        palette[7] = 255;
    }
    uint64_t bits = 0;
    for (int i = 0; i < 6; ++i) bits |= uint64_t(b[2 + i]) << (8 * i);
    for (int i = 0; i < 16; ++i) out[i] = palette[(bits >> (3 * i)) & 7];
}

void decodeBlock(PixelFormat format, const std::byte* b, Texel out[16]) {
    uint8_t channel[16];
    switch (format) {
    case PixelFormat::BC1: colorBlock(b, true, out); break;
    case PixelFormat::BC2:
        colorBlock(b + 8, false, out);
        for (int i = 0; i < 16; ++i) out[i][3] = uint8_t(((uint32_t(b[i / 2]) >> (4 * (i % 2))) & 15) * 17);
        break;
    case PixelFormat::BC3:
        colorBlock(b + 8, false, out);
        channelBlock(b, channel);
        for (int i = 0; i < 16; ++i) out[i][3] = channel[i];
        break;
    case PixelFormat::BC4:
        channelBlock(b, channel);
        for (int i = 0; i < 16; ++i) out[i] = {channel[i], 0, 0, 255};
        break;
    case PixelFormat::BC5:
        channelBlock(b, channel);
        for (int i = 0; i < 16; ++i) out[i] = {channel[i], 0, 0, 255};
        channelBlock(b + 8, channel);
        for (int i = 0; i < 16; ++i) out[i][1] = channel[i];
        break;
    case PixelFormat::BC7: decodeBc7Block(b, out); break;
    default: break;
    }
}
} // namespace

Result<std::vector<uint8_t>> decodeRgba8(const Texture& t, size_t levelIndex) {
    if (levelIndex >= t.levels.size()) return Error{t.file + ": no level " + std::to_string(levelIndex)};
    const TextureLevel& level = t.levels[levelIndex];
    if (level.offset > t.bytes.size() || level.size > t.bytes.size() - level.offset ||
        level.size != levelBytes(t.format, level.width, level.height))
        return Error{t.file + ": level " + std::to_string(levelIndex) + " does not lie in the texture's bytes"};
    const std::byte* src = t.bytes.data() + level.offset;
    const size_t w = level.width, h = level.height;
    std::vector<uint8_t> out(w * h * 4);
    if (t.format == PixelFormat::RGBA8) {
        std::memcpy(out.data(), src, out.size());
        return out;
    }
    if (t.format == PixelFormat::BGRA8) {
        for (size_t i = 0; i < w * h; ++i) {
            out[i * 4 + 0] = uint8_t(src[i * 4 + 2]);
            out[i * 4 + 1] = uint8_t(src[i * 4 + 1]);
            out[i * 4 + 2] = uint8_t(src[i * 4 + 0]);
            out[i * 4 + 3] = uint8_t(src[i * 4 + 3]);
        }
        return out;
    }
    const size_t blockSize = blockBytes(t.format), blocksWide = (w + 3) / 4;
    Texel block[16];
    for (size_t by = 0; by < (h + 3) / 4; ++by)
        for (size_t bx = 0; bx < blocksWide; ++bx) {
            decodeBlock(t.format, src + (by * blocksWide + bx) * blockSize, block);
            for (size_t y = 0; y < 4 && by * 4 + y < h; ++y)
                for (size_t x = 0; x < 4 && bx * 4 + x < w; ++x)
                    std::memcpy(&out[((by * 4 + y) * w + bx * 4 + x) * 4], block[y * 4 + x].data(), 4);
        }
    return out;
}

} // namespace horde
