// Impostors against the meshes they stand for, with validation on: one monster seen from one of
// the atlas's own view directions, drawn as its mesh and as its impostor, covers the same pixels
// and shows the same colours within the tolerances stated below; the GPU's view and pose picks
// equal the CPU reference's; and depth between an impostor and a mesh resolves both ways.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "crowd/cull_reference.h"
#include "anim/reference.h"
#include "crowd/layout.h"
#include "monster.h"
#include "render/headless.h"
#include "support/cull_model.h"
#include "support/image.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

namespace {

constexpr uint32_t kSize = 96;

// The mean colour of the pixels a picture's monster covers (not the background).
glm::dvec3 meanColor(const Image8& image) {
    glm::dvec3 sum(0.0);
    size_t covered = 0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x) {
            if (!test::isForeground(image, x, y)) continue;
            const uint8_t* p = &image.rgba[(size_t(y) * image.width + x) * 4];
            sum += glm::dvec3(p[0], p[1], p[2]);
            ++covered;
        }
    return covered ? sum / double(covered) : sum;
}

// How far the picture is from its background, summed over pixels and channels: a part drawn over
// two pixels at half coverage counts as over one pixel whole, as its share of the resolve does.
double ink(const Image8& image) {
    double sum = 0.0;
    for (size_t i = 0; i < size_t(image.width) * image.height * 4; i += 4)
        for (size_t c = 0; c < 3; ++c)
            sum += std::abs(double(image.rgba[i + c]) - double(image.rgba[c]));
    return sum;
}

class ImpostorTest : public test::VulkanTest {
  protected:
    void SetUp() override {
        VulkanTest::SetUp();
        allocator_ = std::make_unique<GpuMeshAllocator>(device());
        model_.emplace(buildMonster(*allocator_, MonsterParams{}));
        crowdModel_ = std::make_unique<CrowdModel>(device(), *model_);
    }
    void TearDown() override {
        crowdModel_.reset();
        model_.reset();
        allocator_.reset();
        VulkanTest::TearDown();
    }

    static constexpr SceneOutput kOutput{.samples = VK_SAMPLE_COUNT_4_BIT};

    CrowdSettings settings(bool impostors, float lodErrorPixels) const {
        CrowdSettings s;
        s.behaviour = loopBehaviour();
        s.impostors = impostors;
        s.lod = impostors; // meshes at their full level
        s.cull = false;
        s.lodErrorPixels = lodErrorPixels;
        return s;
    }

    // A camera at atlas view `view` of a sphere, far enough that perspective is nearly the bake's
    // orthographic projection, the sphere `pixels` across; its depth range holds everything from
    // the eye to the sphere.
    static ViewCamera along(uint32_t view, glm::vec4 sphere, float pixels) {
        OrbitCamera camera;
        camera.target = glm::vec3(sphere);
        camera.yaw = float(view % HORDE_IMPOSTOR_AZIMUTHS) * 2.0f * float(M_PI) / HORDE_IMPOSTOR_AZIMUTHS;
        camera.pitch = float(view / HORDE_IMPOSTOR_AZIMUTHS) * HORDE_IMPOSTOR_ELEVATION_STEP;
        camera.distance = sphere.w * 200.0f;
        camera.fovY = 2.0f * std::atan(sphere.w / camera.distance * float(kSize) / pixels);
        return orbitView(camera, 1.0f, camera.distance, kSize);
    }

    HeadlessResult draw(std::span<const CrowdModel* const> models,
                        std::vector<std::vector<gpu::InstanceRecord>> instances, const CrowdSettings& s,
                        const ViewCamera& view) {
        CrowdScene scene(device(), models, std::move(instances), s, kOutput);
        HeadlessOptions o;
        o.width = o.height = kSize;
        o.frames = 2;
        return renderHeadless(device(), scene, view, o);
    }

    // An impostor's box is its mesh's within 2 px on every side.
    static void expectSameBox(const test::Coverage& impostor, const test::Coverage& mesh) {
        EXPECT_NEAR(double(impostor.minX), double(mesh.minX), 2.0);
        EXPECT_NEAR(double(impostor.maxX), double(mesh.maxX), 2.0);
        EXPECT_NEAR(double(impostor.minY), double(mesh.minY), 2.0);
        EXPECT_NEAR(double(impostor.maxY), double(mesh.maxY), 2.0);
    }

    static gpu::InstanceRecord bindPose(glm::vec3 at) {
        return {HORDE_NONE, 0.0f, 1.0f, 1, glm::vec4(at, 0.0f), glm::vec4(1.0f)};
    }

    std::unique_ptr<GpuMeshAllocator> allocator_;
    std::optional<Model> model_;
    std::unique_ptr<CrowdModel> crowdModel_;
};

} // namespace

