// The draw's material table: textured quads rendered headless and read back, each pixel checked
// against the texel it must show, times the lighting, computed here in double precision from the
// shader's formula (draw.frag) and the sRGB curves.
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "render/headless.h"
#include "support/vulkan_fixture.h"
#include "texture/texture.h"
#include "vk/gpu_mesh.h"
#include "vk/gpu_texture.h"

using namespace horde;

namespace {

constexpr uint32_t kSize = 64; // the quad fills a 64 x 64 frame, one pixel per quad unit / 32

double toLinear(double s) {
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
}
double toSrgb(double l) {
    l = std::clamp(l, 0.0, 1.0);
    return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

// draw.frag's light for a normal: a key light along -lightDirection and a sky term.
double light(glm::dvec3 n) {
    const glm::dvec3 l = glm::normalize(glm::dvec3(0.4, 0.8, 0.45)); // -normalize(-0.4, -0.8, -0.45)
    return 0.75 * std::max(glm::dot(n, l), 0.0) + 0.25 * (0.5 + 0.5 * n.y);
}

// The 8-bit sRGB value the frame holds for an sRGB texel byte under `lightFactor`.
int shaded(uint8_t texel, double base, double lightFactor) {
    return int(std::lround(255.0 * toSrgb(toLinear(texel / 255.0) * base * lightFactor + 0.02)));
}

// The clear colour (0.09, 0.10, 0.12) as stored.
const int kBackground[3] = {int(std::lround(255 * toSrgb(0.09))), int(std::lround(255 * toSrgb(0.10))),
                            int(std::lround(255 * toSrgb(0.12)))};

std::shared_ptr<Texture> rgbaTexture(uint32_t size, const std::vector<uint8_t>& texels, std::string file) {
    auto t = std::make_shared<Texture>();
    t->file = std::move(file);
    t->format = PixelFormat::RGBA8;
    t->width = t->height = size;
    t->levels.push_back({size, size, 0, texels.size()});
    copyLevels(*t, std::as_bytes(std::span(texels)));
    return t;
}

// 4 x 4 texels in 2 x 2 quadrants: top-left, top-right, bottom-left, bottom-right.
std::shared_ptr<Texture> quadrants(const std::array<std::array<uint8_t, 4>, 4>& q, std::string file) {
    std::vector<uint8_t> texels;
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x)
            for (uint8_t c : q[(y / 2) * 2 + x / 2])
                texels.push_back(c);
    return rgbaTexture(4, texels, std::move(file));
}

Material material(std::string name, std::shared_ptr<const Texture> texture, std::string path = "t.dds") {
    Material m;
    m.name = std::move(name);
    m.textures.push_back({TextureSlot::Base, path, texture ? path : "", std::move(texture)});
    return m;
}

// A square from (-1, -1) to (1, 1) in z = 0 facing +Z, its texture coordinates (x + 1) / 2 and
// (1 - y) / 2 (rows top-down), split at x = 0 into a submesh per material when two are given.
Model quadModel(GpuMeshAllocator& allocator, std::vector<Material> materials) {
    Model model;
    model.format = "test";
    model.nodes.push_back({"root"});
    MeshLayout layout;
    layout.vertexCount = 6;
    layout.indexCount = 12;
    Mesh mesh;
    mesh.name = "quad";
    mesh.storage = allocator.allocate(layout, "quad");
    MeshArrays& a = mesh.arrays();
    const glm::vec2 corners[] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {0, 1}, {1, 1}};
    for (uint32_t v = 0; v < 6; ++v) {
        a.positions[v] = glm::vec3(corners[v], 0.0f);
        a.normals[v] = glm::vec3(0, 0, 1);
        a.uv0[v] = glm::vec2(corners[v].x + 1.0f, 1.0f - corners[v].y) * 0.5f;
    }
    const uint32_t indices[] = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4};
    std::copy(std::begin(indices), std::end(indices), a.indices32.begin());
    mesh.storage->commit();
    for (size_t s = 0; s < materials.size(); ++s)
        mesh.submeshes.push_back(
            {materials[s].name, uint32_t(s * 12 / materials.size()), uint32_t(12 / materials.size())});
    model.meshes.push_back(std::move(mesh));
    model.materials = std::move(materials);
    finalizeMeshes(model);
    return model;
}

