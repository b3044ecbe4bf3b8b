// A crowd of over a thousand monsters: validation clean, many distinct monsters, moving; the
// GPU's culling and level choice against the CPU reference; LOD and culling against brute force;
// a fixed number of commands whatever the crowd's size.
#include <gtest/gtest.h>

#include "anim/cull_reference.h"
#include "anim/reference.h"
#include "monster.h"
#include "crowd/layout.h"
#include "render/headless.h"
#include "crowd/view.h"
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
        crowdModel_ = std::make_unique<CrowdModel>(device(), *model_);
    }
    void TearDown() override {
        crowdModel_.reset();
        model_.reset();
        allocator_.reset();
        VulkanTest::TearDown();
    }

    CrowdSettings settings(Technique technique = Technique::Compute, bool cull = true, bool lod = true) const {
        CrowdSettings s;
        s.technique = technique;
        s.cull = cull;
        s.lod = lod;
        s.slots = kFramesInFlight;
        s.colorFormat = kOffscreenColorFormat;
        return s;
    }

    HeadlessResult render(CrowdScene& scene, float time, bool street = false) {
        float aspect = float(kWidth) / float(kHeight);
        OrbitCamera camera = street ? streetCamera(scene.worldBounds(), scene.groundHeight(), scene.modelHeight() * 1.2f)
                                    : frameBounds(scene.worldBounds(), aspect, 0.6f, 0.9f);
        HeadlessOptions options;
        options.width = kWidth;
        options.height = kHeight;
        options.frames = 2;
        options.startTime = time;
        return renderHeadless(device(), scene, orbitView(camera, aspect, scene.worldBounds().radius(), kHeight), options);
    }

    HeadlessResult render(uint32_t count, const CrowdSettings& s, float time, bool street = false) {
        const CrowdModel* models[] = {crowdModel_.get()};
        CrowdScene scene(device(), models, count, s);
        return render(scene, time, street);
    }

    static constexpr uint32_t kWidth = 640, kHeight = 480;
    std::unique_ptr<GpuMeshAllocator> allocator_;
    std::optional<Model> model_;
    std::unique_ptr<CrowdModel> crowdModel_;
};

TEST_F(CrowdTest, ThousandInstancesShowManyMonstersThatMove) {
    HeadlessResult a = render(1024, settings(), 0.0f);
    HeadlessResult b = render(1024, settings(), 0.5f);
    size_t monsters = test::blobs(a.image, 6);
    EXPECT_GT(monsters, 300u) << "distinct monsters visible";
    // A 1-pixel error lets legs about a pixel thick thin out far away (docs/PERFORMANCE.md).
    EXPECT_GT(test::coverage(a.image).pixels, size_t(kWidth) * kHeight / 40);
    EXPECT_GT(test::differingFraction(a.image, b.image), 0.01) << "frames at two times should differ";
    ASSERT_EQ(a.stats.gpu.size(), 2u);
    EXPECT_EQ(a.stats.counts.back().visible, 1024u) << "the framed overview sees every instance";
    EXPECT_EQ(a.stats.counts.back().dropped, 0u);
}

TEST_F(CrowdTest, VertexShaderSkinningMatchesComputeSkinning) {
    for (bool lod : {false, true}) {
        HeadlessResult compute = render(200, settings(Technique::Compute, true, lod), 0.7f);
        HeadlessResult vertex = render(200, settings(Technique::Vertex, true, lod), 0.7f);
        EXPECT_LT(test::differingFraction(compute.image, vertex.image, 4), 0.002) << "lod " << lod;
        EXPECT_EQ(vertex.stats.gpu.size(), 2u);
    }
}

// Brute force through a pool that holds a quarter of the crowd (skin a chunk, draw it, the
// next): still every instance in full, and the same image to the bit as skinning the whole crowd
// first; its pass times add up over the chunks.
TEST_F(CrowdTest, BruteForceInChunksDrawsWhatItDrawsWhole) {
    CrowdSettings whole = settings(Technique::Compute, false, false);
    CrowdSettings chunks = whole;
    chunks.vertexBudget = uint64_t(crowdModel_->asset().vertexStride) * 60;
    const CrowdModel* models[] = {crowdModel_.get()};
    CrowdScene chunked(device(), models, 200, chunks);
    HeadlessResult a = render(200, whole, 0.3f);
    HeadlessResult b = render(chunked, 0.3f);
    EXPECT_EQ(test::differingFraction(a.image, b.image, 0), 0.0);
    EXPECT_GT(test::coverage(b.image).pixels, size_t(kWidth) * kHeight / 40);
    EXPECT_LT(chunked.slotBytes(), CrowdScene(device(), models, 200, whole).slotBytes() / 2);
    const FrameCounts& counts = b.stats.counts.back();
    EXPECT_EQ(counts.visible, 200u);
    EXPECT_EQ(counts.triangles, a.stats.counts.back().triangles);
    EXPECT_EQ(counts.skinnedVertices, uint64_t(200) * crowdModel_->asset().vertexStride);
    EXPECT_GT(b.stats.gpu.back().skinMs, 0.0);
    EXPECT_GT(b.stats.gpu.back().drawMs, 0.0);
    EXPECT_THROW(chunked.readSkinned(0, 0, 0, false), std::logic_error);
}