// The bind pose seen from four of the atlas's views, 64 px across: the impostor's box is the
// mesh's within 2 px; it touches at least 0.9 of the mesh's pixels and at most 1.7 times them (a
// leg thinner than a texel of the 32-texel tile, shown at twice its size and filtered, spreads
// over two pixels or three at part coverage), its ink (how far it is from the background, summed)
// is within 0.8 and 1.25 of the mesh's, and its mean colour within 15%.
TEST_F(ImpostorTest, AMonsterAsImpostorCoversAndColoursLikeItsMesh) {
    const CrowdModel* models[] = {crowdModel_.get()};
    for (uint32_t view : {0u, 3u, HORDE_IMPOSTOR_AZIMUTHS + 5u, 2u * HORDE_IMPOSTOR_AZIMUTHS + 1u}) {
        SCOPED_TRACE("view " + std::to_string(view));
        const ViewCamera camera = along(view, crowdModel_->asset().worldSphere, 64.0f);
        // An error that makes a sphere about 64 pixels across an impostor.
        const float error = 2.0f * 64.0f / kImpostorPixelsPerErrorPixel;
        const HeadlessResult mesh =
            draw(models, {{bindPose(glm::vec3(0.0f))}}, settings(false, error), camera);
        const HeadlessResult impostor =
            draw(models, {{bindPose(glm::vec3(0.0f))}}, settings(true, error), camera);
        ASSERT_EQ(impostor.stats.counts.back().impostors, 1u);
        ASSERT_EQ(mesh.stats.counts.back().impostors, 0u);
        const test::Coverage a = test::coverage(mesh.image), b = test::coverage(impostor.image);
        ASSERT_GT(a.pixels, 50u);
        expectSameBox(b, a);
        EXPECT_GE(double(b.pixels), 0.9 * double(a.pixels));
        EXPECT_LE(double(b.pixels), 1.7 * double(a.pixels));
        EXPECT_GE(ink(impostor.image), 0.8 * ink(mesh.image));
        EXPECT_LE(ink(impostor.image), 1.25 * ink(mesh.image));
        const glm::dvec3 ca = meanColor(mesh.image), cb = meanColor(impostor.image);
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(cb[c], ca[c], 0.15 * ca[c]) << "channel " << c;
    }
}

// A monster whose sphere's centre lies just off the picture's left edge, its arm showing. An
// impostor is one point sprite, drawn through a viewport reaching past the target's edges (a device
// may clip a point whose centre leaves the view; lavapipe does not, so here the test holds the
// guarded viewport's mapping, a point placed a guard's width off moving the box): its box is the
// mesh's, and it covers at least as much (the mesh's arm, thinner than the impostor's filtered
// texels, covers less).
TEST_F(ImpostorTest, AnImpostorWhoseCentreIsOffThePictureShowsWhatIsOnIt) {
    const CrowdModel* models[] = {crowdModel_.get()};
    const glm::vec4 sphere = crowdModel_->asset().worldSphere;
    const ViewCamera camera = along(0, sphere, 64.0f);
    const glm::mat4& m = camera.viewProjection;
    const glm::vec3 right = glm::normalize(glm::vec3(m[0][0], m[1][0], m[2][0]));
    // 64 px across in 96: the picture's edge is 1.5 radii from its centre.
    const glm::vec3 at = -right * (1.55f * sphere.w);
    const float error = 2.0f * 64.0f / kImpostorPixelsPerErrorPixel;
    const HeadlessResult mesh = draw(models, {{bindPose(at)}}, settings(false, error), camera);
    const HeadlessResult impostor = draw(models, {{bindPose(at)}}, settings(true, error), camera);
    ASSERT_EQ(impostor.stats.counts.back().impostors, 1u);
    const glm::vec4 centre = m * glm::vec4(glm::vec3(sphere) + at, 1.0f);
    ASSERT_LT(centre.x / centre.w, -1.0f) << "the sphere's centre is off the picture";
    const test::Coverage a = test::coverage(mesh.image), b = test::coverage(impostor.image);
    ASSERT_GT(a.pixels, 20u);
    EXPECT_EQ(a.minX, 0u);
    expectSameBox(b, a);
    EXPECT_GE(double(b.pixels), 0.9 * double(a.pixels));
}