class TextureDrawTest : public test::VulkanTest {
  protected:
    // The quad seen straight on from +Z, orthographic: pixel (x, y) shows texture coordinates
    // ((x + 0.5) / 64, (y + 0.5) / 64). From behind (from -Z) the picture is mirrored in x.
    Image8 render(const Model& model, bool fromBehind = false, bool textures = true,
                  uint32_t* textureCount = nullptr) {
        CrowdModel crowdModel(device(), model, {.crowd = false});
        const CrowdModel* models[] = {&crowdModel};
        gpu::InstanceRecord instance{};
        instance.clip = HORDE_NONE;
        instance.tint = glm::vec4(1.0f);
        CrowdSettings settings = singleInstanceSettings();
        settings.textures = textures;
        CrowdScene scene(device(), models, {{instance}}, settings);
        if (textureCount) *textureCount = scene.materials().textureCount();
        const float z = fromBehind ? -2.0f : 2.0f;
        glm::mat4 view = glm::lookAt(glm::vec3(0, 0, z), glm::vec3(0), glm::vec3(0, 1, 0));
        glm::mat4 projection = glm::ortho(-1.0f, 1.0f, -1.0f, 1.0f, 0.5f, 4.0f);
        projection[1][1] *= -1.0f; // Vulkan's y points down, as in view.cpp
        HeadlessOptions options;
        options.width = options.height = kSize;
        return renderHeadless(device(), scene, ViewCamera{projection * view}, options).image;
    }
};

void expectPixel(const Image8& image, uint32_t x, uint32_t y, std::array<int, 3> expected,
                 int tolerance = 1) {
    const uint8_t* p = &image.rgba[(size_t(y) * image.width + x) * 4];
    for (int c = 0; c < 3; ++c)
        EXPECT_NEAR(int(p[c]), expected[c], tolerance) << "pixel (" << x << ", " << y << ") channel " << c;
}

std::array<int, 3> lit(const std::array<uint8_t, 4>& texel, glm::dvec3 normal = {0, 0, 1}) {
    const double f = light(normal);
    return {shaded(texel[0], 1.0, f), shaded(texel[1], 1.0, f), shaded(texel[2], 1.0, f)};
}

// Quadrant centres: bilinear filtering there mixes only texels of one quadrant.
constexpr uint32_t kQuadrant[4][2] = {{16, 16}, {48, 16}, {16, 48}, {48, 48}};

} // namespace

TEST_F(TextureDrawTest, Rgba8TexelsTimesLighting) {
    GpuMeshAllocator allocator(device());
    const std::array<std::array<uint8_t, 4>, 4> q = {
        {{200, 40, 30, 255}, {20, 180, 60, 255}, {30, 70, 220, 255}, {250, 240, 10, 255}}};
    Model model = quadModel(allocator, {material("skin", quadrants(q, "rgba.dds"))});
    Image8 image = render(model);
    for (int i = 0; i < 4; ++i)
        expectPixel(image, kQuadrant[i][0], kQuadrant[i][1], lit(q[size_t(i)]));
}

