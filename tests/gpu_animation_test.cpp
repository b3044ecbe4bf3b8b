// The GPU passes against the CPU reference: sampled locals, palette and skinned vertices for
// random instances, clips and times, with every skinning (linear and dual quaternions, single
// and half precision, four and eight influences), on the monster, on hand-made skeletons and on
// the real glTF samples when they are present ($HORDE_REAL_DIR, else ~/.cache/horde-real).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include <glm/gtc/packing.hpp>

#include "anim/reference.h"
#include "anim/tables.h"
#include "loader.h"
#include "model/validate.h"
#include "monster.h"
#include "registry.h"
#include "support/morph_triangle.h"
#include "render/crowd_scene.h"
#include "render/headless.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

namespace {

// What each precision is held to against the double-precision reference: palette entries
// (matrix or quaternion components; translations over the model's size), positions over the
// model's size (its bind pose's radius), normals as unit vectors. Half precision rounds each
// palette value and each pooled coordinate to 11 significant bits (a relative 2^-12), which on
// models whose vertices lie up to a few radii from their origin costs up to about 1e-3 of the
// size; its stated bound keeps a margin of three over the worst measured (docs/PERFORMANCE.md,
// "Skinning techniques").
struct Tolerance {
    double palette, position, normal;
};
constexpr Tolerance kSingle{1e-4, 1e-4, 1e-3};
constexpr Tolerance kHalf{5e-3, 5e-3, 5e-3};

Tolerance toleranceOf(const SkinOptions& skin) {
    return skin.precision == Precision::Fp16 ? kHalf : kSingle;
}

std::vector<SkinOptions> everySkinning() {
    std::vector<SkinOptions> out;
    for (Skinning skinning : {Skinning::Lbs, Skinning::Dqs})
        for (Precision precision : {Precision::Fp32, Precision::Fp16})
            for (uint32_t influences : {4u, 8u})
                out.push_back({skinning, precision, influences});
    return out;
}

glm::vec4 halves(uint32_t a, uint32_t b) {
    return glm::vec4(glm::unpackHalf2x16(a), glm::unpackHalf2x16(b));
}

// One palette entry as the pose pass stored it (skinning.glsl, storePaletteEntry).
glm::dmat4 affineEntry(const std::vector<uint32_t>& words, size_t entry, bool half) {
    glm::vec4 rows[3];
    const uint32_t* w = words.data() + entry * (half ? HORDE_PALETTE_WORDS_LBS_HALF : HORDE_PALETTE_WORDS_LBS);
    for (int r = 0; r < 3; ++r)
        rows[r] = half ? halves(w[2 * r], w[2 * r + 1]) : glm::vec4(glm::uintBitsToFloat(w[4 * r]), glm::uintBitsToFloat(w[4 * r + 1]),
                                                                   glm::uintBitsToFloat(w[4 * r + 2]), glm::uintBitsToFloat(w[4 * r + 3]));
    return fromAffine(gpu::Affine{rows[0], rows[1], rows[2]});
}

DualQuaternionJoint dualQuaternionEntry(const std::vector<uint32_t>& words, size_t entry, bool half) {
    const uint32_t* w = words.data() + entry * (half ? HORDE_PALETTE_WORDS_DQS_HALF : HORDE_PALETTE_WORDS_DQS);
    glm::vec4 v[4];
    if (half) {
        v[0] = halves(w[0], w[1]);
        v[1] = halves(w[2], w[3]);
        v[2] = halves(w[4], w[5]);
        v[3] = glm::vec4(glm::unpackHalf2x16(w[6]), 0.0f, 0.0f);
    } else {
        for (int i = 0; i < 4; ++i)
            v[i] = glm::vec4(glm::uintBitsToFloat(w[4 * i]), glm::uintBitsToFloat(w[4 * i + 1]),
                             glm::uintBitsToFloat(w[4 * i + 2]), glm::uintBitsToFloat(w[4 * i + 3]));
    }
    DualQuaternionJoint j;
    j.real = glm::dquat(v[0].w, v[0].x, v[0].y, v[0].z);
    j.dual = glm::dquat(v[1].w, v[1].x, v[1].y, v[1].z);
    j.stretch = glm::dmat3(glm::dvec3(v[2].x, v[2].w, v[3].x), glm::dvec3(v[2].w, v[2].y, v[3].y),
                           glm::dvec3(v[3].x, v[3].y, v[2].z));
    return j;
}

// The largest difference of two DQS entries: q and -q are one rotation, so the sign that brings
// the real parts closest is taken for both parts; the dual part (half the translation, turned)
// over the model's size.
double entryError(const DualQuaternionJoint& gpu, const DualQuaternionJoint& cpu, double size) {
    const double sign = glm::dot(gpu.real, cpu.real) < 0.0 ? -1.0 : 1.0;
    double worst = 0.0;
    for (int i = 0; i < 4; ++i) {
        worst = std::max(worst, std::abs(sign * gpu.real[i] - cpu.real[i]));
        worst = std::max(worst, std::abs(sign * gpu.dual[i] - cpu.dual[i]) / size);
    }
    for (int c = 0; c < 3; ++c) {
        const double scale = std::max(1.0, glm::length(cpu.stretch[c])); // as a matrix's columns, below
        for (int r = 0; r < 3; ++r) worst = std::max(worst, std::abs(gpu.stretch[c][r] - cpu.stretch[c][r]) / scale);
    }
    return worst;
}

// A matrix entry's error over its column's size where that passes one: a joint scaled by a
// hundred (BrainStem's) rounds its entries a hundred times coarser, and moves vertices no worse.
double entryError(const glm::dmat4& gpu, const glm::dmat4& cpu, double size) {
    double worst = 0.0;
    for (int c = 0; c < 4; ++c) {
        const double scale = c == 3 ? size : std::max(1.0, glm::length(glm::dvec3(cpu[c])));
        for (int row = 0; row < 3; ++row) worst = std::max(worst, std::abs(gpu[c][row] - cpu[c][row]) / scale);
    }
    return worst;
}

struct Errors {
    double palette = 0, position = 0, normal = 0;
};

std::filesystem::path realDir() {
    if (const char* dir = std::getenv("HORDE_REAL_DIR")) return dir;
    const char* home = std::getenv("HOME");
    return home ? std::filesystem::path(home) / ".cache/horde-real" : std::filesystem::path();
}

} // namespace

