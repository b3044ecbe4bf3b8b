// BC7 (docs/formats/dds.md): eight modes, each a different split of the block's 128 bits into
// partition, rotation, endpoints, p-bits and indices. Integer arithmetic throughout, the
// interpolation D3D11 and Vulkan require to be bit exact, so the decoded bytes match a GPU's.
#include "texture/decode_bc7.h"

#include <bit>
#include <utility>

namespace horde {

namespace {

struct Mode {
    uint8_t subsets, partitionBits, rotationBits, selectorBits, colorBits, alphaBits;
    bool endpointPBits, sharedPBits;
    uint8_t indexBits, index2Bits; // index2Bits: the second index set of modes 4 and 5
};

constexpr Mode kModes[8] = {
    {3, 4, 0, 0, 4, 0, true, false, 3, 0}, {2, 6, 0, 0, 6, 0, false, true, 3, 0},
    {3, 6, 0, 0, 5, 0, false, false, 2, 0}, {2, 6, 0, 0, 7, 0, true, false, 2, 0},
    {1, 0, 2, 1, 5, 6, false, false, 2, 3}, {1, 0, 2, 0, 7, 8, false, false, 2, 2},
    {1, 0, 0, 0, 7, 7, true, false, 4, 0},  {2, 6, 0, 0, 5, 5, true, false, 2, 0},
};

// The subset of each texel, two bits per texel (texel i at bits 2i), for the 64 partitions of
// the two- and three-subset modes.
constexpr uint32_t kPartitions2[64] = {
    0x50505050, 0x40404040, 0x54545454, 0x54505040, 0x50404000, 0x55545450, 0x55545040, 0x54504000,
    0x50400000, 0x55555450, 0x55544000, 0x54400000, 0x55555440, 0x55550000, 0x55555500, 0x55000000,
    0x55150100, 0x00004054, 0x15010000, 0x00405054, 0x00004050, 0x15050100, 0x05010000, 0x40505054,
    0x00404050, 0x05010100, 0x14141414, 0x05141450, 0x01155440, 0x00555500, 0x15014054, 0x05414150,
    0x44444444, 0x55005500, 0x11441144, 0x05055050, 0x05500550, 0x11114444, 0x41144114, 0x44111144,
    0x15055054, 0x01055040, 0x05041050, 0x05455150, 0x14414114, 0x50050550, 0x41411414, 0x00141400,
    0x00041504, 0x00105410, 0x10541000, 0x04150400, 0x50410514, 0x41051450, 0x05415014, 0x14054150,
    0x41050514, 0x41505014, 0x40011554, 0x54150140, 0x50505500, 0x00555050, 0x15151010, 0x54540404,
};
constexpr uint32_t kPartitions3[64] = {
    0xAA685050, 0x6A5A5040, 0x5A5A4200, 0x5450A0A8, 0xA5A50000, 0xA0A05050, 0x5555A0A0, 0x5A5A5050,
    0xAA550000, 0xAA555500, 0xAAAA5500, 0x90909090, 0x94949494, 0xA4A4A4A4, 0xA9A59450, 0x2A0A4250,
    0xA5945040, 0x0A425054, 0xA5A5A500, 0x55A0A0A0, 0xA8A85454, 0x6A6A4040, 0xA4A45000, 0x1A1A0500,
    0x0050A4A4, 0xAAA59090, 0x14696914, 0x69691400, 0xA08585A0, 0xAA821414, 0x50A4A450, 0x6A5A0200,
    0xA9A58000, 0x5090A0A8, 0xA8A09050, 0x24242424, 0x00AA5500, 0x24924924, 0x24499224, 0x50A50A50,
    0x500AA550, 0xAAAA4444, 0x66660000, 0xA5A0A5A0, 0x50A050A0, 0x69286928, 0x44AAAA44, 0x66666600,
    0xAA444444, 0x54A854A8, 0x95809580, 0x96969600, 0xA85454A8, 0x80959580, 0xAA141414, 0x96960000,
    0xAAAA1414, 0xA05050A0, 0xA0A5A5A0, 0x96000000, 0x40804080, 0xA9A8A9A8, 0xAAAAAA44, 0x2A4A5254,
};

// The anchor texel of each subset after the first (whose anchor is texel 0): its index is stored
// with one bit fewer, the top bit being zero.
constexpr uint8_t kAnchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8,  2,  2,  8,
    8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2,  8,  2,  2,
    2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2,  15,
};
constexpr uint8_t kAnchor3Second[64] = {
    3,  3,  15, 15, 8,  3,  15, 15, 8,  8,  6,  6, 6, 5, 3,  3,  3, 3,  8,  15, 3,  3,
    6,  10, 5,  8,  8,  6,  8,  5,  15, 15, 8,  15, 3, 5, 6,  10, 8, 15, 15, 3,  15, 5,
    15, 15, 15, 15, 3,  15, 5,  5,  5,  8,  5,  10, 5, 10, 8, 13, 15, 12, 3, 3,
};
constexpr uint8_t kAnchor3Third[64] = {
    15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8,  15, 8,  15, 3,  15, 8,
    15, 8,  3,  15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8,  9,  10, 6,  15, 8,  15,
    3,  6,  6,  8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3,  15, 15, 8,
};

constexpr uint8_t kWeights2[4] = {0, 21, 43, 64};
constexpr uint8_t kWeights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
constexpr uint8_t kWeights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

uint8_t interpolate(uint32_t e0, uint32_t e1, uint32_t index, uint32_t bits) {
    const uint32_t w = bits == 2 ? kWeights2[index] : bits == 3 ? kWeights3[index] : kWeights4[index];
    return uint8_t(((64 - w) * e0 + w * e1 + 32) >> 6);
}

// The block's bits in order, least significant bit of byte 0 first.
class Bits {
  public:
    explicit Bits(const std::byte* b) {
        for (int i = 0; i < 8; ++i) {
            lo_ |= uint64_t(b[i]) << (8 * i);
            hi_ |= uint64_t(b[8 + i]) << (8 * i);
        }
    }
    uint32_t take(uint32_t n) {
        if (n == 0) return 0;
        const uint64_t v = pos_ >= 64 ? hi_ >> (pos_ - 64) : pos_ + n <= 64 ? lo_ >> pos_ : (lo_ >> pos_) | hi_ << (64 - pos_);
        pos_ += n;
        return uint32_t(v & ((uint64_t(1) << n) - 1));
    }