// Culling and LOD against brute force on the same frame: the figure docs/PERFORMANCE.md reports
// (pixels differing by more than 10% of full scale), at an error small enough to meet 1%.
TEST_F(CrowdTest, LodAndCullingDrawWhatBruteForceDraws) {
    HeadlessResult brute = render(400, settings(Technique::Compute, false, false), 0.4f);
    CrowdSettings fine = settings();
    fine.lodErrorPixels = 0.25f;
    HeadlessResult lod = render(400, fine, 0.4f);
    EXPECT_LT(test::differingFraction(brute.image, lod.image, 25), 0.01);
    EXPECT_LT(lod.stats.counts.back().triangles, brute.stats.counts.back().triangles / 2);
    // With every level and shared pose turned off by a zero error, the image is brute force's.
    CrowdSettings exact = settings();
    exact.lodErrorPixels = 0.0f;
    HeadlessResult same = render(400, exact, 0.4f);
    EXPECT_EQ(test::differingFraction(brute.image, same.image, 0), 0.0);
}

// The GPU's visible set and levels per (mesh, level) list equal the CPU reference's, from a
// street view that culls much of the crowd and spans every distance.
TEST_F(CrowdTest, CullingAndLevelsMatchTheCpuReference) {
    const CrowdModel* models[] = {crowdModel_.get()};
    const uint32_t count = 900;
    std::vector<gpu::InstanceRecord> instances = crowdLayout(crowdModel_->asset(), count);
    CrowdScene scene(device(), models, {instances}, settings());
    const float time = 0.3f;
    HeadlessResult result = render(scene, time, true);
    ASSERT_FALSE(result.stats.counts.empty());
    const FrameCounts& gpuCounts = result.stats.counts.back();
    const float lastTime = time + 1.0f / 60.0f; // the second of two frames

    float aspect = float(kWidth) / float(kHeight);
    ViewCamera view = orbitView(streetCamera(scene.worldBounds(), scene.groundHeight(), scene.modelHeight() * 1.2f), aspect,
                                scene.worldBounds().radius(), kHeight);
    CullModelInfo info;
    info.sphere = crowdModel_->asset().worldSphere;
    for (const Clip& clip : model_->clips) info.clipDuration.push_back(clip.duration);
    info.clipSpeed = crowdModel_->asset().motion.clipSpeed;
    for (const LodChain& chain : crowdModel_->asset().lods) {
        info.levelErrors.emplace_back();
        for (const LodLevel& level : chain.levels) info.levelErrors.back().push_back(level.error);
    }
    info.bucketsPerClip = crowdModel_->asset().bucketsPerClip;
    CullCamera camera{frustumPlanes(view.viewProjection), view.eye, view.pixelsPerUnit};
    CullSettings cull;

    std::vector<uint32_t> expected(crowdModel_->asset().listCount(), 0);
    uint32_t visible = 0, shared = 0;
    for (const gpu::InstanceRecord& r : instances) {
        Playback playback{int32_t(r.clip), double(r.phase), double(r.speed), r.loop != 0};
        CullInstance instance{glm::vec3(r.placement), r.placement.w, playback.clip,
                              clipTime(model_->clips[r.clip], playback, lastTime)};
        CullDecision d = cullInstance(info, instance, camera, cull);
        if (!d.visible) continue;
        ++visible;
        shared += d.sharedPose ? 1 : 0;
        for (size_t m = 0; m < d.levels.size(); ++m) ++expected[crowdModel_->asset().cullMeshes[m].firstLevel + d.levels[m]];
    }
    EXPECT_GT(visible, count / 10) << "the street view sees part of the crowd";
    EXPECT_LT(visible, count) << "and culls the rest";
    // Float against double at a plane or a level boundary may disagree on a rare instance.
    EXPECT_NEAR(double(gpuCounts.visible), double(visible), 2.0);
    EXPECT_NEAR(double(gpuCounts.sharedPoses), double(shared), 2.0);
    ASSERT_EQ(gpuCounts.listCounts.size(), 1u);
    uint32_t levelsUsed = 0;
    for (size_t l = 0; l < expected.size(); ++l) {
        EXPECT_NEAR(double(gpuCounts.listCounts[0][l]), double(expected[l]), 2.0) << "list " << l;
        levelsUsed += expected[l] ? 1 : 0;
    }
    EXPECT_GE(levelsUsed, 3u) << "near and far instances at different levels";
    // Only what is drawn is animated: every visible instance has exactly one pose.
    EXPECT_EQ(gpuCounts.ownPoses + gpuCounts.sharedPoses, gpuCounts.visible);
}

TEST_F(CrowdTest, RecordedCommandsDoNotDependOnTheCrowdSize) {
    const CrowdModel* models[] = {crowdModel_.get()};
    uint32_t commands[2] = {};
    uint32_t counts[2] = {16, 4096};
    for (int i = 0; i < 2; ++i) {
        CrowdScene scene(device(), models, counts[i], settings());
        render(scene, 0.0f);
        commands[i] = scene.lastCommandCount();
    }
    EXPECT_GT(commands[0], 10u);
    EXPECT_EQ(commands[0], commands[1]);
}

// Textures add no per-instance work either: the monster in its generated skin records the same
// commands for 16 and 4,096 instances, and as many as with sampling off (the texture is bound
// once, with its material's draw).
TEST_F(CrowdTest, TexturedCrowdRecordsTheSameCommandsAtAnySize) {
    Model skinned = buildMonster(*allocator_, MonsterParams{4, 8, 2});
    skinMonster(skinned, monsterSkin(64));
    CrowdModel crowdModel(device(), skinned);
    const CrowdModel* models[] = {&crowdModel};
    uint32_t commands[3] = {};
    const uint32_t counts[3] = {16, 4096, 4096};
    for (int i = 0; i < 3; ++i) {
        CrowdSettings s = settings();
        s.textures = i < 2;
        CrowdScene scene(device(), models, counts[i], s);
        EXPECT_EQ(scene.materials().textureCount(), i < 2 ? 3u : 2u) << "white, checker and the one skin";
        render(scene, 0.0f);
        commands[i] = scene.lastCommandCount();
    }
    EXPECT_EQ(commands[0], commands[1]);
    EXPECT_EQ(commands[1], commands[2]);
}
