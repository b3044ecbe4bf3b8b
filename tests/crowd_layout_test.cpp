// Where a mixed crowd stands and how it is looked at, worked out by hand for two boxes of known
// size: the grid's pitch, the scatter's blocks (packed bottom-left) and that no two footprints
// overlap, the front camera's front row, and the nearest instance's projected height. CPU only.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "crowd/crowd_asset.h"
#include "crowd/layout.h"
#include "crowd/sight.h"
#include "crowd/view.h"
#include "model/validate.h"

using namespace horde;

namespace {

// A static box standing on the ground: x in [-w/2, w/2], z in [-d/2, d/2], y in [0, h].
Model box(float w, float d, float h) {
    Model model;
    model.nodes = {Node{"root"}};
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = 8;
    layout.indexCount = 6;
    layout.uvSets = 0;
    Mesh mesh;
    mesh.name = "box";
    mesh.storage = heap.allocate(layout, mesh.name);
    for (uint32_t v = 0; v < 8; ++v) {
        mesh.arrays().positions[v] = {(v & 1 ? 0.5f : -0.5f) * w, v & 2 ? h : 0.0f,
                                      (v & 4 ? 0.5f : -0.5f) * d};
        mesh.arrays().normals[v] = {0, 1, 0};
    }
    const uint32_t indices[] = {0, 1, 3, 4, 7, 6}; // two triangles that together touch every corner
    for (uint32_t i = 0; i < 6; ++i)
        mesh.arrays().setIndex(i, indices[i]);
    mesh.submeshes = {{"", 0, 6}};
    model.meshes.push_back(std::move(mesh));
    finalizeMeshes(model);
    return model;
}

struct TwoBoxes {
    // A post 1 wide, 0.5 deep and 2 tall (footprint sqrt(0.5^2 + 0.25^2) = 0.559), and a crate
    // 4 wide, 2 deep and 1 tall (footprint sqrt(2^2 + 1^2) = 2.236, four times the post's).
    CrowdAsset post = buildCrowdAsset(box(1, 0.5f, 2), {.crowd = false});
    CrowdAsset crate = buildCrowdAsset(box(4, 2, 1), {.crowd = false});
    std::array<const CrowdAsset*, 2> both{&post, &crate};
};

} // namespace

TEST(CrowdLayout, AssetsKnowTheirFootprints) {
    TwoBoxes t;
    EXPECT_NEAR(t.post.footprint, std::sqrt(0.3125f), 1e-6f);
    EXPECT_NEAR(t.crate.footprint, std::sqrt(5.0f), 1e-6f);
}

// Pitch 1.3 x the widest (4) by 1.1 x the deepest (2): 5.2 by 2.2; columns ceil(sqrt(4 x 2.2 /
// 5.2)) = 2, so two rows, centred on the origin; instance i is model i % 2.
TEST(CrowdLayout, TheGridIsSpacedByTheWidestAndDeepestModel) {
    TwoBoxes t;
    const auto lists = crowdLayout(t.both, 4, {.kind = Layout::Grid});
    ASSERT_EQ(lists[0].size(), 2u);
    ASSERT_EQ(lists[1].size(), 2u);
    const glm::vec2 expected[4] = {{-2.6f, -1.1f}, {2.6f, -1.1f}, {-2.6f, 1.1f}, {2.6f, 1.1f}};
    for (uint32_t i = 0; i < 4; ++i) {
        const gpu::InstanceRecord& r = lists[i % 2][i / 2];
        EXPECT_NEAR(r.placement.x, expected[i].x, 1e-5f) << i;
        EXPECT_NEAR(r.placement.z, expected[i].y, 1e-5f) << i;
        EXPECT_LE(std::abs(r.placement.w), 0.4f) << "headings near forward";
    }
}

// Cells are 2.2 x the post's footprint; the post takes one, the crate 4 x 4. The area, 2 x 1 +
// 2 x 16 = 34 cells, makes a skyline 6 cells wide. Packed bottom-left in instance order: post 0
// at (0, 0), crate 1 at (1, 0), post 2 at (5, 0) and crate 3 on top at (0, 4); 8 cells deep.
TEST(CrowdLayout, ScatterPacksEachFootprintInABlockOfItsOwn) {
    TwoBoxes t;
    const auto lists = crowdLayout(t.both, 4, {.kind = Layout::Scatter, .seed = 7});
    const float cell = 2.2f * t.post.footprint;
    const glm::uvec2 corners[4] = {{0, 0}, {1, 0}, {5, 0}, {0, 4}};
    const uint32_t sides[4] = {1, 4, 1, 4};
    for (uint32_t i = 0; i < 4; ++i) {
        const gpu::InstanceRecord& r = lists[i % 2][i / 2];
        const float block = float(sides[i]) * cell;
        const float footprint = i % 2 ? t.crate.footprint : t.post.footprint;
        const float x = (float(corners[i].x) - 3.0f) * cell + block / 2,
                    z = (4.0f - float(corners[i].y)) * cell - block / 2;
        const float slack = block / 2 - footprint;
        EXPECT_LE(std::abs(r.placement.x - x), slack + 1e-5f) << i;
        EXPECT_LE(std::abs(r.placement.z - z), slack + 1e-5f) << i;
        EXPECT_GE(r.placement.w, 0.0f);
        EXPECT_LT(r.placement.w, 2.0f * std::numbers::pi_v<float>);
    }
}