class GpuAnimationTest : public test::VulkanTest {
  protected:
    // Runs the passes for `instances` at each of `times` with `skin` and compares every result
    // with the reference; the worst of each kind, which the caller holds to its tolerance.
    Errors compare(Model& model, const std::vector<gpu::InstanceRecord>& instances, std::span<const float> times,
                   const SkinOptions& skin) {
        uploadMeshes(device(), model);
        CrowdModel crowdModel(device(), model, {.crowd = false});
        const CrowdModel* crowdModels[] = {&crowdModel};
        CrowdSettings settings = singleInstanceSettings();
        settings.skin = skin;
        CrowdScene crowd(device(), crowdModels, {instances}, settings, {.slots = 1});
        AnimationTables tables = buildAnimationTables(model);
        const double radius = std::max(double(bindPoseBounds(model).radius()), 1e-6);
        const size_t nodes = model.nodes.size(), joints = tables.joints.size();
        const bool half = skin.precision == Precision::Fp16;
        Errors worst;
        for (float time : times) {
            device().immediate([&](VkCommandBuffer cmd) { crowd.recordAnimation(cmd, 0, time, ViewCamera{}); });
            const std::vector<uint32_t> palette = crowd.readPalette(0, 0);
            std::vector<std::vector<glm::vec3>> positions, normals;
            for (uint32_t m = 0; m < model.meshes.size(); ++m) {
                positions.push_back(crowd.readSkinned(0, 0, m, false));
                normals.push_back(crowd.readSkinned(0, 0, m, true));
            }
            for (size_t i = 0; i < instances.size(); ++i) {
                const gpu::InstanceRecord& r = instances[i];
                Playback playback{r.clip == HORDE_NONE ? -1 : int32_t(r.clip), double(r.phase), double(r.speed),
                                  r.loop != 0};
                const Clip* clip = playback.clip >= 0 ? &model.clips[playback.clip] : nullptr;
                std::vector<glm::dmat4> locals(nodes), models(nodes), reference;
                const double t = clip ? clipTime(*clip, playback, time) : 0.0;
                const double weight = r.fromClip == HORDE_NONE || !(r.fadeLength > 0.0f)
                                          ? 1.0
                                          : std::clamp((double(time) - r.fadeStart) / r.fadeLength, 0.0, 1.0);
                // In a fade, the clip it fades from, blended toward its own by the fade's weight.
                const Clip* fromClip = weight < 1.0 ? &model.clips[r.fromClip] : nullptr;
                const Blend blend{playback.clip, t, weight};
                double fromTime = 0.0;
                if (fromClip) {
                    const Playback from{int32_t(r.fromClip), double(r.fromPhase), double(r.fromSpeed), r.loop != 0};
                    fromTime = clipTime(*fromClip, from, time);
                    sampleBlendedLocals(model, fromClip, fromTime, blend, locals);
                } else {
                    sampleLocals(model, clip, t, locals);
                }
                localToModel(model, locals, models);
                for (size_t m = 0; m < model.meshes.size(); ++m) {
                    const Mesh& mesh = model.meshes[m];
                    meshPalette(model, mesh, models, reference);
                    std::vector<DualQuaternionJoint> dual;
                    dualQuaternionPalette(reference, dual);
                    for (size_t j = 0; j < reference.size(); ++j) {
                        const size_t entry = i * joints + tables.meshJointBase[m] + j;
                        worst.palette = std::max(
                            worst.palette, skin.skinning == Skinning::Dqs
                                               ? entryError(dualQuaternionEntry(palette, entry, half), dual[j], radius)
                                               : entryError(affineEntry(palette, entry, half), reference[j], radius));
                    }
                    std::vector<glm::dvec3> p(mesh.vertexCount()), n(mesh.vertexCount());
                    const std::vector<double> morphWeights = fromClip
                                                                 ? sampleMorphWeights(model, mesh, fromClip, fromTime, &blend)
                                                                 : sampleMorphWeights(model, mesh, clip, t);
                    skinMeshWith(skin, mesh, reference, p, n, morphWeights);
                    for (size_t v = 0; v < p.size(); ++v) {
                        worst.position = std::max(
                            worst.position, glm::length(glm::dvec3(positions[m][i * p.size() + v]) - p[v]) / radius);
                        worst.normal = std::max(worst.normal, glm::length(glm::dvec3(normals[m][i * p.size() + v]) - n[v]));
                    }
                }
            }
        }
        return worst;
    }