TEST_F(TextureDrawTest, Bc1BlockTexelsTimesLighting) {
    // One BC1 block: colour0 = RGB565 (20, 40, 10) > colour1 = (5, 50, 25), so four-colour mode;
    // indices 0 in the top-left and bottom-right quadrants, 1 in the others (2 bits per texel,
    // texel (x, y) at bit 2 (4y + x)).
    const uint16_t c0 = (20 << 11) | (40 << 5) | 10, c1 = (5 << 11) | (50 << 5) | 25;
    uint32_t bits = 0;
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x)
            bits |= uint32_t((x < 2) != (y < 2) ? 1 : 0) << (2 * (4 * y + x));
    const uint8_t block[8] = {uint8_t(c0),   uint8_t(c0 >> 8),   uint8_t(c1),         uint8_t(c1 >> 8),
                              uint8_t(bits), uint8_t(bits >> 8), uint8_t(bits >> 16), uint8_t(bits >> 24)};
    // Built in memory (heap storage, uploaded through staging), and read from a DDS file into
    // GPU-visible storage (copied into the image from its own buffer): the same pixels.
    auto built = std::make_shared<Texture>();
    built->file = "block.dds";
    built->format = PixelFormat::BC1;
    built->width = built->height = 4;
    copyLevels(*built, std::as_bytes(std::span(block)));
    built->levels.push_back({4, 4, 0, 8});
    std::vector<std::byte> file;
    auto u32 = [&](uint32_t v) {
        for (int i = 0; i < 4; ++i) file.push_back(std::byte(v >> (8 * i)));
    };
    for (uint32_t v : {0x20534444u /* "DDS " */, 124u, 0x1007u, 4u, 4u, 8u, 0u, 1u}) u32(v);
    for (int i = 0; i < 11; ++i) u32(0);
    for (uint32_t v : {32u, 0x4u, 0x31545844u /* "DXT1" */, 0u, 0u, 0u, 0u, 0u, 0x1000u, 0u, 0u, 0u, 0u}) u32(v);
    for (uint8_t b : block) file.push_back(std::byte(b));
    GpuTextureAllocator gpuTextures(device());
    Result<Texture> read = readDds("block.dds", file, gpuTextures);
    ASSERT_TRUE(read) << read.error().message;
    ASSERT_NE(dynamic_cast<const GpuTextureStorage*>(read->storage.get()), nullptr);

    // 5- and 6-bit channels as unorm: c / 31 and c / 63, then sRGB-decoded (BC1_RGBA_SRGB).
    auto shade = [&](int r5, int g6, int b5) {
        const double f = light({0, 0, 1});
        auto one = [&](double srgb) { return int(std::lround(255.0 * toSrgb(toLinear(srgb) * f + 0.02))); };
        return std::array<int, 3>{one(r5 / 31.0), one(g6 / 63.0), one(b5 / 31.0)};
    };
    const auto first = shade(20, 40, 10), second = shade(5, 50, 25);
    for (const std::shared_ptr<const Texture>& t : {std::shared_ptr<const Texture>(built),
                                                     std::make_shared<const Texture>(std::move(*read))}) {
        SCOPED_TRACE(t->storage && dynamic_cast<const GpuTextureStorage*>(t->storage.get()) ? "GPU storage" : "heap");
        GpuMeshAllocator allocator(device());
        Model model = quadModel(allocator, {material("block", t)});
        Image8 image = render(model);
        expectPixel(image, kQuadrant[0][0], kQuadrant[0][1], first);
        expectPixel(image, kQuadrant[1][0], kQuadrant[1][1], second);
        expectPixel(image, kQuadrant[2][0], kQuadrant[2][1], second);
        expectPixel(image, kQuadrant[3][0], kQuadrant[3][1], first);
    }
}

TEST_F(TextureDrawTest, MissingTextureDrawsTheMagentaChecker) {
    GpuMeshAllocator allocator(device());
    Model model = quadModel(allocator, {material("lost", nullptr, "gone.dds")});
    Image8 image = render(model);
    // 64 texels, cells of 8, magenta first: one texel per pixel, sampled at texel centres.
    for (uint32_t y = 4; y < kSize; y += 8)
        for (uint32_t x = 4; x < kSize; x += 8) {
            const bool magenta = ((x / 8) + (y / 8)) % 2 == 0;
            expectPixel(image, x, y, magenta ? lit({255, 0, 255, 255}) : lit({0, 0, 0, 255}));
        }
}

