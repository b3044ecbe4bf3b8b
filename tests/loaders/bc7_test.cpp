// The BC7 decoder (decode_bc7.cpp) on blocks built bit by bit from the format's layout, each
// texel's value worked out here from the endpoints, p-bits and weights of the D3D11 / Khronos
// Data Format specification; and a BC7 DDS file carried through a .glb export and back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "loader.h"
#include "monster.h"
#include "support/bytes.h"
#include "support/temp_dir.h"
#include "texture/texture.h"

using namespace horde;

namespace {

// A block's fields in the order the format lists them, each `bits` wide, least significant bit
// first from bit 0 of byte 0.
class BlockBits {
  public:
    BlockBits& put(uint32_t bits, uint64_t value) {
        for (uint32_t i = 0; i < bits; ++i, ++pos_)
            if (value >> i & 1) bytes_[pos_ / 8] |= uint8_t(1u << (pos_ % 8));
        return *this;
    }
    std::vector<std::byte> done() const {
        EXPECT_EQ(pos_, 128u) << "a BC7 block is 128 bits";
        std::vector<std::byte> out;
        for (uint8_t b : bytes_) out.push_back(std::byte(b));
        return out;
    }

  private:
    uint8_t bytes_[16] = {};
    uint32_t pos_ = 0;
};

using Texel = std::vector<uint8_t>;

std::vector<Texel> decodeBlock(const std::vector<std::byte>& block) {
    Texture t;
    t.file = "bc7";
    t.format = PixelFormat::BC7;
    t.width = t.height = 4;
    t.levels.push_back({4, 4, 0, 16});
    copyLevels(t, block);
    Result<std::vector<uint8_t>> rgba = decodeRgba8(t);
    EXPECT_TRUE(rgba) << rgba.error().message;
    std::vector<Texel> out;
    if (rgba && rgba->size() == 64)
        for (size_t i = 0; i < 16; ++i) out.push_back(Texel(rgba->begin() + i * 4, rgba->begin() + i * 4 + 4));
    else
        out.resize(16);
    return out;
}

// Mode 6: one subset, 7-bit RGBA endpoints with a p-bit each, 4-bit indices.
std::vector<std::byte> mode6Block() {
    BlockBits b;
    b.put(7, 0x40);                       // mode 6: six zeros, then a one
    b.put(7, 0).put(7, 127);              // R0 R1
    b.put(7, 64).put(7, 64);              // G0 G1
    b.put(7, 10).put(7, 20);              // B0 B1
    b.put(7, 127).put(7, 0);              // A0 A1
    b.put(1, 0).put(1, 1);                // p-bits of endpoint 0 and 1
    b.put(3, 0);                          // texel 0, the anchor: one bit fewer
    for (uint32_t i = 1; i < 16; ++i) b.put(4, i); // texel i takes index i
    return b.done();
}

TEST(Bc7, Mode6OneSubsetWithPBits) {
    // Endpoint 0 = (0, 64, 10, 127) << 1 | 0 = (0, 128, 20, 254); endpoint 1 = (127, 64, 20, 0)
    // << 1 | 1 = (255, 129, 41, 1). Eight bits already: no widening. Texel i weight w = the
    // 4-bit table's i-th (0 4 9 13 17 21 26 30 34 38 43 47 51 55 60 64), each channel
    // ((64 - w) e0 + w e1 + 32) >> 6.
    const std::vector<Texel> t = decodeBlock(mode6Block());
    EXPECT_EQ(t[0], (Texel{0, 128, 20, 254}));
    // w = 21: R (21 * 255 + 32) >> 6 = 5387 >> 6 = 84; G (43 * 128 + 21 * 129 + 32) >> 6 = 8245 >> 6
    // = 128; B (43 * 20 + 21 * 41 + 32) >> 6 = 1753 >> 6 = 27; A (43 * 254 + 21 + 32) >> 6 = 10975 >> 6 = 171.
    EXPECT_EQ(t[5], (Texel{84, 128, 27, 171}));
    // w = 34: R 8702 >> 6 = 135; G (30 * 128 + 34 * 129 + 32) = 8258 >> 6 = 129; B (600 + 1394 + 32)
    // = 2026 >> 6 = 31; A (7620 + 34 + 32) = 7686 >> 6 = 120.
    EXPECT_EQ(t[8], (Texel{135, 129, 31, 120}));
    EXPECT_EQ(t[15], (Texel{255, 129, 41, 1}));
}

TEST(Bc7, Mode1TwoSubsetsWithSharedPBits) {
    // Partition 13: rows 0-1 subset 0, rows 2-3 subset 1; subset 1's anchor is texel 15.
    BlockBits b;
    b.put(2, 0b10).put(6, 13);
    b.put(6, 63).put(6, 0).put(6, 0).put(6, 0);  // R: subset 0 e0 e1, subset 1 e0 e1
    b.put(6, 0).put(6, 0).put(6, 32).put(6, 63); // G
    b.put(6, 0).put(6, 63).put(6, 0).put(6, 0);  // B
    b.put(1, 1).put(1, 0);                       // shared p-bits: subset 0, subset 1
    const uint32_t index[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 3};
    for (uint32_t i = 0; i < 16; ++i) b.put(i == 0 || i == 15 ? 2 : 3, index[i]);
    const std::vector<Texel> t = decodeBlock(b.done());
    // 7-bit endpoints (6 bits and the p-bit) widened to 8 by repeating the top bit below: subset 0
    // e0 = (127, 1, 1) -> (255, 2, 2), e1 = (1, 1, 127) -> (2, 2, 255); subset 1 e0 G 64 -> 129,
    // e1 G 126 -> 253. Weights 0 9 18 27 37 46 55 64.
    EXPECT_EQ(t[0], (Texel{255, 2, 2, 255}));
    // w = 27: R (37 * 255 + 27 * 2 + 32) >> 6 = 9521 >> 6 = 148; G 2; B (74 + 6885 + 32) >> 6 = 109.
    EXPECT_EQ(t[3], (Texel{148, 2, 109, 255}));
    EXPECT_EQ(t[7], (Texel{2, 2, 255, 255}));
    EXPECT_EQ(t[8], (Texel{0, 129, 0, 255}));
    // w = 37: G (27 * 129 + 37 * 253 + 32) >> 6 = 12876 >> 6 = 201.
    EXPECT_EQ(t[12], (Texel{0, 201, 0, 255}));
    // The anchor's 2-bit index 3, w = 27: G (37 * 129 + 27 * 253 + 32) >> 6 = 11636 >> 6 = 181.
    EXPECT_EQ(t[15], (Texel{0, 181, 0, 255}));
}

TEST(Bc7, Mode5SeparateAlphaIndicesAndRotation) {
    BlockBits b;
    b.put(6, 0b100000).put(2, 1);               // mode 5, rotation 1: alpha and red swap places
    b.put(7, 127).put(7, 0);                    // R0 R1
    b.put(7, 0).put(7, 0);                      // G0 G1
    b.put(7, 0).put(7, 127);                    // B0 B1
    b.put(8, 0).put(8, 200);                    // A0 A1: eight bits, no p-bits
    for (uint32_t i = 0; i < 16; ++i) b.put(i == 0 ? 1 : 2, i % 4); // colour indices
    for (uint32_t i = 0; i < 16; ++i) b.put(i == 0 ? 1 : 2, i / 4); // alpha indices
    const std::vector<Texel> t = decodeBlock(b.done());
    // Colour endpoints (255, 0, 0) and (0, 0, 255); alpha 0 and 200; weights 0 21 43 64. Texel 5:
    // colour w = 21 gives R (43 * 255 + 32) >> 6 = 171, B (21 * 255 + 32) >> 6 = 84; alpha w = 21
    // gives (21 * 200 + 32) >> 6 = 66. Rotation 1 then swaps R and A.
    EXPECT_EQ(t[5], (Texel{66, 0, 84, 171}));
    EXPECT_EQ(t[0], (Texel{0, 0, 0, 255}));
    // Colour w = 43: R (21 * 255 + 32) >> 6 = 84, B (43 * 255 + 32) >> 6 = 171; alpha index 2, w = 43:
    // (43 * 200 + 32) >> 6 = 134.
    EXPECT_EQ(t[10], (Texel{134, 0, 171, 84}));
    EXPECT_EQ(t[15], (Texel{200, 0, 255, 0}));
}

TEST(Bc7, Mode4IndexSelectorGivesColourTheThreeBitIndices) {
    BlockBits b;
    b.put(5, 0b10000).put(2, 0).put(1, 1);      // mode 4, no rotation, selector 1
    b.put(5, 0).put(5, 31);                     // R0 R1
    b.put(5, 0).put(5, 0);                      // G0 G1
    b.put(5, 0).put(5, 0);                      // B0 B1
    b.put(6, 63).put(6, 0);                     // A0 A1
    for (uint32_t i = 0; i < 16; ++i) b.put(i == 0 ? 1 : 2, i % 4); // the 2-bit set: alpha now
    for (uint32_t i = 0; i < 16; ++i) b.put(i == 0 ? 2 : 3, i % 8); // the 3-bit set: colour now
    const std::vector<Texel> t = decodeBlock(b.done());
    // R endpoints 0 and 31 -> 255 (5 bits: v << 3 | v >> 2); alpha 63 -> 255 and 0. Texel 5: colour
    // index 5, w = 46 of 0 9 18 27 37 46 55 64: R (46 * 255 + 32) >> 6 = 11762 >> 6 = 183; alpha
    // index 1, w = 21: (43 * 255 + 32) >> 6 = 171.
    EXPECT_EQ(t[5], (Texel{183, 0, 0, 171}));
    // Texel 3: colour index 3, w = 27: (27 * 255 + 32) >> 6 = 108; alpha index 3: 0.
    EXPECT_EQ(t[3], (Texel{108, 0, 0, 0}));
}

TEST(Bc7, Mode2ThreeSubsets) {
    // Partition 0: subsets 0 0 1 1 / 0 0 1 1 / 0 2 2 1 / 2 2 2 2; anchors texel 0, 3 and 15.
    BlockBits b;
    b.put(3, 0b100).put(6, 0);
    const uint32_t r[6] = {31, 0, 0, 0, 0, 0}, g[6] = {0, 0, 31, 16, 0, 0}, bl[6] = {0, 0, 0, 0, 31, 8};
    for (uint32_t v : r) b.put(5, v);
    for (uint32_t v : g) b.put(5, v);
    for (uint32_t v : bl) b.put(5, v);
    const uint32_t index[16] = {0, 1, 2, 1, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 1};
    for (uint32_t i = 0; i < 16; ++i) b.put(i == 0 || i == 3 || i == 15 ? 1 : 2, index[i]);
    const std::vector<Texel> t = decodeBlock(b.done());
    // 5-bit endpoints widened v << 3 | v >> 2: 31 -> 255, 16 -> 132, 8 -> 66. Weights 0 21 43 64.
    // Subset 0 runs red (255, 0, 0) to black; texel 5, w = 21: (43 * 255 + 32) >> 6 = 171.
    EXPECT_EQ(t[5], (Texel{171, 0, 0, 255}));
    // Subset 1: G 255 -> 132. Texel 2, w = 43: (21 * 255 + 43 * 132 + 32) >> 6 = 11063 >> 6 = 172;
    // texel 3, the anchor, index 1, w = 21: (43 * 255 + 21 * 132 + 32) >> 6 = 13769 >> 6 = 215.
    EXPECT_EQ(t[2], (Texel{0, 172, 0, 255}));
    EXPECT_EQ(t[3], (Texel{0, 215, 0, 255}));
    EXPECT_EQ(t[11], (Texel{0, 132, 0, 255}));
    // Subset 2: B 255 -> 66. Texel 9, w = 21: (43 * 255 + 21 * 66 + 32) >> 6 = 12383 >> 6 = 193.
    EXPECT_EQ(t[9], (Texel{0, 0, 193, 255}));
    EXPECT_EQ(t[15], (Texel{0, 0, 193, 255}));
    EXPECT_EQ(t[12], (Texel{0, 0, 255, 255}));
}

TEST(Bc7, ReservedModeIsTransparentBlack) {
    std::vector<std::byte> block(16, std::byte{0xFF});
    block[0] = std::byte{0};
    for (const Texel& texel : decodeBlock(block)) EXPECT_EQ(texel, (Texel{0, 0, 0, 0}));
}

// A DDS file of one mode-6 block behind a DX10 header (DXGI 98), read as the loaders read it,
// given to the monster's material and written as .glb: the embedded PNG decodes back to the
// texels worked out above.
TEST(Bc7, DdsThroughAGlbExportDecodesBackToTheTexels) {
    test::Bytes file;
    file.text("DDS ").u32(124).u32(0x1007).u32(4).u32(4).u32(16).u32(0).u32(1).zeros(44);
    file.u32(32).u32(0x4).text("DX10").zeros(20).u32(0x1000).zeros(16);
    file.u32(98).u32(3).u32(0).u32(1).u32(0);
    for (std::byte v : mode6Block()) file.put(v);
    HeapTextureAllocator heap;
    Result<Texture> texture = readDds("bc7.dds", file.span(), heap);
    ASSERT_TRUE(texture) << texture.error().message;
    ASSERT_EQ(texture->format, PixelFormat::BC7);

    test::TempDir dir("bc7_export");
    HeapMeshAllocator allocator;
    Model monster = buildMonster(allocator);
    finalizeMeshes(monster);
    const int32_t hide = findMaterial(monster, "hide");
    ASSERT_GE(hide, 0);
    monster.materials[size_t(hide)].textures = {
        {TextureSlot::Base, "bc7.dds", "bc7.dds", std::make_shared<const Texture>(std::move(*texture))}};
    const std::filesystem::path glb = dir.path / "bc7.glb";
    ASSERT_TRUE(gltfFormat().write(monster, glb));

    Result<Model> back = loadModel(glb, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const int32_t again = findMaterial(*back, "hide");
    ASSERT_GE(again, 0);
    const TextureRef* base = back->materials[size_t(again)].find(TextureSlot::Base);
    ASSERT_TRUE(base && base->texture);
    EXPECT_EQ(base->texture->format, PixelFormat::RGBA8);
    Result<std::vector<uint8_t>> rgba = decodeRgba8(*base->texture);
    ASSERT_TRUE(rgba) << rgba.error().message;
    ASSERT_EQ(rgba->size(), 64u);
    auto texel = [&](size_t i) { return Texel(rgba->begin() + i * 4, rgba->begin() + i * 4 + 4); };
    EXPECT_EQ(texel(0), (Texel{0, 128, 20, 254}));
    EXPECT_EQ(texel(5), (Texel{84, 128, 27, 171}));
    EXPECT_EQ(texel(8), (Texel{135, 129, 31, 120}));
    EXPECT_EQ(texel(15), (Texel{255, 129, 41, 1}));
}

} // namespace