  private:
    uint64_t lo_ = 0, hi_ = 0;
    uint32_t pos_ = 0;
};

// A quantized endpoint widened to 8 bits by repeating its top bits below it.
uint32_t widen(uint32_t v, uint32_t bits) {
    v <<= 8 - bits;
    return v | v >> bits;
}

} // namespace

void decodeBc7Block(const std::byte* block, std::array<uint8_t, 4> out[16]) {
    const uint32_t first = uint32_t(block[0]);
    if (first == 0) { // the reserved mode: every texel transparent black
        for (int i = 0; i < 16; ++i) out[i] = {0, 0, 0, 0};
        return;
    }
    const uint32_t modeIndex = uint32_t(std::countr_zero(first));
    const Mode& m = kModes[modeIndex];
    Bits bits(block);
    bits.take(modeIndex + 1);
    const uint32_t partition = bits.take(m.partitionBits);
    const uint32_t rotation = bits.take(m.rotationBits);
    const uint32_t selector = bits.take(m.selectorBits);

    const uint32_t endpoints = 2u * m.subsets;
    uint32_t e[6][4] = {};
    for (uint32_t ch = 0; ch < 3; ++ch)
        for (uint32_t i = 0; i < endpoints; ++i) e[i][ch] = bits.take(m.colorBits);
    for (uint32_t i = 0; i < endpoints; ++i) e[i][3] = bits.take(m.alphaBits);
    uint32_t colorBits = m.colorBits, alphaBits = m.alphaBits;
    if (m.endpointPBits || m.sharedPBits) {
        uint32_t p[6];
        if (m.endpointPBits)
            for (uint32_t i = 0; i < endpoints; ++i) p[i] = bits.take(1);
        else
            for (uint32_t s = 0; s < m.subsets; ++s) p[2 * s] = p[2 * s + 1] = bits.take(1);
        for (uint32_t i = 0; i < endpoints; ++i)
            for (uint32_t ch = 0; ch < 4; ++ch) e[i][ch] = e[i][ch] << 1 | p[i];
        ++colorBits;
        if (alphaBits) ++alphaBits;
    }
    for (uint32_t i = 0; i < endpoints; ++i) {
        for (uint32_t ch = 0; ch < 3; ++ch) e[i][ch] = widen(e[i][ch], colorBits);
        e[i][3] = alphaBits ? widen(e[i][3], alphaBits) : 255;
    }

    const uint32_t subsetsOf = m.subsets == 2 ? kPartitions2[partition] : m.subsets == 3 ? kPartitions3[partition] : 0;
    auto anchor = [&](uint32_t i) {
        return i == 0 || (m.subsets == 2 && i == kAnchor2[partition]) ||
               (m.subsets == 3 && (i == kAnchor3Second[partition] || i == kAnchor3Third[partition]));
    };
    uint32_t index[16], index2[16] = {};
    for (uint32_t i = 0; i < 16; ++i) index[i] = bits.take(m.indexBits - (anchor(i) ? 1 : 0));
    if (m.index2Bits)
        for (uint32_t i = 0; i < 16; ++i) index2[i] = bits.take(m.index2Bits - (i == 0 ? 1 : 0));

    for (uint32_t i = 0; i < 16; ++i) {
        const uint32_t s = (subsetsOf >> (2 * i)) & 3;
        const uint32_t* e0 = e[2 * s];
        const uint32_t* e1 = e[2 * s + 1];
        // Modes 4 and 5 index colour and alpha separately; mode 4's selector swaps which of them
        // takes the 3-bit set.
        uint32_t ci = index[i], cb = m.indexBits, ai = index[i], ab = m.indexBits;
        if (m.index2Bits) {
            ai = index2[i], ab = m.index2Bits;
            if (selector) std::swap(ci, ai), std::swap(cb, ab);
        }
        std::array<uint8_t, 4> t{interpolate(e0[0], e1[0], ci, cb), interpolate(e0[1], e1[1], ci, cb),
                                 interpolate(e0[2], e1[2], ci, cb), interpolate(e0[3], e1[3], ai, ab)};
        if (rotation) std::swap(t[3], t[rotation - 1]);
        out[i] = t;
    }
}

} // namespace horde