    // Every skinning on `model`, each held to its precision's tolerance; the errors are printed
    // (docs/PERFORMANCE.md states them).
    void compareEverySkinning(Model& model, const std::string& name, const std::vector<gpu::InstanceRecord>& instances,
                              std::span<const float> times) {
        for (const SkinOptions& skin : everySkinning()) {
            const Errors e = compare(model, instances, times, skin);
            const Tolerance t = toleranceOf(skin);
            std::printf("%s %s: palette %.2g, positions %.2g of the size, normals %.2g\n", name.c_str(),
                        skinName(skin).c_str(), e.palette, e.position, e.normal);
            EXPECT_LE(e.palette, t.palette) << name << " " << skinName(skin) << ": palette";
            EXPECT_LE(e.position, t.position) << name << " " << skinName(skin) << ": skinned positions";
            EXPECT_LE(e.normal, t.normal) << name << " " << skinName(skin) << ": skinned normals";
        }
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

// Cross-fades: every instance fades from one clip into another (or into the bind pose), at
// weights across the fade, each joint blended as the reference blends it.
TEST_F(GpuAnimationTest, CrossFadesMatchTheReference) {
    GpuMeshAllocator allocator(device());
    Model model = buildMonster(allocator);
    std::vector<gpu::InstanceRecord> instances = randomInstances(model, 32, 11);
    for (size_t i = 0; i < instances.size(); ++i) {
        gpu::InstanceRecord& r = instances[i];
        r.fromClip = uint32_t(i % model.clips.size());
        r.fromPhase = 0.1f * float(i);
        r.fromSpeed = 1.25f;
        r.fadeLength = 0.5f;
        r.fadeStart = -0.45f + 0.03f * float(i); // at time 0, weights from 0.9 down to 0
    }
    const float times[] = {0.0f, 0.2f};
    compareEverySkinning(model, "monster cross-fades", instances, times);
}

TEST_F(GpuAnimationTest, MonsterMatchesTheReference) {
    GpuMeshAllocator allocator(device());
    Model model = buildMonster(allocator);
    const float times[] = {0.0f, 0.37171f, 1.0f, 1.6f, 5.3f};
    compareEverySkinning(model, "monster", randomInstances(model, 48, 7), times);
}

// The monster whose rings blend up to six bones and an anchor, kept whole: eight-influence
// skinning reads them all, four-influence skinning the four strongest.
TEST_F(GpuAnimationTest, MonsterWithEightInfluencesMatchesTheReference) {
    GpuMeshAllocator allocator(device());
    MonsterParams params;
    params.influences = 8;
    Model model = buildMonster(allocator, params);
    ASSERT_TRUE(model.meshes[0].layout().moreInfluences);
    const float times[] = {0.0f, 0.8f, 2.9f};
    compareEverySkinning(model, "monster (8 influences)", randomInstances(model, 24, 11), times);
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

    const float times[] = {0.0f, 0.25f, 0.95f, 1.85f, 2.0f, 7.77f};
    compareEverySkinning(model, "hand-made skeleton", randomInstances(model, 40, 3), times);
}

// Two joints half a turn apart about x, a vertex a unit from the axis weighted evenly
// (skinning_reference_test works the answers out): the linear blend puts it on the axis, dual
// quaternions a quarter turn round at (0, 0, 1), on the GPU as on the CPU.
TEST_F(GpuAnimationTest, DualQuaternionsKeepWhatTheLinearBlendCollapses) {
    GpuMeshAllocator allocator(device());
    Model model;
    model.nodes = {Node{"a"}, Node{"b"}};
    model.skins.push_back(Skin{{0, 1}, {glm::mat4(1.0f), glm::mat4(1.0f)}});
    Mesh mesh;
    mesh.name = "wrapper";
    mesh.skin = 0;
    mesh.storage = allocator.allocate({1, 3, false, 0, true, false}, "wrapper");
    mesh.arrays().positions[0] = glm::vec3(0, 1, 0);
    mesh.arrays().normals[0] = glm::vec3(0, 1, 0);
    mesh.arrays().joints[0] = glm::u16vec4(0, 1, 0, 0);
    mesh.arrays().weights[0] = glm::vec4(0.5f, 0.5f, 0, 0);
    mesh.submeshes.push_back({"m", 0, 3});
    model.meshes.push_back(std::move(mesh));
    Clip twist;
    twist.name = "twist";
    twist.duration = 1.0f;
    twist.channels.push_back(Channel{1, ChannelPath::Rotation, Interpolation::Linear, {0.0f}, {glm::vec4(1, 0, 0, 0)}});
    model.clips.push_back(twist);
    finalizeMeshes(model);
    model.meshes[0].storage->commit();
    uploadMeshes(device(), model);
    CrowdModel crowdModel(device(), model, {.crowd = false});
    const CrowdModel* models[] = {&crowdModel};
    const std::vector<gpu::InstanceRecord> one = {{0, 0.5f, 0.0f, 1, glm::vec4(0), glm::vec4(1)}};
    for (Skinning skinning : {Skinning::Lbs, Skinning::Dqs}) {
        CrowdSettings settings = singleInstanceSettings();
        settings.skin.skinning = skinning;
        CrowdScene crowd(device(), models, {one}, settings, {.slots = 1});
        device().immediate([&](VkCommandBuffer cmd) { crowd.recordAnimation(cmd, 0, 0.0f, ViewCamera{}); });
        const glm::vec3 p = crowd.readSkinned(0, 0, 0, false)[0];
        const glm::vec3 expected = skinning == Skinning::Dqs ? glm::vec3(0, 0, 1) : glm::vec3(0);
        EXPECT_LE(glm::length(p - expected), 1e-6f) << nameOf(skinning) << ": " << p.x << " " << p.y << " " << p.z;
    }
}

// Khronos' samples (RiggedSimple, RiggedFigure, CesiumMan, BrainStem, Fox), when a machine has
// them: every skinning within its tolerance of the reference on files a user would bring.
TEST_F(GpuAnimationTest, RealGltfSamplesMatchTheReference) {
    const std::filesystem::path dir = realDir() / "gltf";
    if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no real samples in " << dir;
    size_t tried = 0;
    for (const char* name : {"RiggedSimple", "RiggedFigure", "CesiumMan", "BrainStem", "Fox"}) {
        const std::filesystem::path path = dir / (std::string(name) + ".glb");
        if (!std::filesystem::exists(path)) continue;
        GpuMeshAllocator allocator(device());
        Result<Model> model = loadModel(path, {}, allocator);
        ASSERT_TRUE(model) << model.error().message;
        // Held at their phases (speed 0), so that the clip time is the same float on both sides:
        // BrainStem's clip is 35 s long, where a float time rounds by up to 4e-6 s, which moves
        // its fastest vertices by 1e-5 of its size: the float clip time's limit, not skinning's.
        std::vector<gpu::InstanceRecord> instances = randomInstances(*model, 12, 5);
        for (gpu::InstanceRecord& r : instances) r.speed = 0.0f;
        const float times[] = {0.0f};
        compareEverySkinning(*model, name, instances, times);
        ++tried;
    }
    if (tried == 0) GTEST_SKIP() << "no real samples in " << dir;
}

// The byte-built triangle with two morph targets (support/morph_triangle.h) on a translated node:
// its resting weights, a LINEAR and a CUBICSPLINE weights clip, and a STEP copy of the first,
// played from every phase and faded between, morphed as the reference morphs it.
TEST_F(GpuAnimationTest, MorphTargetsMatchTheReference) {
    GpuMeshAllocator allocator(device());
    const std::vector<std::byte> bytes = test::morphTriangle().bytes();
    Result<Model> model = gltfFormat().readModel("morph.glb", bytes, LoadOptions{}, allocator);
    ASSERT_TRUE(model) << model.error().message;
    Clip step = model->clips[0];
    step.name = "talk stepped";
    step.morphs[0].interpolation = Interpolation::Step;
    model->clips.push_back(step);
    finalizeMeshes(*model);
    for (Mesh& m : model->meshes) m.storage->commit();
    ASSERT_EQ(model->meshes[0].morphTargets(), 2u);
    std::vector<gpu::InstanceRecord> instances = randomInstances(*model, 40, 13);
    for (size_t i = 20; i < instances.size(); ++i) {
        gpu::InstanceRecord& r = instances[i];
        r.fromClip = uint32_t(i % model->clips.size());
        r.fromPhase = 0.07f * float(i);
        r.fromSpeed = 1.0f;
        r.fadeLength = 0.5f;
        r.fadeStart = -0.5f + 0.025f * float(i - 20); // weights from 1 down to 0.5 at time 0
    }
    const float times[] = {0.0f, 0.5f, 1.0f, 1.37f, 2.6f};
    compareEverySkinning(*model, "morph triangle", instances, times);
}

// Morph targets under a skin: two joints, a skinned quad with two targets that move positions and
// normals, and a rigid triangle with one target that no clip keys (its resting weight holds);
// weights keyed LINEAR in a clip that also turns a joint, STEP in one that wraps to its first key,
// CUBICSPLINE in a third.
TEST_F(GpuAnimationTest, SkinnedMeshWithMorphTargetsMatchesTheReference) {
    GpuMeshAllocator allocator(device());
    Model model;
    model.nodes = {Node{"root", -1, glm::vec3(0.2f, 0, -0.5f)},
                   Node{"arm", 0, glm::vec3(0, 1, 0), glm::angleAxis(0.4f, glm::vec3(0, 0, 1)), glm::vec3(1, 1.5f, 1)}};
    std::vector<glm::dmat4> locals(2), models(2);
    sampleLocals(model, nullptr, 0.0, locals);
    localToModel(model, locals, models);
    model.skins.push_back(Skin{{0, 1}, {glm::mat4(glm::inverse(models[0])), glm::mat4(glm::inverse(models[1]))}});
    Mesh quad;
    quad.name = "quad";
    quad.skin = 0;
    quad.storage = allocator.allocate({.vertexCount = 4, .indexCount = 6, .uvSets = 0, .skinned = true,
                                       .morphTargets = 2, .morphNormals = true},
                                      "quad");
    Mesh prop;
    prop.name = "prop";
    prop.node = 1;
    prop.storage = allocator.allocate({.vertexCount = 3, .indexCount = 3, .uvSets = 0, .index16 = true, .morphTargets = 1},
                                      "prop");
    MeshArrays& q = quad.arrays();
    for (uint32_t v = 0; v < 4; ++v) {
        q.positions[v] = glm::vec3(float(v & 1), float(v >> 1) * 2.0f, 0.1f * float(v));
        q.normals[v] = glm::normalize(glm::vec3(0.1f * float(v), 0, 1));
        q.joints[v] = glm::u16vec4(0, 1, 0, 0);
        const float up = float(v >> 1);
        q.weights[v] = glm::vec4(1.0f - 0.8f * up, 0.8f * up, 0, 0);
        q.morphPositions[v] = glm::vec3(0, 0, 0.5f * float(v + 1));
        q.morphPositions[4 + v] = glm::vec3(-0.3f * float(v), 0.2f, 0);
        q.morphNormals[v] = glm::vec3(0.4f, 0, 0);
        q.morphNormals[4 + v] = glm::vec3(0, -0.2f * float(v), 0);
    }
    const uint32_t quadIndices[] = {0, 1, 3, 0, 3, 2};
    for (uint32_t i = 0; i < 6; ++i) q.indices32[i] = quadIndices[i];
    MeshArrays& r = prop.arrays();
    for (uint32_t v = 0; v < 3; ++v) {
        r.positions[v] = glm::vec3(v == 1, v == 2, 0.25f);
        r.normals[v] = glm::vec3(0, 0, 1);
        r.morphPositions[v] = glm::vec3(0.5f, float(v), -1);
        r.indices16[v] = uint16_t(v);
    }
    quad.morphWeights = {0.1f, 0.0f};
    prop.morphWeights = {0.75f};
    quad.submeshes.push_back({"a", 0, 6});
    prop.submeshes.push_back({"b", 0, 3});
    model.meshes.push_back(std::move(quad));
    model.meshes.push_back(std::move(prop));

    Clip wave;
    wave.name = "wave";
    wave.duration = 2.0f;
    wave.channels.push_back(Channel{1, ChannelPath::Rotation, Interpolation::Linear, {0.0f, 1.2f},
                                    {glm::vec4(0, 0, 0, 1), glm::vec4(0, 0, 0.6f, 0.8f)}});
    wave.morphs.push_back(MorphChannel{0, Interpolation::Linear, 2, {0.0f, 0.5f, 1.5f}, {0, 0, 1, 0.25f, -0.5f, 1}});
    Clip blink = wave;
    blink.name = "blink";
    blink.end = ClipEnd::WrapToFirst;
    blink.morphs[0].interpolation = Interpolation::Step;
    Clip ease;
    ease.name = "ease";
    ease.duration = 1.0f;
    // Per key: in-tangents, weights, out-tangents.
    ease.morphs.push_back(MorphChannel{0, Interpolation::CubicSpline, 2, {0.0f, 0.8f},
                                       {0, 0, 0, 0, 3, -1, 0, 0, 1, 0.5f, 0, 0}});
    model.clips = {wave, blink, ease};
    finalizeMeshes(model);
    ASSERT_TRUE(validateModel(model)) << validateModel(model).error().message;
    for (Mesh& m : model.meshes) m.storage->commit();
    const float times[] = {0.0f, 0.3f, 0.9f, 1.7f, 1.95f};
    compareEverySkinning(model, "skinned morph", randomInstances(model, 30, 17), times);
}

// three.js's morph-animated Horse, Stork, Flamingo and Parrot and the skinned, morphing
// RobotExpressive, when a machine has them: the GPU's pose within each skinning's tolerance of the
// reference, whose morph follows glTF's definition (GltfMorph's tests).
TEST_F(GpuAnimationTest, RealMorphingModelsMatchTheReference) {
    const std::filesystem::path dir = realDir() / "gltf-chars";
    size_t tried = 0;
    for (const char* name : {"Horse", "Stork", "Flamingo", "Parrot", "RobotExpressive"}) {
        const std::filesystem::path path = dir / (std::string(name) + ".glb");
        if (!std::filesystem::exists(path)) continue;
        GpuMeshAllocator allocator(device());
        Result<Model> model = loadModel(path, {}, allocator);
        ASSERT_TRUE(model) << model.error().message;
        std::vector<gpu::InstanceRecord> instances = randomInstances(*model, 12, 9);
        for (gpu::InstanceRecord& r : instances) r.speed = 0.0f;
        const float times[] = {0.0f};
        compareEverySkinning(*model, name, instances, times);
        ++tried;
    }
    if (tried == 0) GTEST_SKIP() << "no three.js models in " << dir;
}

TEST_F(GpuAnimationTest, UniformKeysAreDetected) {
    EXPECT_FLOAT_EQ(uniformKeyStep({0.0f, 1.0f / 30, 2.0f / 30, 3.0f / 30}), 1.0f / 30);
    EXPECT_EQ(uniformKeyStep({0.0f, 0.1f, 0.3f}), 0.0f);
    EXPECT_EQ(uniformKeyStep({0.0f, 1.0f}), 0.0f); // two keys: a plain search is as fast
}
