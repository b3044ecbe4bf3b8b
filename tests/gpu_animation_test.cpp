// The GPU passes against the CPU reference: sampled locals, palette and skinned vertices for
// random instances, clips and times, on the monster and on hand-made skeletons.
#include <random>

#include <gtest/gtest.h>

#include "anim/reference.h"
#include "anim/tables.h"
#include "monster.h"
#include "render/crowd_scene.h"
#include "render/headless.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

class GpuAnimationTest : public test::VulkanTest {
  protected:
    // Runs the passes for `instances` at `time` and compares every result with the reference.
    void compare(Model& model, const std::vector<gpu::InstanceRecord>& instances, float time) {
        uploadMeshes(device(), model);
        CrowdModel crowdModel(device(), model, {.crowd = false});
        const CrowdModel* crowdModels[] = {&crowdModel};
        CrowdScene crowd(device(), crowdModels, {instances}, singleInstanceSettings(1));
        device().immediate([&](VkCommandBuffer cmd) { crowd.recordAnimation(cmd, 0, time, ViewCamera{}); });
        AnimationTables tables = buildAnimationTables(model);
        std::vector<gpu::Affine> palette = crowd.readPalette(0, 0);
        const double radius = std::max(double(bindPoseBounds(model).radius()), 1e-6);
        const size_t nodes = model.nodes.size(), joints = tables.joints.size();
        std::vector<std::vector<glm::vec3>> positions, normals;
        for (uint32_t m = 0; m < model.meshes.size(); ++m) {
            positions.push_back(crowd.readSkinned(0, 0, m, false));
            normals.push_back(crowd.readSkinned(0, 0, m, true));
        }
        double worstPalette = 0, worstPosition = 0, worstNormal = 0;
        for (size_t i = 0; i < instances.size(); ++i) {
            const gpu::InstanceRecord& r = instances[i];
            Playback playback{r.clip == HORDE_NONE ? -1 : int32_t(r.clip), double(r.phase), double(r.speed), r.loop != 0};
            const Clip* clip = playback.clip >= 0 ? &model.clips[playback.clip] : nullptr;
            std::vector<glm::dmat4> locals(nodes), models(nodes), reference;
            sampleLocals(model, clip, clip ? clipTime(*clip, playback, time) : 0.0, locals);
            localToModel(model, locals, models);
            for (size_t m = 0; m < model.meshes.size(); ++m) {
                const Mesh& mesh = model.meshes[m];
                meshPalette(model, mesh, models, reference);
                for (size_t j = 0; j < reference.size(); ++j) {
                    glm::dmat4 gpuMatrix = fromAffine(palette[i * joints + tables.meshJointBase[m] + j]);
                    for (int c = 0; c < 4; ++c)
                        for (int row = 0; row < 3; ++row)
                            worstPalette = std::max(worstPalette, std::abs(gpuMatrix[c][row] - reference[j][c][row]) /
                                                                      (c == 3 ? radius : 1.0));
                }
                std::vector<glm::dvec3> p(mesh.vertexCount()), n(mesh.vertexCount());
                skinMesh(mesh, reference, p, n);
                for (size_t v = 0; v < p.size(); ++v) {
                    worstPosition = std::max(worstPosition, glm::length(glm::dvec3(positions[m][i * p.size() + v]) - p[v]) / radius);
                    worstNormal = std::max(worstNormal, glm::length(glm::dvec3(normals[m][i * p.size() + v]) - n[v]));
                }
            }
        }
        EXPECT_LE(worstPalette, 1e-4) << "palette at time " << time;
        EXPECT_LE(worstPosition, 1e-4) << "skinned positions at time " << time;
        EXPECT_LE(worstNormal, 1e-3) << "skinned normals at time " << time;
    }

    std::vector<gpu::InstanceRecord> randomInstances(const Model& model, uint32_t count, uint32_t seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> unit(0.0f, 1.0f);
        std::vector<gpu::InstanceRecord> out(count);
        for (uint32_t i = 0; i < count; ++i) {
            gpu::InstanceRecord& r = out[i];
            r.clip = i % 7 == 6 || model.clips.empty() ? HORDE_NONE : uint32_t(rng() % model.clips.size());
            float duration = r.clip == HORDE_NONE ? 1.0f : model.clips[r.clip].duration;
            r.phase = unit(rng) * duration;
            r.speed = 0.5f + unit(rng);
            r.loop = i % 5 != 4;
            r.placement = glm::vec4(float(i), 0, 0, 0);
            r.tint = glm::vec4(1);
        }
        // Exact clip boundaries: the start, the end, a loop past the end, and a loop at exactly its
        // end and twice its end (inclusive: the last key, not the first).
        if (count >= 5 && !model.clips.empty()) {
            out[0] = {0, 0.0f, 1.0f, 1, glm::vec4(0), glm::vec4(1)};
            out[1] = {0, model.clips[0].duration, 0.0f, 0, glm::vec4(0), glm::vec4(1)};
            out[2] = {0, model.clips[0].duration * 3.25f, 1.0f, 1, glm::vec4(0), glm::vec4(1)};
            out[3] = {0, model.clips[0].duration, 0.0f, 1, glm::vec4(0), glm::vec4(1)};
            out[4] = {0, model.clips[0].duration * 2.0f, 0.0f, 1, glm::vec4(0), glm::vec4(1)};
        }
        return out;
    }
};