// A unit square facing +z, both faces drawn; with `morph`, one target moving it 1.5 units right,
// resting at weight 1; every vertex coloured `color` where given, as a file of `format` has it.
Model square(MeshAllocator& allocator, bool morph, std::optional<glm::vec4> color = {},
             const std::string& format = "gltf") {
    Model model;
    model.format = format;
    model.nodes = {Node{"square"}};
    Mesh mesh;
    mesh.name = "square";
    mesh.storage = allocator.allocate({.vertexCount = 4, .indexCount = 12, .uvSets = 0, .index16 = true,
                                       .colors = color.has_value(), .morphTargets = morph ? 1u : 0u},
                                      "square");
    MeshArrays& a = mesh.arrays();
    for (uint32_t v = 0; v < 4; ++v) {
        a.positions[v] = glm::vec3(float(v & 1) - 0.5f, float(v >> 1) - 0.5f, 0.0f);
        a.normals[v] = glm::vec3(0, 0, 1);
        if (morph) a.morphPositions[v] = glm::vec3(1.5f, 0, 0);
        if (color) a.colors[v] = *color;
    }
    const uint16_t indices[] = {0, 1, 3, 0, 3, 2, 0, 3, 1, 0, 2, 3};
    for (uint32_t i = 0; i < 12; ++i) a.indices16[i] = indices[i];
    if (morph) mesh.morphWeights = {1.0f};
    mesh.submeshes.push_back({"", 0, 12});
    model.meshes.push_back(std::move(mesh));
    finalizeMeshes(model);
    model.meshes[0].storage->commit();
    return model;
}

// The morphed square: its impostor is baked morphed, as its mesh is drawn, so the two cover the
// same box (the unmorphed square lies a square and a half to the left).
TEST_F(ImpostorTest, AMorphedMeshIsBakedAsItIsDrawn) {
    const Model model = square(*allocator_, true);
    CrowdModel crowdModel(device(), model);
    const CrowdModel* models[] = {&crowdModel};
    const ViewCamera camera = along(0, crowdModel.asset().worldSphere, 64.0f);
    const float error = 2.0f * 64.0f / kImpostorPixelsPerErrorPixel;
    const HeadlessResult drawn = draw(models, {{bindPose(glm::vec3(0.0f))}}, settings(false, error), camera);
    const HeadlessResult baked = draw(models, {{bindPose(glm::vec3(0.0f))}}, settings(true, error), camera);
    ASSERT_EQ(baked.stats.counts.back().impostors, 1u);
    const test::Coverage m = test::coverage(drawn.image), i = test::coverage(baked.image);
    ASSERT_GT(m.pixels, 50u);
    expectSameBox(i, m);
}

// The centre pixel of what an image covers, in linear light (the image is sRGB).
glm::dvec3 centreColor(const Image8& image) {
    const test::Coverage c = test::coverage(image);
    const uint8_t* p = &image.rgba[(size_t(c.minY + c.maxY) / 2 * image.width + (c.minX + c.maxX) / 2) * 4];
    auto linear = [](uint8_t v) { return std::pow((double(v) / 255.0 + 0.055) / 1.055, 2.4); };
    return {linear(p[0]), linear(p[1]), linear(p[2])};
}

// The coverage a view gives back (CrowdAsset::impostorCoverage) scales the baked coverage before it
// becomes samples: the square's middle, covered whole, given 0.5 takes 2 of a pixel's 4 samples
// (2 + a dither under 1, rounded down), so the pixel is the mean, in linear light, of the square's
// colour (its picture at 1) and the background's (a corner's); given 2, it stays whole.
TEST_F(ImpostorTest, AViewsCoverageScalesTheSamplesTheImpostorTakes) {
    const Model model = square(*allocator_, false);
    auto drawWith = [&](float coverage) {
        CrowdAsset asset = buildCrowdAsset(model);
        asset.impostorCoverage.assign(asset.impostorCoverage.size(), coverage);
        CrowdModel crowdModel(device(), model, std::move(asset));
        const CrowdModel* models[] = {&crowdModel};
        const ViewCamera camera = along(0, crowdModel.asset().worldSphere, 64.0f);
        const float error = 2.0f * 64.0f / kImpostorPixelsPerErrorPixel;
        const HeadlessResult result =
            draw(models, {{bindPose(glm::vec3(0.0f))}}, settings(true, error), camera);
        EXPECT_EQ(result.stats.counts.back().impostors, 1u);
        return result.image;
    };
    const Image8 whole = drawWith(1.0f), half = drawWith(0.5f), more = drawWith(2.0f);
    const glm::dvec3 inside = centreColor(whole), mixed = centreColor(half);
    auto linear = [](uint8_t v) { return std::pow((double(v) / 255.0 + 0.055) / 1.055, 2.4); };
    for (int c = 0; c < 3; ++c) {
        const double background = linear(whole.rgba[c]);
        EXPECT_GT(inside[c] - background, 0.05) << "channel " << c << " tells the square from the background";
        EXPECT_NEAR(mixed[c], (inside[c] + background) / 2.0, 1.5 / 255.0) << "channel " << c;
    }
    EXPECT_EQ(centreColor(more), inside) << "coverage stays at most whole";
}