TEST(CrowdLayout, NoTwoScatteredFootprintsOverlap) {
    TwoBoxes t;
    for (uint32_t seed : {1u, 2u, 3u}) {
        const auto lists = crowdLayout(t.both, 300, {.kind = Layout::Scatter, .seed = seed});
        std::vector<std::pair<glm::vec2, float>> circles;
        for (size_t m = 0; m < 2; ++m)
            for (const gpu::InstanceRecord& r : lists[m])
                circles.push_back({glm::vec2(r.placement.x, r.placement.z), t.both[m]->footprint});
        for (size_t a = 0; a < circles.size(); ++a)
            for (size_t b = a + 1; b < circles.size(); ++b)
                ASSERT_GE(glm::distance(circles[a].first, circles[b].first),
                          circles[a].second + circles[b].second - 1e-4f)
                    << "seed " << seed << ": " << a << " and " << b;
    }
    // The same seed, the same crowd.
    EXPECT_EQ(crowdLayout(t.both, 50, {.kind = Layout::Scatter, .seed = 5})[1][7].placement,
              crowdLayout(t.both, 50, {.kind = Layout::Scatter, .seed = 5})[1][7].placement);
}

// The front camera puts a 2-tall monster of the front row (z = 40) 150 px tall at 1280 x 720, its
// feet 80% of the way from the frame's centre to its bottom, and the crowd's far edge at or above
// the frame's top; a crowd that fits the frame whole at that size is framed whole.
TEST(CrowdView, TheFrontCameraMakesTheFrontRowReadable) {
    const Bounds placements{{-40, 0, -40}, {40, 0, 40}}, world{{-41, 0, -41}, {41, 2, 41}};
    const float aspect = 1280.0f / 720.0f;
    const OrbitCamera camera = frontCamera(world, placements, 0.0f, 2.0f, aspect, 720, 150.0f);
    const glm::mat4 viewProjection = camera.viewProjection(aspect, world.radius());
    const glm::vec3 front(0.0f, 0.0f, 40.0f);
    EXPECT_NEAR(projectedHeight(viewProjection, front, 2.0f, 720), 150.0f, 150.0f * 0.02f);
    const glm::vec4 foot = viewProjection * glm::vec4(front, 1.0f);
    EXPECT_NEAR(foot.y / foot.w, 0.8f, 0.01f) << "Vulkan's y points down the frame";
    const glm::vec4 far = viewProjection * glm::vec4(0.0f, 0.0f, world.min.z, 1.0f);
    EXPECT_LE(far.y / far.w, -1.0f) << "the far edge at or above the top";

    const Bounds few{{-2, 0, -2}, {2, 0, 2}}, fewWorld{{-3, 0, -3}, {3, 2, 3}};
    const OrbitCamera whole = frontCamera(fewWorld, few, 0.0f, 2.0f, aspect, 720, 150.0f);
    const OrbitCamera framed = frameBounds(fewWorld, aspect, 0.6f, 0.55f);
    EXPECT_EQ(whole.distance, framed.distance);
    EXPECT_EQ(whole.yaw, framed.yaw);
}

// An eye at (0, 1, 0) looking along -z: posts 2 tall at z = -10 and -5 are seen, one at z = +3 is
// behind the eye. The nearest seen, at depth 5, spans 2 / (5 tan(fovY / 2)) of the frame's
// half-height: 720 / 2 x that in pixels.
TEST(CrowdView, TheNearestSeenInstancesHeightIsItsProjection) {
    const CrowdAsset post = buildCrowdAsset(box(1, 0.5f, 2), {.crowd = false});
    OrbitCamera camera;
    camera.target = {0, 1, -1};
    camera.distance = 1;
    camera.yaw = 0;
    camera.pitch = 0;
    const ViewCamera view = orbitView(camera, 16.0f / 9.0f, 20.0f, 720);
    std::vector<gpu::InstanceRecord> instances(3);
    instances[0].placement = {0, 0, -10, 0};
    instances[1].placement = {0, 0, -5, 0.7f}; // a heading changes nothing of its height
    instances[2].placement = {0, 0, 3, 0};
    const float expected = 2.0f / (5.0f * std::tan(camera.fovY / 2)) * 720.0f / 2.0f;
    EXPECT_NEAR(nearestHeightPixels(post, instances, view, 720), expected, expected * 1e-4f);
    instances.resize(1);
    EXPECT_NEAR(nearestHeightPixels(post, instances, view, 720), expected / 2.0f, expected * 1e-4f);
    instances[0].placement = {0, 0, 3, 0};
    EXPECT_EQ(nearestHeightPixels(post, instances, view, 720), 0.0f) << "none seen";
}
