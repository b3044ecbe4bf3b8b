// A headless render of the monster shows the monster: real coverage, inside its projected box.
#include <gtest/gtest.h>

#include "anim/reference.h"
#include "monster.h"
#include "crowd/layout.h"
#include "render/headless.h"
#include "crowd/view.h"
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
        CrowdScene crowd(device(), models, {bindPose}, singleInstanceSettings(kFramesInFlight));
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