// The square's vertices coloured (0.8, 0.1, 0.1) as glTF's COLOR_0 multiply what its material (an
// undefined one's palette colour) and the light give: drawn by either technique and as an
// impostor, the centre of the coloured square is the uncoloured one's times that colour, beside
// the ambient 0.02 that draw.frag and impostor.frag add. A Grimrock file's colour array is kept
// but not drawn: its square is the uncoloured one.
TEST_F(ImpostorTest, VertexColoursTintMeshesAndImpostors) {
    const glm::dvec3 color(0.8, 0.1, 0.1);
    const Model red = square(*allocator_, false, glm::vec4(glm::vec3(color), 1.0f));
    const Model plain = square(*allocator_, false);
    const Model grimrock = square(*allocator_, false, glm::vec4(glm::vec3(color), 1.0f), "grimrock");
    CrowdModel redModel(device(), red), plainModel(device(), plain), grimrockModel(device(), grimrock);
    const CrowdModel* reds[] = {&redModel};
    const CrowdModel* plains[] = {&plainModel};
    const CrowdModel* grimrocks[] = {&grimrockModel};
    const ViewCamera camera = along(0, redModel.asset().worldSphere, 64.0f);
    const float error = 2.0f * 64.0f / kImpostorPixelsPerErrorPixel;
    CrowdSettings vertex = settings(false, error);
    vertex.technique = Technique::Vertex;
    for (const CrowdSettings& s : {settings(false, error), vertex, settings(true, error)}) {
        SCOPED_TRACE(s.impostors ? "impostor" : s.technique == Technique::Vertex ? "vertex technique" : "compute technique");
        const glm::dvec3 r = centreColor(draw(reds, {{bindPose(glm::vec3(0.0f))}}, s, camera).image);
        const glm::dvec3 p = centreColor(draw(plains, {{bindPose(glm::vec3(0.0f))}}, s, camera).image);
        const glm::dvec3 g = centreColor(draw(grimrocks, {{bindPose(glm::vec3(0.0f))}}, s, camera).image);
        for (int c = 0; c < 3; ++c) {
            EXPECT_NEAR(r[c], color[c] * (p[c] - 0.02) + 0.02, 0.01) << "channel " << c << ", uncoloured " << p[c];
            EXPECT_EQ(g[c], p[c]) << "channel " << c;
        }
    }
}

// Scenes of the same models share their textures and impostors (the profile's techniques, the
// window's scene made again): a vertex-skinned scene made with a compute scene's resources finds
// the atlas baked and draws the same impostor pixels; a scene without textures, or without vertex
// colours, makes its own.
TEST_F(ImpostorTest, ScenesOfTheSameModelsShareOneBake) {
    const CrowdModel* models[] = {crowdModel_.get()};
    const ViewCamera camera = along(0, crowdModel_->asset().worldSphere, 64.0f);
    const float error = 2.0f * 64.0f / kImpostorPixelsPerErrorPixel;
    HeadlessOptions o;
    o.width = o.height = kSize;
    o.frames = 2;
    CrowdScene first(device(), models, {{bindPose(glm::vec3(0.0f))}}, settings(true, error), kOutput);
    ASSERT_FALSE(first.resources()->impostorsBaked) << "baked when first seen, not when made";
    const HeadlessResult a = renderHeadless(device(), first, camera, o);
    ASSERT_TRUE(first.resources()->impostorsBaked);

    CrowdSettings vertex = settings(true, error);
    vertex.technique = Technique::Vertex;
    CrowdScene second(device(), models, {{bindPose(glm::vec3(0.0f))}}, vertex, kOutput, first.resources());
    EXPECT_EQ(second.resources(), first.resources());
    const HeadlessResult b = renderHeadless(device(), second, camera, o);
    ASSERT_EQ(b.stats.counts.back().impostors, 1u);
    EXPECT_EQ(test::coverage(b.image).pixels, test::coverage(a.image).pixels);
    EXPECT_EQ(b.image.rgba, a.image.rgba) << "an impostor's draw reads nothing the technique writes";

    CrowdSettings plain = settings(true, error);
    plain.textures = false;
    CrowdScene third(device(), models, {{bindPose(glm::vec3(0.0f))}}, plain, kOutput, first.resources());
    EXPECT_NE(third.resources(), first.resources());
    EXPECT_FALSE(third.resources()->impostorsBaked);
    // Nor does one that leaves vertex colours out (validate's pictures): its atlas has none.
    CrowdSettings uncoloured = settings(true, error);
    uncoloured.vertexColors = false;
    CrowdScene fourth(device(), models, {{bindPose(glm::vec3(0.0f))}}, uncoloured, kOutput, first.resources());
    EXPECT_NE(fourth.resources(), first.resources());
}