// A submesh naming a material the model does not define (a Grimrock name no Lua file read
// defines) draws the same marked checker, untinted; with textures off it takes its palette colour
// like any material that says nothing; an empty name is no material and keeps the palette.
TEST_F(TextureDrawTest, AnUndefinedMaterialDrawsTheMagentaChecker) {
    GpuMeshAllocator allocator(device());
    Material nowhere{.name = "nowhere", .defined = false};
    Model model = quadModel(allocator, {nowhere});
    Image8 image = render(model);
    for (uint32_t y = 4; y < kSize; y += 8)
        for (uint32_t x = 4; x < kSize; x += 8) {
            const bool magenta = ((x / 8) + (y / 8)) % 2 == 0;
            expectPixel(image, x, y, magenta ? lit({255, 0, 255, 255}) : lit({0, 0, 0, 255}));
        }
    Image8 flat = render(model, false, false);
    const uint8_t* centre = &flat.rgba[(32 * kSize + 32) * 4];
    EXPECT_FALSE(centre[0] > 200 && centre[1] < 30 && centre[2] > 200) << "no checker with textures off";
    EXPECT_NE(int(centre[2]), kBackground[2]);

    model.meshes[0].submeshes[0].material.clear();
    Image8 unnamed = render(model);
    EXPECT_EQ(std::memcmp(&unnamed.rgba[(4 * kSize + 4) * 4], &unnamed.rgba[(12 * kSize + 4) * 4], 3), 0)
        << "one flat colour, no checker";
}

TEST_F(TextureDrawTest, MaterialWithoutTextureIsItsBaseColour) {
    GpuMeshAllocator allocator(device());
    Material plain;
    plain.name = "plain";
    plain.baseColor = glm::vec4(0.25f, 0.5f, 0.75f, 1.0f);
    Model model = quadModel(allocator, {plain});
    Image8 image = render(model);
    const double f = light({0, 0, 1});
    auto one = [&](double linear) { return int(std::lround(255.0 * toSrgb(linear * f + 0.02))); };
    expectPixel(image, 32, 32, {one(0.25), one(0.5), one(0.75)});
}

TEST_F(TextureDrawTest, AlphaMaskDiscardsBelowTheCutoff) {
    GpuMeshAllocator allocator(device());
    const std::array<std::array<uint8_t, 4>, 4> q = {
        {{200, 40, 30, 255}, {20, 180, 60, 100}, {30, 70, 220, 120}, {250, 240, 10, 255}}};
    Material m = material("leaves", quadrants(q, "mask.dds"));
    m.alpha = AlphaMode::Mask;
    m.alphaCutoff = 0.5f; // 100 / 255 and 120 / 255 are below it
    Model model = quadModel(allocator, {m});
    Image8 image = render(model);
    expectPixel(image, kQuadrant[0][0], kQuadrant[0][1], lit(q[0]));
    expectPixel(image, kQuadrant[1][0], kQuadrant[1][1], {kBackground[0], kBackground[1], kBackground[2]}, 0);
    expectPixel(image, kQuadrant[2][0], kQuadrant[2][1], {kBackground[0], kBackground[1], kBackground[2]}, 0);
    expectPixel(image, kQuadrant[3][0], kQuadrant[3][1], lit(q[3]));
}

TEST_F(TextureDrawTest, BlendMixesOverTheBackground) {
    GpuMeshAllocator allocator(device());
    const std::array<uint8_t, 4> texel = {240, 200, 40, 128};
    Material m = material("glass", quadrants({texel, texel, texel, texel}, "glass.dds"));
    m.alpha = AlphaMode::Blend;
    Model model = quadModel(allocator, {m});
    Image8 image = render(model);
    // Blending happens in linear space (an sRGB attachment): a x colour + (1 - a) x clear.
    const double a = 128 / 255.0, f = light({0, 0, 1});
    const double clear[3] = {0.09, 0.10, 0.12};
    std::array<int, 3> expected{};
    for (int c = 0; c < 3; ++c)
        expected[size_t(c)] = int(std::lround(
            255.0 * toSrgb(a * (toLinear(texel[size_t(c)] / 255.0) * f + 0.02) + (1 - a) * clear[c])));
    expectPixel(image, 32, 32, expected);
}

