// Per-pass GPU times land on their own pass on every device (lavapipe's timestamps once carried
// the next pass's time: the skin pass's showed under pose), and the pipeline-statistics queries
// count each pass's shader invocations as its dispatches and draws are sized.
#include <gtest/gtest.h>

#include "monster.h"
#include "render/crowd_scene.h"
#include "render/headless.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

namespace {

uint64_t workgroupsOf(uint64_t invocations) {
    return (invocations + HORDE_WORKGROUP - 1) / HORDE_WORKGROUP * HORDE_WORKGROUP;
}

} // namespace

class PassTiming : public test::VulkanTest {
  protected:
    FrameStats run(Technique technique, uint32_t count) {
        GpuMeshAllocator allocator(device());
        crowdModel_.reset();
        model_ = buildMonster(allocator);
        crowdModel_ = std::make_unique<CrowdModel>(device(), model_);
        const CrowdModel* models[] = {crowdModel_.get()};
        CrowdSettings settings = singleInstanceSettings();
        settings.count = count;
        settings.technique = technique;
        CrowdScene scene(device(), models, settings);
        const OrbitCamera camera = frameBounds(scene.worldBounds(), 1.0f);
        HeadlessOptions options;
        options.width = options.height = 64;
        options.frames = 5;
        return renderHeadless(device(), scene, orbitView(camera, 1.0f, scene.worldBounds().radius(), 64),
                              options)
            .stats;
    }
    void TearDown() override {
        crowdModel_.reset();
        model_ = Model{};
        test::VulkanTest::TearDown();
    }
    Model model_;
    std::unique_ptr<CrowdModel> crowdModel_;
};

// Brute force, compute technique: 48 standard monsters skin 380 k vertices a frame, pose 48 x 80
// joints. The skin pass must take the most of the two, by far.
TEST_F(PassTiming, TheSkinPassCarriesItsOwnTime) {
    const FrameStats stats = run(Technique::Compute, 48);
    const PassTimes median = stats.medianGpu();
    EXPECT_GT(median.skinMs, 4.0 * median.poseMs)
        << "skin " << median.skinMs << " ms, pose " << median.poseMs;
    EXPECT_GT(median.skinMs, 4.0 * median.sampleMs)
        << "skin " << median.skinMs << " ms, sample " << median.sampleMs;
}

TEST_F(PassTiming, InvocationsAreTheDispatchedWorkgroups) {
    if (!device().pipelineStatistics()) GTEST_SKIP() << "the device has no pipeline-statistics queries";
    const uint32_t count = 48;
    const FrameStats stats = run(Technique::Compute, count);
    const std::optional<PassInvocations> found = stats.medianInvocations();
    ASSERT_TRUE(found);
    const CrowdAsset& asset = crowdModel_->asset();
    EXPECT_EQ(found->sample.compute, workgroupsOf(uint64_t(count) * asset.tables.rest.size()));
    EXPECT_EQ(found->pose.compute, workgroupsOf(uint64_t(count) * asset.tables.joints.size()));
    uint64_t skinned = 0, unique = 0, indices = 0;
    for (const gpu::CullMesh& mesh : asset.cullMeshes) {
        const gpu::CullLevel& level = asset.cullLevels[mesh.firstLevel];
        skinned += workgroupsOf(uint64_t(count) * level.vertexCount);
        unique += uint64_t(count) * level.vertexCount;
        for (uint32_t s = 0; s < level.submeshCount; ++s)
            indices += uint64_t(count) * asset.levelSubmeshes[level.firstSubmesh + s].indexCount;
    }
    EXPECT_EQ(found->skin.compute, skinned);
    // Every drawn vertex is shaded at least once and at most once per index (a vertex cache may
    // reuse it); nothing else runs a vertex shader but the ground's six.
    EXPECT_GE(found->draw.vertex, unique);
    EXPECT_LE(found->draw.vertex, indices + 6);
    EXPECT_GT(found->draw.fragment, 0u);
    EXPECT_EQ(found->draw.compute, 0u);
    EXPECT_EQ(found->sample.vertex + found->pose.vertex + found->skin.vertex, 0u);

    const FrameStats vertex = run(Technique::Vertex, count);
    ASSERT_TRUE(vertex.medianInvocations());
    EXPECT_EQ(vertex.medianInvocations()->skin.compute, 0u) << "the vertex technique has no skin pass";
}