// Every instance of a crowd made impostors by a large error: each entry of the impostors' list
// names the view and the shared pose the CPU reference picks for its instance.
TEST_F(ImpostorTest, ViewAndPosePicksEqualTheCpuReference) {
    const CrowdModel* models[] = {crowdModel_.get()};
    const std::vector<gpu::InstanceRecord> instances =
        crowdLayout(crowdModel_->asset(), 200, {.kind = Layout::Scatter});
    CrowdSettings s = settings(true, 100.0f);
    s.cull = true;
    CrowdScene scene(device(), models, {instances}, s, kOutput);
    OrbitCamera orbit = frameBounds(scene.worldBounds(), 1.0f, 0.9f, 0.4f);
    const ViewCamera view = orbitView(orbit, 1.0f, scene.worldBounds().radius(), kSize);
    HeadlessOptions o;
    o.width = o.height = kSize;
    o.frames = 2;
    o.startTime = 0.25f;
    HeadlessResult result = renderHeadless(device(), scene, view, o);
    const uint32_t impostors = result.stats.counts.back().impostors;
    ASSERT_EQ(impostors, 200u);
    const std::vector<uint32_t> starts = scene.readListStarts(1, 0);
    const std::vector<gpu::DrawEntry> entries = scene.readEntries(1, 0, starts.back() + impostors);

    const CullModelInfo info = test::cullModelInfo(crowdModel_->asset(), *model_);
    const CullCamera camera{frustumPlanes(view.viewProjection), view.eye, view.pixelsPerUnit,
                            device().largestPoint()};
    const CrowdSettings& cull = s;
    const float time = o.startTime + o.frameTime; // the second frame's
    uint32_t disagree = 0;
    std::vector<bool> seen(instances.size(), false);
    for (uint32_t k = starts.back(); k < starts.back() + impostors; ++k) {
        const gpu::DrawEntry& e = entries[k];
        ASSERT_LT(e.instance, instances.size());
        EXPECT_FALSE(seen[e.instance]) << "each instance once";
        seen[e.instance] = true;
        const CullDecision d =
            cullInstance(info, test::cullInstanceAt(*model_, instances[e.instance], time), camera, cull);
        ASSERT_TRUE(d.impostor);
        // Float against double at a bin's edge may pick the neighbour for a rare instance.
        disagree += d.view != e.level || d.bucket != e.pose ? 1 : 0;
    }
    EXPECT_LE(disagree, 2u);
}

// A scattered crowd from above at 0.75 px of error (impostors under 12 px, fading up to 18), so
// that many monsters are in the fade's band: in every (mesh, level) list the fading instances'
// entries are the last, one for each fading instance's every mesh; each fading instance has one
// quad with the same step; and each step is the CPU reference's (float against double may differ
// by one step for a rare instance).
TEST_F(ImpostorTest, FadingEntriesAreTheirListsLastAndTheReferencesSteps) {
    const CrowdModel* models[] = {crowdModel_.get()};
    const std::vector<gpu::InstanceRecord> instances =
        crowdLayout(crowdModel_->asset(), 300, {.kind = Layout::Scatter});
    CrowdSettings s = settings(true, 0.75f);
    s.cull = true;
    CrowdScene scene(device(), models, {instances}, s, kOutput);
    const OrbitCamera orbit = frameBounds(scene.worldBounds(), 1.0f, 0.9f, 0.6f);
    const ViewCamera view = orbitView(orbit, 1.0f, scene.worldBounds().radius(), kSize * 4);
    HeadlessOptions o;
    o.width = o.height = kSize * 4;
    o.frames = 2;
    o.startTime = 0.25f;
    const HeadlessResult result = renderHeadless(device(), scene, view, o);
    const FrameCounts& counts = result.stats.counts.back();
    ASSERT_GT(counts.fading, 20u);
    const std::vector<uint32_t> starts = scene.readListStarts(1, 0);
    const std::vector<uint32_t>& listCounts = counts.listCounts[0];
    const std::vector<gpu::DrawEntry> entries = scene.readEntries(1, 0, starts.back() + counts.impostors);

    const CrowdAsset& asset = crowdModel_->asset();
    const CullModelInfo info = test::cullModelInfo(asset, *model_);
    const CullCamera camera{frustumPlanes(view.viewProjection), view.eye, view.pixelsPerUnit,
                            device().largestPoint()};
    auto referenceStep = [&](uint32_t instance) {
        const float time = o.startTime + o.frameTime; // the second frame's
        return cullInstance(info, test::cullInstanceAt(*model_, instances[instance], time), camera, s).fadeStep;
    };
    std::vector<uint32_t> meshStep(instances.size(), 0);
    uint32_t fadingEntries = 0, disagree = 0;
    for (uint32_t list = 0; list < listCounts.size(); ++list) {
        bool fading = false;
        for (uint32_t k = starts[list]; k < starts[list] + listCounts[list]; ++k) {
            const uint32_t step = entries[k].level >> HORDE_FADE_SHIFT;
            EXPECT_TRUE(step != 0 || !fading) << "list " << list << ": a fading entry before one that is not";
            fading = step != 0;
            fadingEntries += fading ? 1 : 0;
            meshStep[entries[k].instance] = step;
        }
    }
    EXPECT_EQ(fadingEntries, counts.fading * uint32_t(asset.lods.size()))
        << "each fading instance's every mesh";
    uint32_t quads = 0;
    for (uint32_t k = starts.back(); k < starts.back() + counts.impostors; ++k) {
        const uint32_t step = entries[k].level >> HORDE_FADE_SHIFT, instance = entries[k].instance;
        if (step == 0) continue;
        ++quads;
        EXPECT_EQ(meshStep[instance], step) << "instance " << instance;
        const uint32_t expected = referenceStep(instance);
        disagree += std::abs(int(expected) - int(step)) > 1 ? 100 : expected != step ? 1 : 0;
    }
    EXPECT_EQ(quads, counts.fading);
    EXPECT_LE(disagree, 2u);
}