TEST_F(TextureDrawTest, DoubleSidedIsDrawnFromBehindSingleSidedIsCulled) {
    GpuMeshAllocator allocator(device());
    const std::array<uint8_t, 4> texel = {180, 160, 120, 255};
    auto texture = quadrants({texel, texel, texel, texel}, "cloth.dds");
    Material twoSided = material("cloth", texture);
    twoSided.doubleSided = true;
    Model doubleModel = quadModel(allocator, {twoSided});
    Model singleModel = quadModel(allocator, {material("cloth", texture)});
    Image8 back = render(doubleModel, true);
    // Seen from behind the normal is flipped to -Z: no key light, half the sky.
    expectPixel(back, 32, 32, lit(texel, {0, 0, -1}));
    Image8 culled = render(singleModel, true);
    expectPixel(culled, 32, 32, {kBackground[0], kBackground[1], kBackground[2]}, 0);
    // From the front both look alike.
    Image8 front = render(doubleModel);
    expectPixel(front, 32, 32, lit(texel));
}

TEST_F(TextureDrawTest, EachSubmeshSamplesItsOwnMaterialsTexture) {
    GpuMeshAllocator allocator(device());
    const std::array<uint8_t, 4> red = {220, 30, 20, 255}, blue = {20, 40, 230, 255};
    auto left = quadrants({red, red, red, red}, "red.dds"),
         right = quadrants({blue, blue, blue, blue}, "blue.dds");
    Model model = quadModel(allocator, {material("left", left), material("right", right)});
    uint32_t textures = 0;
    Image8 image = render(model, false, true, &textures);
    EXPECT_EQ(textures, 4u) << "white, checker and one image per texture file";
    expectPixel(image, 16, 32, lit(red));
    expectPixel(image, 48, 32, lit(blue));
    // Textures off: nothing uploaded; materials that keep the default white take the palette
    // colour of their name, as untextured ones do, so the halves still differ.
    Image8 flat = render(model, false, false, &textures);
    EXPECT_EQ(textures, 2u);
    EXPECT_NE(int(flat.rgba[(32 * kSize + 16) * 4 + 2]), kBackground[2]);
    EXPECT_NE(std::memcmp(&flat.rgba[(32 * kSize + 16) * 4], &flat.rgba[(32 * kSize + 48) * 4], 3), 0);
}

TEST_F(TextureDrawTest, MaterialsSharingATextureShareOneImage) {
    GpuMeshAllocator allocator(device());
    const std::array<uint8_t, 4> red = {220, 30, 20, 255};
    auto shared = quadrants({red, red, red, red}, "shared.dds");
    Material tinted = material("tinted", shared);
    tinted.baseColor = glm::vec4(0.5f, 1.0f, 1.0f, 1.0f);
    Model model = quadModel(allocator, {material("plain", shared), tinted});
    uint32_t textures = 0;
    Image8 image = render(model, false, true, &textures);
    EXPECT_EQ(textures, 3u);
    expectPixel(image, 16, 32, lit(red));
    const double f = light({0, 0, 1});
    expectPixel(image, 48, 32, {shaded(red[0], 0.5, f), shaded(red[1], 1.0, f), shaded(red[2], 1.0, f)});
}

