// Texture files as hostile input: DDS built byte by byte per format (levels and texels computed
// by hand from the DDS layout), BioWare's DDS, TGA raw and RLE in both row orders, truncations
// and lying headers; finding files by game rules; models naming missing textures.
#include <gtest/gtest.h>

#include <fstream>

#include "loader.h"
#include "support/bytes.h"
#include "support/temp_dir.h"
#include "texture/texture.h"

using namespace horde;
using test::Bytes;

namespace {

// Stateless: textures read in these tests live on the heap.
HeapTextureAllocator heap;

constexpr uint32_t kFourCC = 0x4, kRgb = 0x40, kAlphaPixels = 0x1, kMipCount = 0x20000;

uint32_t cc(const char* s) { return uint32_t(uint8_t(s[0])) | uint32_t(uint8_t(s[1])) << 8 | uint32_t(uint8_t(s[2])) << 16 | uint32_t(uint8_t(s[3])) << 24; }

struct DdsHeader {
    uint32_t width = 4, height = 4, mips = 0;
    uint32_t pfFlags = kFourCC, fourCC = cc("DXT1"), bits = 0, r = 0, g = 0, b = 0, a = 0;
    int dxgi = -1; // >= 0: a DX10 header with this format
    uint32_t caps2 = 0;
};

Bytes dds(const DdsHeader& h) {
    Bytes b;
    b.text("DDS ").u32(124).u32(0x1007 | (h.mips ? kMipCount : 0)).u32(h.height).u32(h.width).u32(0).u32(0).u32(h.mips);
    b.zeros(44);
    b.u32(32).u32(h.pfFlags).u32(h.dxgi >= 0 ? cc("DX10") : h.fourCC).u32(h.bits).u32(h.r).u32(h.g).u32(h.b).u32(h.a);
    b.u32(0x1000).u32(h.caps2).u32(0).u32(0).u32(0);
    if (h.dxgi >= 0) b.u32(uint32_t(h.dxgi)).u32(3).u32(0).u32(1).u32(0);
    return b;
}

Bytes& pattern(Bytes& b, size_t n, uint8_t seed) {
    for (size_t i = 0; i < n; ++i) b.u8(uint8_t(seed + i * 7));
    return b;
}

std::vector<uint8_t> bytesOf(const Texture& t) {
    std::vector<uint8_t> out(t.bytes.size());
    std::memcpy(out.data(), t.bytes.data(), out.size());
    return out;
}

struct BlockCase {
    const char* fourCC;
    int dxgi;
    PixelFormat format;
    uint32_t blockBytes;
};

class DdsBlocks : public ::testing::TestWithParam<BlockCase> {};

// One 4x4 block per format, kept byte for byte: the GPU decodes it as the file stores it.
TEST_P(DdsBlocks, KeepsTheBlockAsStored) {
    const BlockCase c = GetParam();
    DdsHeader h;
    if (c.dxgi >= 0) h.dxgi = c.dxgi;
    else h.fourCC = cc(c.fourCC);
    Bytes file = dds(h);
    const size_t at = file.size();
    pattern(file, c.blockBytes, 3);
    Result<Texture> t = readDds("a.dds", file.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, c.format);
    EXPECT_EQ(t->width, 4u);
    ASSERT_EQ(t->levels.size(), 1u);
    EXPECT_EQ(t->levels[0].size, c.blockBytes);
    ASSERT_EQ(t->bytes.size(), c.blockBytes);
    EXPECT_EQ(std::memcmp(t->bytes.data(), file.data().data() + at, c.blockBytes), 0);
}

INSTANTIATE_TEST_SUITE_P(Formats, DdsBlocks,
                         ::testing::Values(BlockCase{"DXT1", -1, PixelFormat::BC1, 8}, BlockCase{"DXT3", -1, PixelFormat::BC2, 16},
                                           BlockCase{"DXT5", -1, PixelFormat::BC3, 16}, BlockCase{"ATI1", -1, PixelFormat::BC4, 8},
                                           BlockCase{"ATI2", -1, PixelFormat::BC5, 16}, BlockCase{"", 71, PixelFormat::BC1, 8},
                                           BlockCase{"", 80, PixelFormat::BC4, 8}, BlockCase{"", 83, PixelFormat::BC5, 16},
                                           BlockCase{"", 98, PixelFormat::BC7, 16}, BlockCase{"", 99, PixelFormat::BC7, 16}),
                         [](const auto& p) { return std::string(pixelFormatName(p.param.format)) + "_" + std::to_string(p.index); });

// 8x4 BC1 with its whole chain: 8x4 (2 blocks), 4x2, 2x1, 1x1 (a block each).
TEST(Dds, MipChainLevelsFromTheLayout) {
    Bytes file = dds({.width = 8, .height = 4, .mips = 4});
    pattern(file, 16 + 8 + 8 + 8, 1);
    Result<Texture> t = readDds("a.dds", file.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    ASSERT_EQ(t->levels.size(), 4u);
    const uint32_t w[] = {8, 4, 2, 1}, h[] = {4, 2, 1, 1};
    const uint64_t offset[] = {0, 16, 24, 32};
    for (size_t m = 0; m < 4; ++m) {
        EXPECT_EQ(t->levels[m].width, w[m]);
        EXPECT_EQ(t->levels[m].height, h[m]);
        EXPECT_EQ(t->levels[m].offset, offset[m]);
        EXPECT_EQ(t->levels[m].size, m == 0 ? 16u : 8u);
    }
}

// B, G, R stored; RGBA8 texels out with alpha 255; and the 32-bit layouts with and without alpha.
TEST(Dds, UncompressedTexelsByHand) {
    Bytes bgr = dds({.width = 2, .height = 1, .pfFlags = kRgb, .bits = 24, .r = 0xFF0000, .g = 0xFF00, .b = 0xFF});
    bgr.u8(10).u8(20).u8(30).u8(40).u8(50).u8(60);
    Result<Texture> t = readDds("bgr.dds", bgr.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::BGRA8);
    EXPECT_EQ(bytesOf(*t), (std::vector<uint8_t>{10, 20, 30, 255, 40, 50, 60, 255}));

    Bytes rgba = dds({.width = 1, .height = 1, .pfFlags = kRgb | kAlphaPixels, .bits = 32, .r = 0xFF, .g = 0xFF00, .b = 0xFF0000, .a = 0xFF000000});
    rgba.u8(1).u8(2).u8(3).u8(4);
    t = readDds("rgba.dds", rgba.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::RGBA8);
    EXPECT_EQ(bytesOf(*t), (std::vector<uint8_t>{1, 2, 3, 4}));

    Bytes bgrx = dds({.width = 1, .height = 1, .pfFlags = kRgb, .bits = 32, .r = 0xFF0000, .g = 0xFF00, .b = 0xFF});
    bgrx.u8(1).u8(2).u8(3).u8(9);
    t = readDds("bgrx.dds", bgrx.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::BGRA8);
    EXPECT_EQ(bytesOf(*t), (std::vector<uint8_t>{1, 2, 3, 255}));

    Bytes dx10 = dds({.width = 1, .height = 1, .dxgi = 87});
    dx10.u8(5).u8(6).u8(7).u8(8);
    t = readDds("dx10.dds", dx10.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::BGRA8);
    EXPECT_EQ(bytesOf(*t), (std::vector<uint8_t>{5, 6, 7, 8}));
}

void expectError(const Result<Texture>& t, const std::string& file, const std::string& part) {
    ASSERT_FALSE(t) << "expected an error saying " << part;
    EXPECT_EQ(t.error().message.rfind(file + ": ", 0), 0u) << t.error().message;
    EXPECT_NE(t.error().message.find(part), std::string::npos) << t.error().message;
}

TEST(Dds, LyingHeadersFailNamingTheField) {
    // More levels than an 8x4 texture has.
    Bytes tooMany = dds({.width = 8, .height = 4, .mips = 5});
    pattern(tooMany, 64, 0);
    expectError(readDds("a.dds", tooMany.span(), heap), "a.dds", "header.mipMapCount: 5 levels; a 8 x 4 texture has at most 4");
    // Four levels claimed, three present: the fourth is named, at its offset (128 + 16 + 8 + 8).
    Bytes short3 = dds({.width = 8, .height = 4, .mips = 4});
    pattern(short3, 32, 0);
    expectError(readDds("a.dds", short3.span(), heap), "a.dds", "offset 160 (0xa0): level 3");
    // A size far past the file.
    Bytes huge = dds({.width = 16384, .height = 16384});
    pattern(huge, 8, 0);
    expectError(readDds("a.dds", huge.span(), heap), "a.dds", "level 0");
    expectError(readDds("a.dds", dds({.width = 0}).span(), heap), "a.dds", "header.width/height");
    expectError(readDds("a.dds", dds({.width = 16385}).span(), heap), "a.dds", "header.width/height");
    expectError(readDds("a.dds", dds({.fourCC = cc("DXT9")}).span(), heap), "a.dds", "pixelFormat.fourCC");
    expectError(readDds("a.dds", dds({.dxgi = 2}).span(), heap), "a.dds", "dx10.dxgiFormat: 2");
    expectError(readDds("a.dds", dds({.caps2 = 0x200}).span(), heap), "a.dds", "cube map");
    expectError(readDds("a.dds", dds({.pfFlags = kRgb, .bits = 16, .r = 0xF800, .g = 0x7E0, .b = 0x1F}).span(), heap), "a.dds", "pixelFormat");
}

TEST(Dds, EveryTruncationFailsCleanly) {
    Bytes file = dds({.width = 8, .height = 8, .mips = 4, .fourCC = cc("DXT5")});
    pattern(file, 64 + 16 + 16 + 16, 0);
    ASSERT_TRUE(readDds("a.dds", file.span(), heap));
    for (const auto& cut : test::truncations(file.span())) expectError(readTexture("a.dds", cut, heap), "a.dds", "");
}

// BioWare's header: width, height, 3 (DXT1) or 4 (DXT5), base size, mean alpha; levels to the end.
TEST(BiowareDds, LevelsAsTheFileHolds) {
    Bytes file;
    file.u32(8).u32(8).u32(4).u32(64).f32(1.0f);
    pattern(file, 64 + 16 + 16, 0); // 8x8, 4x4, 2x2: the 1x1 level is missing
    Result<Texture> t = readTexture("c_a.dds", file.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::BC3);
    EXPECT_EQ(t->levels.size(), 3u);
    EXPECT_EQ(t->bytes.size(), 96u);
    Bytes dxt1;
    dxt1.u32(4).u32(4).u32(3).u32(8).f32(1.0f);
    pattern(dxt1, 8, 0);
    t = readTexture("black.DDS", dxt1.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::BC1);
    Bytes bad;
    bad.u32(4).u32(4).u32(5).u32(8).f32(1.0f);
    expectError(readTexture("b.dds", bad.span(), heap), "b.dds", "header.colors: 5");
    Bytes cut;
    cut.u32(8).u32(8).u32(4).u32(64).f32(1.0f).zeros(63);
    expectError(readTexture("b.dds", cut.span(), heap), "b.dds", "level 0");
}

Bytes tgaHeader(uint8_t type, uint16_t w, uint16_t h, uint8_t bits, uint8_t descriptor) {
    Bytes b;
    b.u8(0).u8(0).u8(type).zeros(5).u16(0).u16(0).u16(w).u16(h).u8(bits).u8(descriptor);
    return b;
}

// 2x2 texels, top row red, green; bottom row blue, white (alpha 128 on white).
const std::vector<uint8_t> kExpected{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 128};

// An 8 x 8 PNG whose IDAT chunk claims 1 GiB in a 48-byte file (found by fuzz_png: stb_image
// sized its buffer by the claim): refused at the chunk, before any allocation.
TEST(Png, AChunkLongerThanTheFileIsRefusedAtItsOffset) {
    const unsigned char file[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n',            // signature
                                  0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 8, 0, 0, 0, 8, 8, 6, 0, 0, 0,
                                  0xC4, 0x0F, 0xBE, 0x8B,                               // IHDR's CRC
                                  0x40, 0x00, 0x01, 0x13, 'I', 'D', 'A', 'T',           // at offset 33
                                  0x78, 0xDE, 0xF1, 0x03, 0x6A, 0xA4, 0x82};
    const auto* begin = reinterpret_cast<const std::byte*>(file);
    Result<Texture> t = readTexture("a.png", std::span<const std::byte>(begin, sizeof file), heap);
    expectError(t, "a.png", "offset 33");
    expectError(t, "a.png", "chunk length: 1073742099 bytes and a CRC do not fit in the 7 bytes left");
}

TEST(Tga, RawBottomUpAndTopDown) {
    Bytes up = tgaHeader(2, 2, 2, 32, 8); // origin bottom-left: the bottom row first
    up.u8(255).u8(0).u8(0).u8(255).u8(255).u8(255).u8(255).u8(128); // blue, white (B, G, R, A)
    up.u8(0).u8(0).u8(255).u8(255).u8(0).u8(255).u8(0).u8(255);     // red, green
    Result<Texture> t = readTexture("up.tga", up.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::RGBA8);
    EXPECT_EQ(bytesOf(*t), kExpected);

    Bytes down = tgaHeader(2, 2, 2, 32, 8 | 0x20); // origin top-left
    down.u8(0).u8(0).u8(255).u8(255).u8(0).u8(255).u8(0).u8(255);
    down.u8(255).u8(0).u8(0).u8(255).u8(255).u8(255).u8(255).u8(128);
    t = readTexture("DOWN.TGA", down.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(bytesOf(*t), kExpected);
}

TEST(Tga, RunLengthPackets) {
    // 24-bit RLE, 4x1 top-down: a run of 3 red texels, then a raw packet of one blue texel.
    Bytes rle = tgaHeader(10, 4, 1, 24, 0x20);
    rle.u8(0x80 | 2).u8(0).u8(0).u8(255);
    rle.u8(0).u8(255).u8(0).u8(0);
    Result<Texture> t = readTexture("rle.tga", rle.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(bytesOf(*t), (std::vector<uint8_t>{255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255}));
    // The same bottom-up in two rows: the first stored row is the bottom one.
    Bytes rows = tgaHeader(10, 1, 2, 24, 0);
    rows.u8(0x80).u8(0).u8(0).u8(255); // bottom: red
    rows.u8(0x80).u8(255).u8(0).u8(0); // top: blue
    t = readTexture("rows.tga", rows.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(bytesOf(*t), (std::vector<uint8_t>{0, 0, 255, 255, 255, 0, 0, 255}));
}

TEST(Tga, ResourceCapAndJunk) {
    // 16384 x 16384 texels from a few bytes: refused before anything is allocated for them.
    Bytes huge = tgaHeader(10, 16384, 16384, 24, 0);
    huge.u8(0xFF).u8(1).u8(2).u8(3);
    expectError(readTexture("huge.tga", huge.span(), heap), "huge.tga", "bytes per input byte");
    Bytes junk;
    junk.text("not an image at all");
    expectError(readTexture("junk.png", junk.span(), heap), "junk.png", "magic");
    for (const auto& cut : test::truncations(tgaHeader(2, 2, 2, 32, 8).span())) expectError(readTexture("c.tga", cut, heap), "c.tga", "");
}

TEST(FindTexture, IgnoresCaseAndPrefersTheSubstitute) {
    test::TempDir dir("texture_find");
    std::filesystem::create_directories(dir.path / "Mod_Assets" / "Textures");
    Bytes one;
    one.u8(1);
    dir.put("Mod_Assets/Textures/Wall_DIF.dds", one);
    dir.put("Mod_Assets/Textures/wall_dif.tga", one);
    dir.put("other.TGA", one);
    constexpr std::string_view dds[] = {".dds"};
    const std::filesystem::path dirs[] = {dir.path};
    EXPECT_EQ(findTextureFile("mod_assets/textures/wall_dif.tga", dds, dirs), dir.path / "Mod_Assets/Textures/Wall_DIF.dds");
    EXPECT_EQ(findTextureFile("mod_assets/textures/wall_dif.tga", {}, dirs), dir.path / "Mod_Assets/Textures/wall_dif.tga");
    EXPECT_EQ(findTextureFile("mod_assets\\textures\\WALL_DIF.TGA", dds, dirs), dir.path / "Mod_Assets/Textures/Wall_DIF.dds");
    // A name whose folders are elsewhere is found by its file name in a searched folder.
    EXPECT_EQ(findTextureFile("assets/textures/other.tga", dds, dirs), dir.path / "other.TGA");
    EXPECT_EQ(findTextureFile("../other.tga", dds, dirs), dir.path / "other.TGA");
    EXPECT_TRUE(findTextureFile("missing.tga", dds, dirs).empty());
    EXPECT_TRUE(findTextureFile("", dds, dirs).empty());
}

// A Grimrock name is relative to the mod's root; a search path may be the root or any folder
// inside it on the way to the file: the longest suffix of the name that exists under it wins.
TEST(FindTexture, MatchesTheLongestSuffixThatExistsUnderASearchPath) {
    test::TempDir dir("texture_find");
    std::filesystem::create_directories(dir.path / "mod" / "mod_assets" / "textures" / "env");
    std::filesystem::create_directories(dir.path / "mod" / "mod_assets" / "env");
    Bytes one;
    one.u8(1);
    dir.put("mod/mod_assets/textures/env/wall_dif.dds", one);
    dir.put("mod/mod_assets/env/wall_dif.dds", one); // a shorter suffix: must not win over the longer
    constexpr std::string_view dds[] = {".dds"};
    const std::string name = "mod_assets/textures/env/wall_dif.tga";
    const std::filesystem::path wanted = dir.path / "mod/mod_assets/textures/env/wall_dif.dds";
    for (const char* searched :
         {"mod", "mod/mod_assets", "mod/mod_assets/textures", "mod/mod_assets/textures/env"}) {
        const std::filesystem::path dirs[] = {dir.path / searched};
        EXPECT_EQ(findTextureFile(name, dds, dirs), wanted) << "search path " << searched;
    }
    const std::filesystem::path elsewhere[] = {dir.path / "mod/mod_assets/env"};
    EXPECT_EQ(findTextureFile(name, dds, elsewhere), dir.path / "mod/mod_assets/env/wall_dif.dds")
        << "the file name alone, where no folder of the name exists";
}

const char* kMesh = R"(newmodel m
beginmodelgeom m
node dummy m
  parent NULL
endnode
node trimesh body
  parent m
  bitmap %s
  diffuse 0.5 0.25 1
  alpha 0.5
  verts 3
    0 0 0
    1 0 0
    0 1 0
  tverts 3
    0 0 0
    1 0 0
    0 1 0
  faces 1
    0 1 2  1  0 1 2  0
endnode
endmodelgeom m
donemodel m
)";

std::filesystem::path writeModel(const test::TempDir& dir, const std::string& name, const std::string& bitmap) {
    char text[1024];
    std::snprintf(text, sizeof text, kMesh, bitmap.c_str());
    std::ofstream(dir.path / name) << text;
    return dir.path / name;
}

TEST(ModelTextures, MissingTextureIsAWarningNotAFailure) {
    test::TempDir dir("texture_missing");
    HeapMeshAllocator allocator;
    Result<Model> m = loadModel(writeModel(dir, "m.mdl", "nowhere"), {}, allocator);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->materials.size(), 1u);
    const Material& mat = m->materials[0];
    EXPECT_EQ(mat.name, "nowhere");
    EXPECT_EQ(mat.baseColor, glm::vec4(0.5f, 0.25f, 1.0f, 0.5f));
    EXPECT_EQ(mat.alpha, AlphaMode::Blend);
    ASSERT_EQ(mat.textures.size(), 1u);
    EXPECT_EQ(mat.textures[0].path, "nowhere");
    EXPECT_EQ(mat.textures[0].texture, nullptr);
    ASSERT_EQ(m->warnings.size(), 1u);
    EXPECT_NE(m->warnings[0].find("texture 'nowhere' not found"), std::string::npos) << m->warnings[0];
}

TEST(ModelTextures, FoundOnTheSearchPathAndReadOnce) {
    test::TempDir dir("texture_shared");
    std::filesystem::create_directories(dir.path / "tex");
    Bytes tga = tgaHeader(2, 1, 1, 24, 0);
    tga.u8(1).u8(2).u8(3);
    dir.put("tex/Skin.tga", tga);
    Bytes unreadable;
    unreadable.text("DDS junk");
    dir.put("tex/broken.dds", unreadable);
    LoadOptions options;
    options.searchPaths = {dir.path / "tex"};
    TextureLibrary library(heap);
    options.textures = &library;
    HeapMeshAllocator allocator;
    Result<Model> a = loadModel(writeModel(dir, "a.mdl", "skin"), options, allocator);
    Result<Model> b = loadModel(writeModel(dir, "b.mdl", "SKIN"), options, allocator);
    ASSERT_TRUE(a && b);
    const TextureRef& ta = a->materials.at(0).textures.at(0);
    ASSERT_NE(ta.texture, nullptr);
    EXPECT_EQ(ta.texture->width, 1u);
    EXPECT_EQ(bytesOf(*ta.texture), (std::vector<uint8_t>{3, 2, 1, 255}));
    EXPECT_EQ(ta.texture, b->materials.at(0).textures.at(0).texture); // one read for both models
    EXPECT_EQ(library.size(), 1u);
    EXPECT_TRUE(a->warnings.empty());

    Result<Model> c = loadModel(writeModel(dir, "c.mdl", "broken"), options, allocator);
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(c->materials.at(0).textures.at(0).texture, nullptr);
    ASSERT_EQ(c->warnings.size(), 1u);
    EXPECT_NE(c->warnings[0].find("broken.dds"), std::string::npos) << c->warnings[0];
}

// ---- The CPU decoder (decode_bc.cpp): texels computed by hand from the block layouts ----

Texture blockTexture(PixelFormat format, uint32_t width, uint32_t height, const Bytes& blocks) {
    Texture t;
    t.file = "blocks";
    t.format = format;
    t.width = width;
    t.height = height;
    t.levels.push_back({width, height, 0, levelBytes(format, width, height)});
    copyLevels(t, blocks.span());
    return t;
}

std::vector<uint8_t> decoded(const Texture& t) {
    Result<std::vector<uint8_t>> rgba = decodeRgba8(t);
    EXPECT_TRUE(rgba) << rgba.error().message;
    return rgba ? *rgba : std::vector<uint8_t>{};
}

std::vector<uint8_t> texel(const std::vector<uint8_t>& rgba, size_t i) { return {rgba.begin() + i * 4, rgba.begin() + i * 4 + 4}; }

// Indices 0, 1, 2, 3 along every row: 0b11'10'01'00 per byte.
constexpr uint8_t kRowOf0123 = 0xE4;

TEST(DecodeBc, Bc1FourColours) {
    Bytes b;
    b.u16(0xF800).u16(0x001F).u8(kRowOf0123).u8(kRowOf0123).u8(kRowOf0123).u8(kRowOf0123); // red > blue
    std::vector<uint8_t> rgba = decoded(blockTexture(PixelFormat::BC1, 4, 4, b));
    ASSERT_EQ(rgba.size(), 64u);
    for (size_t row = 0; row < 4; ++row) {
        EXPECT_EQ(texel(rgba, row * 4 + 0), (std::vector<uint8_t>{255, 0, 0, 255}));
        EXPECT_EQ(texel(rgba, row * 4 + 1), (std::vector<uint8_t>{0, 0, 255, 255}));
        EXPECT_EQ(texel(rgba, row * 4 + 2), (std::vector<uint8_t>{170, 0, 85, 255})); // (2*255 + 0 + 1) / 3, (0 + 255 + 1) / 3
        EXPECT_EQ(texel(rgba, row * 4 + 3), (std::vector<uint8_t>{85, 0, 170, 255}));
    }
}

TEST(DecodeBc, Bc1ThreeColoursAndTransparentBlack) {
    Bytes b;
    b.u16(0x001F).u16(0xF800).u8(kRowOf0123).u8(0).u8(0).u8(0); // blue <= red: punch-through
    std::vector<uint8_t> rgba = decoded(blockTexture(PixelFormat::BC1, 4, 4, b));
    EXPECT_EQ(texel(rgba, 2), (std::vector<uint8_t>{128, 0, 128, 255})); // (255 + 0 + 1) / 2
    EXPECT_EQ(texel(rgba, 3), (std::vector<uint8_t>{0, 0, 0, 0}));
    EXPECT_EQ(texel(rgba, 4), (std::vector<uint8_t>{0, 0, 255, 255}));
    // Six-bit green 32 widens to 32 << 2 | 32 >> 4 = 130; a 2x2 texture keeps the block's corner.
    Bytes g;
    g.u16(0x0400).u16(0x0000).u32(0);
    std::vector<uint8_t> small = decoded(blockTexture(PixelFormat::BC1, 2, 2, g));
    ASSERT_EQ(small.size(), 16u);
    EXPECT_EQ(texel(small, 3), (std::vector<uint8_t>{0, 130, 0, 255}));
}

// Sixteen 3-bit indices, texel i taking index i % 8.
Bytes& indices3(Bytes& b) {
    uint64_t bits = 0;
    for (uint64_t i = 0; i < 16; ++i) bits |= (i % 8) << (3 * i);
    for (int i = 0; i < 6; ++i) b.u8(uint8_t(bits >> (8 * i)));
    return b;
}

TEST(DecodeBc, Bc4EightAndSixValueModes) {
    Bytes eight;
    eight.u8(200).u8(100);
    indices3(eight);
    std::vector<uint8_t> rgba = decoded(blockTexture(PixelFormat::BC4, 4, 4, eight));
    // (200 (7 - k) + 100 k + 3) / 7 for k = 1..6.
    const uint8_t expected8[8] = {200, 100, 186, 171, 157, 143, 129, 114};
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(texel(rgba, i), (std::vector<uint8_t>{expected8[i % 8], 0, 0, 255})) << i;

    Bytes six;
    six.u8(100).u8(200);
    indices3(six);
    rgba = decoded(blockTexture(PixelFormat::BC4, 4, 4, six));
    const uint8_t expected6[8] = {100, 200, 120, 140, 160, 180, 0, 255};
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(rgba[i * 4], expected6[i % 8]) << i;
}

TEST(DecodeBc, Bc2Bc3Bc5Channels) {
    Bytes colour; // every texel red
    colour.u16(0xF800).u16(0xF800).u32(0);
    Bytes bc2;
    for (int i = 0; i < 8; ++i) bc2.u8(uint8_t(i * 2 | (i * 2 + 1) << 4)); // texel i alpha nibble i
    for (std::byte v : colour.data()) bc2.put(v);
    std::vector<uint8_t> rgba = decoded(blockTexture(PixelFormat::BC2, 4, 4, bc2));
    for (size_t i = 0; i < 16; ++i) EXPECT_EQ(texel(rgba, i), (std::vector<uint8_t>{255, 0, 0, uint8_t(i * 17)})) << i;

    Bytes bc3;
    bc3.u8(200).u8(100);
    indices3(bc3);
    for (std::byte v : colour.data()) bc3.put(v);
    rgba = decoded(blockTexture(PixelFormat::BC3, 4, 4, bc3));
    EXPECT_EQ(texel(rgba, 2), (std::vector<uint8_t>{255, 0, 0, 186}));

    Bytes bc5;
    bc5.u8(200).u8(100);
    indices3(bc5);
    bc5.u8(100).u8(200);
    indices3(bc5);
    rgba = decoded(blockTexture(PixelFormat::BC5, 4, 4, bc5));
    EXPECT_EQ(texel(rgba, 3), (std::vector<uint8_t>{171, 140, 0, 255}));
    EXPECT_EQ(texel(rgba, 15), (std::vector<uint8_t>{114, 255, 0, 255}));
}

// A DDS per block format, read as a load reads it and decoded as an export does: the texels the
// block layouts give by hand (the same blocks as above, BC7 in bc7_test.cpp), and a mip chain
// whose second level is decoded on its own.
TEST(DdsTexels, EachBlockFormatFromItsFile) {
    Bytes bc1 = dds({.fourCC = cc("DXT1")});
    bc1.u16(0xF800).u16(0x001F).u8(kRowOf0123).u8(kRowOf0123).u8(kRowOf0123).u8(kRowOf0123);
    Result<Texture> t = readDds("bc1.dds", bc1.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    std::vector<uint8_t> rgba = decoded(*t);
    EXPECT_EQ(texel(rgba, 1), (std::vector<uint8_t>{0, 0, 255, 255}));
    EXPECT_EQ(texel(rgba, 6), (std::vector<uint8_t>{170, 0, 85, 255})); // (2 * 255 + 1) / 3, (255 + 1) / 3

    Bytes bc2 = dds({.fourCC = cc("DXT3")});
    for (int i = 0; i < 8; ++i) bc2.u8(uint8_t(i * 2 | (i * 2 + 1) << 4));
    bc2.u16(0x07E0).u16(0x07E0).u32(0); // green
    t = readDds("bc2.dds", bc2.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(texel(decoded(*t), 5), (std::vector<uint8_t>{0, 255, 0, 85})); // nibble 5 * 17

    Bytes bc3 = dds({.fourCC = cc("DXT5")});
    bc3.u8(200).u8(100);
    indices3(bc3);
    bc3.u16(0x001F).u16(0x001F).u32(0); // blue
    t = readDds("bc3.dds", bc3.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(texel(decoded(*t), 4), (std::vector<uint8_t>{0, 0, 255, 157})); // (200 * 4 + 100 * 3 + 3) / 7

    Bytes bc4 = dds({.fourCC = cc("ATI1")});
    bc4.u8(200).u8(100);
    indices3(bc4);
    t = readDds("bc4.dds", bc4.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(texel(decoded(*t), 3), (std::vector<uint8_t>{171, 0, 0, 255})); // (200 * 5 + 100 * 2 + 3) / 7

    Bytes bc5 = dds({.dxgi = 83});
    bc5.u8(200).u8(100);
    indices3(bc5);
    bc5.u8(100).u8(200);
    indices3(bc5);
    t = readDds("bc5.dds", bc5.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(texel(decoded(*t), 7), (std::vector<uint8_t>{114, 255, 0, 255})); // index 7: 114 and 255

    // 8x8 BC1 with two levels: four red blocks, then the 4x4 level's one block, green.
    Bytes chain = dds({.width = 8, .height = 8, .mips = 2});
    for (int i = 0; i < 4; ++i) chain.u16(0xF800).u16(0).u32(0);
    chain.u16(0x07E0).u16(0).u32(0);
    t = readDds("chain.dds", chain.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    ASSERT_EQ(t->levels.size(), 2u);
    Result<std::vector<uint8_t>> level1 = decodeRgba8(*t, 1);
    ASSERT_TRUE(level1) << level1.error().message;
    ASSERT_EQ(level1->size(), 64u);
    EXPECT_EQ(texel(*level1, 15), (std::vector<uint8_t>{0, 255, 0, 255}));
    EXPECT_EQ(texel(decoded(*t), 63), (std::vector<uint8_t>{255, 0, 0, 255}));
    EXPECT_FALSE(decodeRgba8(*t, 2));

    // 2x2 RGBA with its 1x1 level: the second level's texel as stored.
    Bytes rgbaChain = dds({.width = 2, .height = 2, .mips = 2, .pfFlags = kRgb | kAlphaPixels, .bits = 32, .r = 0xFF,
                           .g = 0xFF00, .b = 0xFF0000, .a = 0xFF000000});
    pattern(rgbaChain, 16, 1).u8(9).u8(8).u8(7).u8(6);
    t = readDds("rgba.dds", rgbaChain.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(decodeRgba8(*t, 1).value(), (std::vector<uint8_t>{9, 8, 7, 6}));
}

TEST(DecodeBc, BlocksLaidOutInRowsAndLevelsChecked) {
    // 8x4 BC1: two blocks side by side, red then green, all index 0.
    Bytes b;
    b.u16(0xF800).u16(0).u32(0).u16(0x07E0).u16(0).u32(0);
    std::vector<uint8_t> rgba = decoded(blockTexture(PixelFormat::BC1, 8, 4, b));
    EXPECT_EQ(texel(rgba, 3), (std::vector<uint8_t>{255, 0, 0, 255}));
    EXPECT_EQ(texel(rgba, 4), (std::vector<uint8_t>{0, 255, 0, 255}));
    EXPECT_EQ(texel(rgba, 3 * 8 + 7), (std::vector<uint8_t>{0, 255, 0, 255}));
    Texture lying = blockTexture(PixelFormat::BC1, 8, 8, b); // claims 4 blocks, holds 2
    EXPECT_FALSE(decodeRgba8(lying));
    Texture bgra = blockTexture(PixelFormat::BGRA8, 1, 1, Bytes().u8(1).u8(2).u8(3).u8(4));
    EXPECT_EQ(decoded(bgra), (std::vector<uint8_t>{3, 2, 1, 4}));
}

} // namespace