// In the pixels where both monsters show when drawn alone and `whole` covers whole (it and its
// four neighbours foreground), the share where `both` shows as `whole` alone, every channel
// within `tolerance`. At least `leastOverlap` such pixels. Whichever is in front inside `whole`,
// the other shows there only if it is drawn in front of it.
double sameInside(const Image8& both, const Image8& whole, const Image8& other, int tolerance,
                  size_t leastOverlap) {
    size_t overlap = 0, same = 0;
    for (uint32_t y = 1; y + 1 < both.height; ++y)
        for (uint32_t x = 1; x + 1 < both.width; ++x) {
            if (!test::isForeground(whole, x, y) || !test::isForeground(other, x, y)) continue;
            if (!(test::isForeground(whole, x - 1, y) && test::isForeground(whole, x + 1, y) &&
                  test::isForeground(whole, x, y - 1) && test::isForeground(whole, x, y + 1)))
                continue;
            const size_t i = (size_t(y) * both.width + x) * 4;
            int apart = 0;
            for (int c = 0; c < 3; ++c)
                apart = std::max(apart, std::abs(int(both.rgba[i + c]) - int(whole.rgba[i + c])));
            ++overlap;
            same += apart <= tolerance ? 1 : 0;
        }
    EXPECT_GE(overlap, leastOverlap) << "the two monsters overlap on screen";
    return overlap ? double(same) / double(overlap) : 0.0;
}

// Depth both ways, the eye 200 radii out on +Z, the far monster's sphere 28 px across (seen head
// on, its body a few pixels wide), the near one on the eye's line to it. A mesh in front of an
// impostor: with impostors under 30 px, a monster 60 radii from the eye (93 px) is a mesh, and
// where it overlaps the far one, an impostor, the picture is the mesh's exactly inside it (at its
// edge, part-covered pixels blend).
// An impostor in front of a mesh, seen from 60 degrees up with the far one 80 px across: with
// impostors under 60 px, a copy scaled to a twentieth 14 radii from the eye (about 57 px) is an
// impostor in front of the far one, now a mesh, and shows over it (sameInside: the monster's
// body is a few texels wide, so the filtered atlas covers its pixels in part nearly everywhere,
// and how much of a pixel it takes varies; whether it takes any does not).
TEST_F(ImpostorTest, ImpostorsAndMeshesOccludeByDepth) {
    const glm::vec4 sphere = crowdModel_->asset().worldSphere;
    const ViewCamera camera = along(0, sphere, 28.0f);
    const glm::vec3 near(0.0f, 0.0f, sphere.w * 140.0f), far(0.0f);
    const CrowdModel* one[] = {crowdModel_.get()};
    {
        const CrowdSettings s = settings(true, 30.0f / kImpostorPixelsPerErrorPixel);
        const HeadlessResult both = draw(one, {{bindPose(near), bindPose(far)}}, s, camera);
        EXPECT_EQ(both.stats.counts.back().impostors, 1u);
        const HeadlessResult front = draw(one, {{bindPose(near)}}, s, camera);
        const HeadlessResult back = draw(one, {{bindPose(far)}}, s, camera);
        EXPECT_EQ(back.stats.counts.back().impostors, 1u);
        EXPECT_EQ(sameInside(both.image, front.image, back.image, 0, 5), 1.0)
            << "the mesh in front hides the impostor";
    }
    {
        // From 60 degrees up (the atlas's top elevation), where the monster's back and legs show.
        const uint32_t above = 2 * HORDE_IMPOSTOR_AZIMUTHS;
        const ViewCamera high = along(above, sphere, 80.0f);
        const glm::vec3 toEye = glm::normalize(high.eye - glm::vec3(sphere));
        CrowdModel small(device(), *model_, {.scale = 0.05f});
        const CrowdModel* two[] = {&small, crowdModel_.get()};
        // Without the fade, which would draw the far one (80 px, under 1.5 x 60) as both.
        CrowdSettings s = settings(true, 60.0f / kImpostorPixelsPerErrorPixel);
        s.impostorFade = false;
        const glm::vec3 between = glm::vec3(sphere) * 0.95f + toEye * sphere.w * 186.0f;
        const HeadlessResult both = draw(two, {{bindPose(between)}, {bindPose(far)}}, s, high);
        EXPECT_EQ(both.stats.counts.back().impostors, 1u) << "the small near one; the far one is a mesh";
        const HeadlessResult front = draw(two, {{bindPose(between)}, {}}, s, high);
        const HeadlessResult back = draw(two, {{}, {bindPose(far)}}, s, high);
        EXPECT_EQ(back.stats.counts.back().impostors, 0u);
        // Inside the mesh, the impostor shows wherever it takes a sample (over half the pixels);
        // drawn behind, nowhere.
        EXPECT_LE(sameInside(both.image, back.image, front.image, 2, 50), 0.5) << "the impostor in front of the mesh";
    }
}