// Two models in one scene: each model's material slots index its own records (the table holds
// every model's, one after another), and each submesh its own texture.
TEST_F(TextureDrawTest, TwoModelsInOneSceneEachFindTheirOwnRecords) {
    GpuMeshAllocator allocator(device());
    const std::array<uint8_t, 4> red = {220, 30, 20, 255}, blue = {20, 40, 230, 255},
                                 green = {40, 200, 60, 255};
    Model halves = quadModel(allocator, {material("left", quadrants({red, red, red, red}, "red.dds")),
                                         material("right", quadrants({blue, blue, blue, blue}, "blue.dds"))});
    Model whole =
        quadModel(allocator, {material("whole", quadrants({green, green, green, green}, "green.dds"))});
    CrowdModel a(device(), halves, {.crowd = false}), b(device(), whole, {.crowd = false});
    const CrowdModel* models[] = {&a, &b};
    gpu::InstanceRecord left{}, right{};
    left.clip = right.clip = HORDE_NONE;
    left.tint = right.tint = glm::vec4(1.0f);
    left.placement = glm::vec4(-1, 0, 0, 0);
    right.placement = glm::vec4(1, 0, 0, 0);
    CrowdScene scene(device(), models, {{left}, {right}}, singleInstanceSettings());
    EXPECT_EQ(scene.materials().textureCount(), 5u);
    // x from -2 to 2 over 128 pixels: the halves model fills the left half, the other the right.
    glm::mat4 projection = glm::ortho(-2.0f, 2.0f, -1.0f, 1.0f, 0.5f, 4.0f);
    projection[1][1] *= -1.0f;
    glm::mat4 view = glm::lookAt(glm::vec3(0, 0, 2), glm::vec3(0), glm::vec3(0, 1, 0));
    HeadlessOptions options;
    options.width = 2 * kSize;
    options.height = kSize;
    Image8 image = renderHeadless(device(), scene, ViewCamera{projection * view}, options).image;
    expectPixel(image, 16, 32, lit(red));
    expectPixel(image, 48, 32, lit(blue));
    expectPixel(image, 96, 32, lit(green));
}

// A texture the device cannot take as it is (here a second level that claims the base size)
// draws as the checker, with a warning naming the file; it never fails the scene.
TEST_F(TextureDrawTest, ATextureThatCannotBeUploadedDrawsTheChecker) {
    GpuMeshAllocator allocator(device());
    auto lying = std::make_shared<Texture>(
        *quadrants({{{9, 9, 9, 255}, {9, 9, 9, 255}, {9, 9, 9, 255}, {9, 9, 9, 255}}}, "lying.dds"));
    lying->levels.push_back({4, 4, 0, 64});
    Model model = quadModel(allocator, {material("lying", lying)});
    CrowdModel crowdModel(device(), model, {.crowd = false});
    const CrowdModel* models[] = {&crowdModel};
    CrowdScene scene(device(), models, {{gpu::InstanceRecord{}}}, singleInstanceSettings());
    ASSERT_EQ(scene.materials().warnings().size(), 1u);
    EXPECT_NE(scene.materials().warnings()[0].find("lying.dds"), std::string::npos);
    EXPECT_EQ(scene.materials().textureCount(), 2u);
    Image8 image = render(model);
    expectPixel(image, 4, 4, lit({255, 0, 255, 255}));
    expectPixel(image, 12, 4, lit({0, 0, 0, 255}));
}

namespace {

// Each texture in the format it is stored in, built by hand from the block layouts (Microsoft's
// BC1 to BC7 documentation), so the expected texels below are the spec's, not a decoder's.
std::shared_ptr<Texture> blockTexture(PixelFormat format, std::vector<uint8_t> bytes) {
    auto t = std::make_shared<Texture>();
    t->file = std::string(pixelFormatName(format)) + ".dds";
    t->format = format;
    t->width = t->height = 4;
    t->levels.push_back({4, 4, 0, bytes.size()});
    copyLevels(*t, std::as_bytes(std::span(bytes)));
    return t;
}

void putLittle(std::vector<uint8_t>& out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out.push_back(uint8_t(value >> (8 * i)));
}

// Quadrant of texel (x, y) in 0..3 as kQuadrant numbers them.
uint32_t quadrantOf(uint32_t x, uint32_t y) {
    return (y / 2) * 2 + x / 2;
}

// A block's per-texel field, `bits` wide, texel (x, y) at bit bits x (4y + x): its quadrant's value.
uint64_t byQuadrant(uint32_t bits, const std::array<uint32_t, 4>& valuePerQuadrant) {
    uint64_t packed = 0;
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x)
            packed |= uint64_t(valuePerQuadrant[quadrantOf(x, y)]) << (bits * (4 * y + x));
    return packed;
}

