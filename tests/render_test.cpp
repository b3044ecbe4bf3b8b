// A headless render of the monster shows the monster: real coverage, inside its projected box.
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "crowd/layout.h"
#include "crowd/view.h"
#include "model/validate.h"
#include "monster.h"
#include "render/headless.h"
#include "support/image.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

class RenderTest : public test::VulkanTest {};

TEST_F(RenderTest, MonsterFillsItsProjectedBounds) {
    GpuMeshAllocator allocator(device());
    Model model = buildMonster(allocator);
    const uint32_t width = 320, height = 240;
    float aspect = float(width) / float(height);
    Bounds world = toWorld(bindPoseBounds(model), axesToWorld(model.axes));
    OrbitCamera camera = frameBounds(world, aspect);
    glm::mat4 viewProjection = camera.viewProjection(aspect, world.radius());
    HeadlessResult result;
    {
        CrowdModel crowdModel(device(), model, {.crowd = false});
        std::vector<gpu::InstanceRecord> bindPose = crowdLayout(crowdModel.asset(), 1);
        bindPose[0].clip = HORDE_NONE;
        const CrowdModel* models[] = {&crowdModel};
        CrowdScene crowd(device(), models, {bindPose}, singleInstanceSettings());
        HeadlessOptions options;
        options.width = width;
        options.height = height;
        options.frames = 3;
        result = renderHeadless(device(), crowd, ViewCamera{viewProjection}, options);
    }
    ASSERT_EQ(result.stats.gpu.size(), 3u);
    EXPECT_GT(result.stats.gpu.back().totalMs(), 0.0);

    // The projected bounding box of the bind pose, in pixels.
    glm::vec2 lo(1e9f), hi(-1e9f);
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? world.max.x : world.min.x, (corner & 2) ? world.max.y : world.min.y,
                    (corner & 4) ? world.max.z : world.min.z);
        glm::vec4 clip = viewProjection * glm::vec4(p, 1.0f);
        glm::vec2 ndc = glm::vec2(clip) / clip.w;
        glm::vec2 px((ndc.x * 0.5f + 0.5f) * width, (ndc.y * 0.5f + 0.5f) * height);
        lo = glm::min(lo, px);
        hi = glm::max(hi, px);
    }
    test::Coverage c = test::coverage(result.image);
    double boxArea = double(hi.x - lo.x) * double(hi.y - lo.y);
    EXPECT_GT(c.pixels, boxArea * 0.08) << "the monster covers too little of its box";
    EXPECT_LT(c.pixels, boxArea);
    EXPECT_GE(float(c.minX), lo.x - 1.0f);
    EXPECT_LE(float(c.maxX), hi.x + 1.0f);
    EXPECT_GE(float(c.minY), lo.y - 1.0f);
    EXPECT_LE(float(c.maxY), hi.y + 1.0f);
    // Its silhouette spans most of the box: framing and projection agree.
    EXPECT_GT(float(c.maxX - c.minX), (hi.x - lo.x) * 0.6f);
    EXPECT_GT(float(c.maxY - c.minY), (hi.y - lo.y) * 0.4f);
}

namespace {
// A square 20 wide in the plane z = 0 facing +z, whose right edge is at x = `edge`.
Model wall(float edge) {
    Model model;
    model.nodes = {Node{"root"}};
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = 4;
    layout.indexCount = 6;
    layout.uvSets = 0;
    Mesh mesh;
    mesh.name = "wall";
    mesh.storage = heap.allocate(layout, mesh.name);
    const glm::vec3 corners[] = {
        {edge - 20.0f, -10, 0}, {edge, -10, 0}, {edge, 10, 0}, {edge - 20.0f, 10, 0}};
    for (uint32_t v = 0; v < 4; ++v) {
        mesh.arrays().positions[v] = corners[v];
        mesh.arrays().normals[v] = {0, 0, 1};
    }
    const uint32_t indices[] = {0, 1, 2, 0, 2, 3};
    for (uint32_t i = 0; i < 6; ++i)
        mesh.arrays().setIndex(i, indices[i]);
    mesh.submeshes = {{"", 0, 6}};
    model.meshes.push_back(std::move(mesh));
    finalizeMeshes(model);
    return model;
}

double linear(uint8_t srgb) {
    const double c = srgb / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
} // namespace

// With 4 samples a pixel at Vulkan's standard positions (x offsets 0.375, 0.875, 0.125, 0.625), a
// vertical edge through a pixel's centre covers exactly two of its samples: the resolved pixel is
// the mean, in linear light, of the wall's colour and the background's, each read from the
// pixels beside it.
TEST_F(RenderTest, MultisamplingResolvesAnEdgePixelToTheMeanOfItsSides) {
    const uint32_t width = 64, height = 48;
    const float aspect = float(width) / float(height), fovY = 0.7f, distance = 10.0f;
    // The centre of column 32 is at x = 32.5 pixels: NDC 1 / 64.
    const float edge = (1.0f / float(width)) * distance * std::tan(fovY / 2) * aspect;
    Model model = wall(edge);
    uploadMeshes(device(), model);
    glm::mat4 projection = glm::perspectiveRH_ZO(fovY, aspect, 1.0f, 100.0f);
    projection[1][1] *= -1.0f;
    const glm::mat4 viewProjection =
        projection * glm::lookAtRH(glm::vec3(0, 0, distance), glm::vec3(0), glm::vec3(0, 1, 0));
    HeadlessResult result;
    {
        CrowdModel crowdModel(device(), model, {.crowd = false});
        const CrowdModel* models[] = {&crowdModel};
        SceneOutput output;
        output.samples = device().supportedSamples(4);
        ASSERT_EQ(output.samples, VK_SAMPLE_COUNT_4_BIT) << "lavapipe and every GPU horde targets take 4";
        CrowdScene scene(device(), models,
                         {{gpu::InstanceRecord{HORDE_NONE, 0, 1, 1, glm::vec4(0), glm::vec4(1)}}},
                         singleInstanceSettings(), output);
        HeadlessOptions options;
        options.width = width;
        options.height = height;
        result = renderHeadless(device(), scene, ViewCamera{viewProjection, glm::vec3(0, 0, distance), 1.0f},
                                options);
    }
    auto at = [&](uint32_t x, int c) { return result.image.rgba[(size_t(height / 2) * width + x) * 4 + c]; };
    for (int c = 0; c < 3; ++c) {
        const double wallSide = linear(at(31, c)), background = linear(at(33, c));
        EXPECT_GT(std::abs(wallSide - background), 0.05) << "channel " << c << " tells the sides apart";
        EXPECT_NEAR(linear(at(32, c)), (wallSide + background) / 2.0, 1.5 / 255.0) << "channel " << c;
    }
}