// A camera dollying towards a sphere along atlas view 0, at the distance where it spans `pixels`
// (the cull pass's measure: its diameter at its nearest point).
ViewCamera dolly(glm::vec4 sphere, float pixels) {
    OrbitCamera camera;
    camera.target = glm::vec3(sphere);
    camera.yaw = 0.0f;
    camera.pitch = 0.0f;
    camera.fovY = 0.5f;
    const float pixelsPerUnit = float(kSize) / (2.0f * std::tan(camera.fovY * 0.5f));
    camera.distance = sphere.w + 2.0f * sphere.w * pixelsPerUnit / pixels;
    return orbitView(camera, 1.0f, camera.distance + sphere.w, kSize);
}

// At 4 px of error impostors take spheres up to 64 px across and fade over 64 to 96 px. Dollied
// to 80.4 px, the monster's meshes take (80.4 - 64) / 32 = 0.5125 of the samples: step 131 of 256
// (131.2), in every entry of its meshes and in its impostor's, as the CPU reference says; and
// where its mesh and its impostor each cover a pixel whole, the fading monster covers it too
// (the two halves' samples complement each other: no hole).
TEST_F(ImpostorTest, AFadingInstanceDrawsBothHalvesAtItsShare) {
    const CrowdModel* models[] = {crowdModel_.get()};
    const glm::vec4 sphere = crowdModel_->asset().worldSphere;
    const ViewCamera camera = dolly(sphere, 80.4f);
    const CrowdSettings s = settings(true, 4.0f);
    CrowdScene scene(device(), models, {{bindPose(glm::vec3(0.0f))}}, s, kOutput);
    HeadlessOptions o;
    o.width = o.height = kSize;
    o.frames = 2;
    const HeadlessResult fading = renderHeadless(device(), scene, camera, o);
    const FrameCounts& counts = fading.stats.counts.back();
    EXPECT_EQ(counts.visible, 1u);
    EXPECT_EQ(counts.impostors, 1u);
    EXPECT_EQ(counts.fading, 1u);

    const CullModelInfo info{.sphere = sphere, .levelErrors = {{0.0f}}};
    const CullDecision d =
        cullInstance(info, {}, {frustumPlanes(camera.viewProjection), camera.eye, camera.pixelsPerUnit}, s);
    EXPECT_NEAR(d.meshShare, 0.5125, 1e-4);
    EXPECT_EQ(d.fadeStep, 131u);
    const std::vector<uint32_t> starts = scene.readListStarts(1, 0);
    const uint32_t total = starts.back() + counts.impostors;
    const std::vector<gpu::DrawEntry> entries = scene.readEntries(1, 0, total);
    ASSERT_EQ(total, uint32_t(crowdModel_->asset().lods.size()) + 1) << "each mesh and the impostor";
    for (const gpu::DrawEntry& e : entries) EXPECT_EQ(e.level >> HORDE_FADE_SHIFT, 131u);

    CrowdSettings sharp = s;
    sharp.impostorFade = false;
    const HeadlessResult mesh = draw(models, {{bindPose(glm::vec3(0.0f))}}, sharp, camera);
    ASSERT_EQ(mesh.stats.counts.back().impostors, 0u);
    const HeadlessResult impostor = draw(models, {{bindPose(glm::vec3(0.0f))}}, settings(true, 5.2f), camera);
    ASSERT_EQ(impostor.stats.counts.back().impostors, 1u);
    ASSERT_EQ(impostor.stats.counts.back().fading, 0u);
    size_t both = 0, holes = 0;
    auto whole = [](const Image8& image, uint32_t x, uint32_t y) {
        return test::isForeground(image, x, y) && test::isForeground(image, x - 1, y) &&
               test::isForeground(image, x + 1, y) && test::isForeground(image, x, y - 1) &&
               test::isForeground(image, x, y + 1);
    };
    for (uint32_t y = 1; y + 1 < kSize; ++y)
        for (uint32_t x = 1; x + 1 < kSize; ++x)
            if (whole(mesh.image, x, y) && whole(impostor.image, x, y)) {
                ++both;
                holes += test::isForeground(fading.image, x, y) ? 0 : 1;
            }
    EXPECT_GT(both, 20u);
    EXPECT_EQ(holes, 0u);
}