// A BC1-layout colour block, four-colour mode (colour0 > colour1): per quadrant index 0 or 1.
constexpr uint16_t kColour0 = (20 << 11) | (40 << 5) | 10, kColour1 = (5 << 11) | (50 << 5) | 25;
void colourBlock(std::vector<uint8_t>& out, const std::array<uint32_t, 4>& indexPerQuadrant) {
    putLittle(out, kColour0, 2);
    putLittle(out, kColour1, 2);
    putLittle(out, byQuadrant(2, indexPerQuadrant), 4);
}

// The colour endpoints as 8-bit-equivalent sRGB values: 5- and 6-bit channels as c / 31, c / 63.
std::array<int, 3> litUnorm(double r, double g, double b, bool srgb) {
    const double f = light({0, 0, 1});
    auto one = [&](double v) {
        return int(std::lround(255.0 * toSrgb((srgb ? toLinear(v) : v) * f + 0.02)));
    };
    return {one(r), one(g), one(b)};
}
const std::array<int, 3> kFirst = litUnorm(20 / 31.0, 40 / 63.0, 10 / 31.0, true),
                         kSecond = litUnorm(5 / 31.0, 50 / 63.0, 25 / 31.0, true);
const std::array<int, 3> kClear = {kBackground[0], kBackground[1], kBackground[2]};

Material maskedMaterial(std::shared_ptr<const Texture> texture) {
    Material m = material("masked", std::move(texture));
    m.alpha = AlphaMode::Mask;
    m.alphaCutoff = 0.6f;
    return m;
}

} // namespace

// The block drawn through a masked material: the top-left quadrant shows colour 0, the
// bottom-right colour 1, the other two (alpha under the cutoff) the clear colour.
class MaskedBlockTest : public TextureDrawTest {
  protected:
    void expectMaskedQuadrants(PixelFormat format, const std::vector<uint8_t>& block) {
        GpuMeshAllocator allocator(device());
        Image8 image = render(quadModel(allocator, {maskedMaterial(blockTexture(format, block))}));
        expectPixel(image, kQuadrant[0][0], kQuadrant[0][1], kFirst);
        expectPixel(image, kQuadrant[1][0], kQuadrant[1][1], kClear, 0);
        expectPixel(image, kQuadrant[2][0], kQuadrant[2][1], kClear, 0);
        expectPixel(image, kQuadrant[3][0], kQuadrant[3][1], kSecond);
    }
};

// BC2: explicit 4-bit alpha per texel (15 opaque; 8 / 15 = 0.53, under the 0.6 cutoff), then a
// colour block (top-left index 0, bottom-right index 1).
TEST_F(MaskedBlockTest, Bc2ExplicitAlphaAndColourBlock) {
    std::vector<uint8_t> block;
    putLittle(block, byQuadrant(4, {15, 8, 8, 15}), 8);
    colourBlock(block, {0, 0, 0, 1});
    expectMaskedQuadrants(PixelFormat::BC2, block);
}

// BC3: alpha0 = 255 > alpha1 = 0 (eight-value mode), 3-bit indices 0 (opaque) in the top-left
// and bottom-right quadrants, 1 (transparent) in the others; then the colour block.
TEST_F(MaskedBlockTest, Bc3InterpolatedAlphaAndColourBlock) {
    std::vector<uint8_t> block = {255, 0};
    putLittle(block, byQuadrant(3, {0, 1, 1, 0}), 6);
    colourBlock(block, {0, 0, 0, 1});
    expectMaskedQuadrants(PixelFormat::BC3, block);
}