TEST_F(GpuAnimationTest, MonsterMatchesTheReference) {
    GpuMeshAllocator allocator(device());
    Model model = buildMonster(allocator);
    std::vector<gpu::InstanceRecord> instances = randomInstances(model, 48, 7);
    for (float time : {0.0f, 0.37171f, 1.0f, 1.6f, 5.3f}) compare(model, instances, time);
}

TEST_F(GpuAnimationTest, HandMadeSkeletonWithRestRotationsScalesAndEveryInterpolation) {
    GpuMeshAllocator allocator(device());
    Model model;
    model.nodes = {Node{"root", -1, glm::vec3(0.5f, -1, 2), glm::angleAxis(0.7f, glm::normalize(glm::vec3(1, 2, 3))), glm::vec3(1.5f)},
                   Node{"arm", 0, glm::vec3(0, 2, 0), glm::angleAxis(-1.1f, glm::vec3(0, 0, 1)), glm::vec3(1, 2, 0.5f)},
                   Node{"hand", 1, glm::vec3(0.3f, 1, 0), glm::angleAxis(2.0f, glm::normalize(glm::vec3(0, 1, 1))), glm::vec3(0.8f)},
                   Node{"prop", 2, glm::vec3(0, 0.5f, 0.1f)}};
    // Inverse binds from the rest pose, so the bind pose reproduces the file's vertices.
    std::vector<glm::dmat4> locals(4), models(4);
    sampleLocals(model, nullptr, 0.0, locals);
    localToModel(model, locals, models);
    model.skins.push_back(Skin{{0, 1, 2}, {glm::mat4(glm::inverse(models[0])), glm::mat4(glm::inverse(models[1])),
                                           glm::mat4(glm::inverse(models[2]))}});
    Mesh skinned;
    skinned.name = "skinned";
    skinned.skin = 0;
    skinned.storage = allocator.allocate({5, 3, false, 0, true, false}, "skinned");
    Mesh rigid;
    rigid.name = "prop";
    rigid.node = 3;
    rigid.storage = allocator.allocate({3, 3, false, 0, false, true}, "prop");
    for (uint32_t v = 0; v < 5; ++v) {
        skinned.arrays().positions[v] = glm::vec3(float(v), float(v * v) * 0.3f, 1.0f - float(v));
        skinned.arrays().normals[v] = glm::normalize(glm::vec3(1, float(v), 2));
        skinned.arrays().joints[v] = glm::u16vec4(v % 3, (v + 1) % 3, (v + 2) % 3, 0);
        skinned.arrays().weights[v] = v == 4 ? glm::vec4(1, 0, 0, 0) : glm::vec4(0.5f, 0.3f, 0.2f, 0);
    }
    for (uint32_t i = 0; i < 3; ++i) skinned.arrays().indices32[i] = i, rigid.arrays().indices16[i] = uint16_t(i);
    for (uint32_t v = 0; v < 3; ++v) {
        rigid.arrays().positions[v] = glm::vec3(v == 1, v == 2, 0.25f);
        rigid.arrays().normals[v] = glm::vec3(0, 0, 1);
    }
    skinned.submeshes.push_back({"a", 0, 3});
    rigid.submeshes.push_back({"b", 0, 3});
    model.meshes.push_back(std::move(skinned));
    model.meshes.push_back(std::move(rigid));

    Clip clip;
    clip.name = "mixed";
    clip.duration = 2.0f;
    clip.end = ClipEnd::WrapToFirst;
    clip.channels.push_back(Channel{1, ChannelPath::Rotation, Interpolation::Linear, {0.0f, 0.3f, 1.7f},
                                    {glm::vec4(0, 0, 0, 1), glm::vec4(0, 0.6f, 0, 0.8f), glm::vec4(-0.6f, 0, 0, -0.8f)}});
    clip.channels.push_back(Channel{2, ChannelPath::Scale, Interpolation::Step, {0.2f, 0.9f}, {glm::vec4(2, 1, 1, 0), glm::vec4(1, 3, 1, 0)}});
    clip.channels.push_back(Channel{0, ChannelPath::Translation, Interpolation::CubicSpline, {0.0f, 1.0f, 1.5f},
                                    {glm::vec4(0), glm::vec4(0), glm::vec4(1, 0, 0, 0), glm::vec4(0, 1, 0, 0),
                                     glm::vec4(2, 1, 0, 0), glm::vec4(0, 0, 1, 0), glm::vec4(1, 1, 1, 0), glm::vec4(0, 0, 3, 0),
                                     glm::vec4(0)}});
    model.clips.push_back(clip);
    Clip nlerp = clip;
    nlerp.name = "nlerp";
    nlerp.rotationBlend = RotationBlend::Nlerp;
    nlerp.end = ClipEnd::Hold;
    model.clips.push_back(nlerp);
    finalizeMeshes(model);
    for (Mesh& m : model.meshes) m.storage->commit();

    std::vector<gpu::InstanceRecord> instances = randomInstances(model, 40, 3);
    for (float time : {0.0f, 0.25f, 0.95f, 1.85f, 2.0f, 7.77f}) compare(model, instances, time);
}

TEST_F(GpuAnimationTest, UniformKeysAreDetected) {
    EXPECT_FLOAT_EQ(uniformKeyStep({0.0f, 1.0f / 30, 2.0f / 30, 3.0f / 30}), 1.0f / 30);
    EXPECT_EQ(uniformKeyStep({0.0f, 0.1f, 0.3f}), 0.0f);
    EXPECT_EQ(uniformKeyStep({0.0f, 1.0f}), 0.0f); // two keys: a plain search is as fast
}