// The monster dollied from 70 px across to 28, 1% a frame, past the impostor threshold at 40 px
// (2.5 px of error; the fade from 60 px): with the fade, no frame changes more where it crosses
// the threshold than the largest change within a level; without it, the frame that swaps mesh for
// impostor does. Dollied from 95 px to 20 with impostors off (0.5 px of error), it changes level
// three times, none changing more than a frame within a level. The figures print for
// docs/PERFORMANCE.md ("Popping").
TEST_F(ImpostorTest, ADollyingCameraSeesNoPopLargerThanAFrameWithinALevel) {
    // The largest one-frame change of the camera dollying the monster (in one pose) from `from` px
    // across to `to`, 1% a frame, by kind of step: within a level (the same levels, and no
    // impostor or only impostors in both frames), across a level, across the impostor threshold
    // (an impostor in one frame, or a fade in either). A change is the mean absolute difference
    // over every pixel and channel, from 0 to 1 (scripts/image-diff's mean metric).
    enum { Within, Level, Impostor };
    auto largestChanges = [&](const CrowdSettings& s, float from, float to) {
        const CrowdModel* models[] = {crowdModel_.get()};
        CrowdScene scene(device(), models, {{bindPose(glm::vec3(0.0f))}}, s, kOutput);
        HeadlessOptions o;
        o.width = o.height = kSize;
        o.frames = 2;
        std::array<double, 3> largest{};
        std::optional<HeadlessResult> previous;
        for (float pixels = from; pixels >= to; pixels /= 1.01f) {
            const ViewCamera camera = dolly(crowdModel_->asset().worldSphere, pixels);
            HeadlessResult frame = renderHeadless(device(), scene, camera, o);
            if (previous) {
                const FrameCounts &a = previous->stats.counts.back(), &b = frame.stats.counts.back();
                double change = 0.0;
                for (size_t i = 0; i < frame.image.rgba.size(); i += 4)
                    for (size_t c = 0; c < 3; ++c)
                        change += std::abs(int(frame.image.rgba[i + c]) - int(previous->image.rgba[i + c]));
                change /= double(frame.image.rgba.size()) / 4.0 * 3.0 * 255.0;
                const bool impostors = a.impostors && b.impostors && !a.fading && !b.fading;
                const size_t kind = impostors                    ? Within
                                    : a.impostors || b.impostors ? Impostor
                                    : a.perLevel != b.perLevel   ? Level
                                                                 : Within;
                largest[kind] = std::max(largest[kind], change);
            }
            previous = std::move(frame);
        }
        return largest;
    };
    CrowdSettings s = settings(true, 2.5f);
    const std::array<double, 3> fade = largestChanges(s, 70.0f, 28.0f);
    s.impostorFade = false;
    const std::array<double, 3> sharp = largestChanges(s, 70.0f, 28.0f);
    CrowdSettings levels = settings(true, 0.5f);
    levels.impostors = false;
    const std::array<double, 3> level = largestChanges(levels, 95.0f, 20.0f);
    std::printf("largest one-frame change: within a level %.6f, across the impostor threshold %.6f with the "
                "fade, %.6f without (within %.6f); levels: within %.6f, across %.6f\n",
                fade[Within], fade[Impostor], sharp[Impostor], sharp[Within], level[Within], level[Level]);
    EXPECT_GT(fade[Impostor], 0.0);
    EXPECT_LE(fade[Impostor], fade[Within]);
    EXPECT_GT(sharp[Impostor], sharp[Within]);
    EXPECT_GT(level[Level], 0.0);
    EXPECT_LE(level[Level], level[Within]);
}