// BC4 and BC5 are data, not colour (UNORM, no sRGB curve): BC4 fills red only, BC5 red and green.
// Each channel block: value0 = 200 > value1 = 40, indices 0 in the top-left and bottom-right
// quadrants (200 / 255), 1 in the others (40 / 255).
TEST_F(TextureDrawTest, Bc4AndBc5AreSampledAsLinearChannels) {
    auto channelBlock = [](std::vector<uint8_t>& out, bool swap) {
        out.push_back(200);
        out.push_back(40);
        putLittle(out, swap ? byQuadrant(3, {1, 0, 0, 1}) : byQuadrant(3, {0, 1, 1, 0}), 6);
    };
    const double high = 200 / 255.0, low = 40 / 255.0;
    std::vector<uint8_t> bc4, bc5;
    channelBlock(bc4, false);
    channelBlock(bc5, false);
    channelBlock(bc5, true); // green: the other way round
    GpuMeshAllocator allocator(device());
    Image8 red = render(quadModel(allocator, {material("bc4", blockTexture(PixelFormat::BC4, bc4))}));
    expectPixel(red, kQuadrant[0][0], kQuadrant[0][1], litUnorm(high, 0, 0, false));
    expectPixel(red, kQuadrant[1][0], kQuadrant[1][1], litUnorm(low, 0, 0, false));
    Image8 redGreen = render(quadModel(allocator, {material("bc5", blockTexture(PixelFormat::BC5, bc5))}));
    expectPixel(redGreen, kQuadrant[0][0], kQuadrant[0][1], litUnorm(high, low, 0, false));
    expectPixel(redGreen, kQuadrant[1][0], kQuadrant[1][1], litUnorm(low, high, 0, false));
}

// BC7 mode 6: one subset, 7-bit RGBA endpoints with a p-bit each (endpoint = value << 1 | p),
// 4-bit indices (the first texel's 3 bits, its top bit implied 0). Index 0 is endpoint 0 and 15
// endpoint 1 exactly (weights 0 and 64).
TEST_F(TextureDrawTest, Bc7Mode6EndpointsByQuadrant) {
    std::array<uint8_t, 16> block{};
    uint32_t bit = 0;
    auto put = [&](uint32_t value, uint32_t count) {
        for (uint32_t i = 0; i < count; ++i, ++bit)
            if (value >> i & 1u) block[bit / 8] |= uint8_t(1u << (bit % 8));
    };
    put(1u << 6, 7); // mode 6
    const uint32_t e0[4] = {100, 20, 15, 127}, e1[4] = {10, 90, 60, 127};
    for (int c = 0; c < 4; ++c) {
        put(e0[c], 7);
        put(e1[c], 7);
    }
    put(1, 1); // p0: endpoint 0 = value << 1 | 1
    put(0, 1); // p1
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
            uint32_t q = quadrantOf(x, y);
            put(q == 0 || q == 3 ? 0 : 15, x == 0 && y == 0 ? 3 : 4);
        }
    ASSERT_EQ(bit, 128u);
    GpuMeshAllocator allocator(device());
    Image8 image = render(quadModel(
        allocator,
        {material("bc7", blockTexture(PixelFormat::BC7, std::vector<uint8_t>(block.begin(), block.end())))}));
    const std::array<uint8_t, 4> first = {201, 41, 31, 255}, second = {20, 180, 120, 254};
    expectPixel(image, kQuadrant[0][0], kQuadrant[0][1], lit(first));
    expectPixel(image, kQuadrant[1][0], kQuadrant[1][1], lit(second));
    expectPixel(image, kQuadrant[2][0], kQuadrant[2][1], lit(second));
    expectPixel(image, kQuadrant[3][0], kQuadrant[3][1], lit(first));
}

// BGRA8 (uncompressed DDS files in the A8R8G8B8 layout): blue first in memory.
TEST_F(TextureDrawTest, Bgra8SwapsRedAndBlue) {
    const std::array<std::array<uint8_t, 4>, 4> q = {
        {{200, 40, 30, 255}, {20, 180, 60, 255}, {30, 70, 220, 255}, {250, 240, 10, 255}}};
    std::vector<uint8_t> texels;
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
            const std::array<uint8_t, 4>& t = q[quadrantOf(x, y)];
            texels.insert(texels.end(), {t[2], t[1], t[0], t[3]});
        }
    GpuMeshAllocator allocator(device());
    Image8 image = render(quadModel(allocator, {material("bgra", blockTexture(PixelFormat::BGRA8, texels))}));
    for (int i = 0; i < 4; ++i)
        expectPixel(image, kQuadrant[i][0], kQuadrant[i][1], lit(q[size_t(i)]));
}
