// A crowd of over a thousand monsters: validation clean, many distinct monsters, moving, and the
// same picture whether split into chunks or skinned in the vertex shader.
#include <gtest/gtest.h>

#include "monster.h"
#include "render/headless.h"
#include "render/view.h"
#include "support/image.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

class CrowdTest : public test::VulkanTest {
  protected:
    void SetUp() override {
        VulkanTest::SetUp();
        allocator_ = std::make_unique<GpuMeshAllocator>(device());
        // A smaller monster keeps a 1,024-instance crowd quick on a CPU rasterizer.
        model_.emplace(buildMonster(*allocator_, MonsterParams{4, 8, 2}));
    }
    void TearDown() override {
        model_.reset();
        allocator_.reset();
        VulkanTest::TearDown();
    }

    HeadlessResult render(uint32_t count, Technique technique, float time, uint64_t maxChunkBytes = 0,
                          uint32_t* chunks = nullptr) {
        CrowdRenderer crowd(device(), *model_, gridInstances(*model_, count), technique, kFramesInFlight,
                            kOffscreenColorFormat, maxChunkBytes);
        if (chunks) *chunks = crowd.chunkCount();
        float aspect = float(kWidth) / float(kHeight);
        OrbitCamera camera = frameBounds(crowd.worldBounds(), aspect, 0.6f, 0.9f);
        HeadlessOptions options;
        options.width = kWidth;
        options.height = kHeight;
        options.frames = 2;
        options.startTime = time;
        return renderHeadless(device(), crowd, camera.viewProjection(aspect, crowd.worldBounds().radius()), options);
    }

    static constexpr uint32_t kWidth = 640, kHeight = 480;
    std::unique_ptr<GpuMeshAllocator> allocator_;
    std::optional<Model> model_;
};

TEST_F(CrowdTest, ThousandInstancesShowManyMonstersThatMove) {
    HeadlessResult a = render(1024, Technique::Compute, 0.0f);
    HeadlessResult b = render(1024, Technique::Compute, 0.5f);
    size_t monsters = test::blobs(a.image, 6);
    EXPECT_GT(monsters, 300u) << "distinct monsters visible";
    EXPECT_GT(test::coverage(a.image).pixels, size_t(kWidth) * kHeight / 20);
    EXPECT_GT(test::differingFraction(a.image, b.image), 0.01) << "frames at two times should differ";
    EXPECT_EQ(a.stats.gpu.size(), 2u);
}

TEST_F(CrowdTest, ChunkedCrowdDrawsTheSameImage) {
    uint32_t chunks = 0;
    HeadlessResult whole = render(300, Technique::Compute, 0.3f);
    HeadlessResult split = render(300, Technique::Compute, 0.3f, 64 * 1024, &chunks);
    EXPECT_GT(chunks, 3u);
    EXPECT_LT(test::differingFraction(whole.image, split.image, 2), 1e-4);
}

TEST_F(CrowdTest, VertexShaderSkinningMatchesComputeSkinning) {
    HeadlessResult compute = render(200, Technique::Compute, 0.7f);
    HeadlessResult vertex = render(200, Technique::Vertex, 0.7f);
    EXPECT_LT(test::differingFraction(compute.image, vertex.image, 4), 0.002);
    EXPECT_EQ(vertex.stats.gpu.size(), 2u);
}
