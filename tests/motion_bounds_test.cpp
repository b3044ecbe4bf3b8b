// motionBounds against the CPU reference at random times (the monster), and against answers
// worked out by hand for one joint turning a vertex about the origin.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "anim/motion_bounds.h"
#include "anim/reference.h"
#include "model/validate.h"
#include "monster.h"

using namespace horde;

namespace {

const Model& monster() {
    static HeapMeshAllocator heap;
    static const Model model = buildMonster(heap, {});
    return model;
}

double farthest(const Model& model, const Playback& playback, double t, glm::dvec3 center,
                const SkinOptions& skin = {}) {
    double most = 0.0;
    for (const PosedMesh& mesh : poseModel(model, playback, t, skin))
        for (const glm::dvec3& p : mesh.positions) most = std::max(most, glm::length(p - center));
    return most;
}

// The fastest vertex between t and t + dt, by finite difference.
double fastest(const Model& model, int32_t clip, double t, double dt) {
    const Playback playback{clip, 0.0, 1.0, false};
    const std::vector<PosedMesh> a = poseModel(model, playback, t), b = poseModel(model, playback, t + dt);
    double most = 0.0;
    for (size_t m = 0; m < a.size(); ++m)
        for (size_t v = 0; v < a[m].positions.size(); ++v)
            most = std::max(most, glm::length(b[m].positions[v] - a[m].positions[v]));
    return most / dt;
}

// One joint at the origin turning a vertex 2 units out on x about z by a quarter turn, linearly
// from 0 to `keyTime` (slerp; or all at once at `keyTime` when stepped), over a clip of
// `duration`. The vertex is skinned to the joint, or belongs to a static mesh placed by the
// joint's node.
Model turner(float keyTime, float duration, ClipEnd end, bool skinned = true,
             Interpolation interpolation = Interpolation::Linear) {
    Model model;
    model.nodes = {Node{"root"}, Node{"joint", 0}};
    model.skins.push_back(Skin{{1}, {glm::mat4(1.0f)}});
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = 1;
    layout.skinned = skinned;
    Mesh mesh;
    mesh.name = "point";
    mesh.node = skinned ? 0 : 1;
    mesh.skin = skinned ? 0 : -1;
    mesh.storage = heap.allocate(layout, mesh.name);
    mesh.arrays().positions[0] = {2, 0, 0};
    mesh.arrays().normals[0] = {1, 0, 0};
    if (skinned) {
        mesh.arrays().joints[0] = {0, 0, 0, 0};
        mesh.arrays().weights[0] = {1, 0, 0, 0};
    }
    model.meshes.push_back(std::move(mesh));
    Clip clip;
    clip.name = "turn";
    clip.duration = duration;
    clip.end = end;
    Channel turn;
    turn.node = 1;
    turn.path = ChannelPath::Rotation;
    turn.interpolation = interpolation;
    turn.times = {0.0f, keyTime};
    const glm::quat quarter = glm::angleAxis(float(M_PI / 2), glm::vec3(0, 0, 1));
    turn.values = {glm::vec4(0, 0, 0, 1), glm::vec4(quarter.x, quarter.y, quarter.z, quarter.w)};
    clip.channels.push_back(turn);
    model.clips.push_back(clip);
    finalizeMeshes(model);
    return model;
}

// What motionBounds must give for turner(1, 1, Hold), worked out by hand.
void expectQuarterTurnBounds(const MotionBounds& bounds) {
    // The vertex sweeps (2,0,0) to (0,2,0); the box around the arc is [0,2] x [0,2] x 0, centred
    // on (1,1,0), and the arc's ends are its farthest points from there: sqrt(2).
    EXPECT_NEAR(bounds.sphere.center.x, 1.0f, 1e-6f);
    EXPECT_NEAR(bounds.sphere.center.y, 1.0f, 1e-6f);
    EXPECT_NEAR(bounds.sphere.center.z, 0.0f, 1e-6f);
    // Samples 1/63 s apart (the two keys are the ends) turn it pi/2/63 each: a chord of
    // 2 * 2 * sin(pi/252), which is the padding.
    const double chord = 4.0 * std::sin(M_PI / 252.0);
    EXPECT_GE(bounds.sphere.radius, std::sqrt(2.0));
    EXPECT_LE(bounds.sphere.radius, std::sqrt(2.0) + chord + 1e-6);
    // True speed: radius 2 times pi/2 per second = pi; measured: the chord over 1/63 s, times 2.
    EXPECT_GE(bounds.clipSpeed[0], M_PI);
    EXPECT_NEAR(bounds.clipSpeed[0], 2.0 * 63.0 * chord, 1e-4);
}

// The sphere holds every vertex in the bind pose and at 500 random times of each clip, and is not
// much larger than the farthest seen.
void expectSphereHolds(const Model& model) {
    const MotionBounds bounds = motionBounds(model);
    ASSERT_EQ(bounds.clipSpeed.size(), model.clips.size());
    const glm::dvec3 center(bounds.sphere.center);
    const double radius = bounds.sphere.radius;
    double seen = farthest(model, Playback{}, 0.0, center);
    EXPECT_LE(seen, radius) << "bind pose";
    std::mt19937 random(18);
    for (int32_t c = 0; c < int32_t(model.clips.size()); ++c) {
        std::uniform_real_distribution<double> time(0.0, model.clips[c].duration);
        for (int i = 0; i < 500; ++i) {
            const double t = time(random);
            const double d = farthest(model, Playback{c, 0.0, 1.0, false}, t, center);
            EXPECT_LE(d, radius) << "clip " << c << " at " << t;
            seen = std::max(seen, d);
        }
    }
    // Conservative, but not by much: the padding is one sample gap's motion.
    EXPECT_LE(radius, seen * 1.1);
}

} // namespace

TEST(MotionBounds, SphereHoldsTheMonsterAtRandomTimesAndInBindPose) { expectSphereHolds(monster()); }

// Morph targets move vertices before skinning: the monster whose fifteen targets swell its body
// by a tenth of its length (MonsterParams::morphTargets) stays inside its sphere, which grows
// by what the swellings add.
TEST(MotionBounds, SphereHoldsTheMorphingMonster) {
    HeapMeshAllocator heap;
    const Model morphing = buildMonster(heap, {.morphTargets = 15});
    expectSphereHolds(morphing);
    EXPECT_GT(motionBounds(morphing).sphere.radius, motionBounds(monster()).sphere.radius);
}

// The sphere comes from the linear blend of each vertex's four strongest influences; the crowd
// culls with it whatever the skinning. On the monster blending up to seven joints, dual
// quaternions and eight influences stay inside it too (they bend joints differently, not farther
// than the padding).
TEST(MotionBounds, SphereHoldsTheMonsterSkinnedEveryWay) {
    HeapMeshAllocator heap;
    MonsterParams params;
    params.influences = 8;
    const Model model = buildMonster(heap, params);
    const MotionBounds bounds = motionBounds(model);
    const glm::dvec3 center(bounds.sphere.center);
    std::mt19937 random(5);
    for (Skinning skinning : {Skinning::Lbs, Skinning::Dqs})
        for (uint32_t influences : {4u, 8u})
            for (int32_t c = 0; c < int32_t(model.clips.size()); ++c) {
                std::uniform_real_distribution<double> time(0.0, model.clips[c].duration);
                for (int i = 0; i < 60; ++i) {
                    const double t = time(random);
                    EXPECT_LE(farthest(model, Playback{c, 0.0, 1.0, false}, t, center,
                                       {skinning, Precision::Fp32, influences}),
                              bounds.sphere.radius)
                        << nameOf(skinning) << " " << influences << " clip " << c << " at " << t;
                }
            }
}

TEST(MotionBounds, ClipSpeedBoundsTheMonsterFiniteDifferences) {
    const Model& model = monster();
    const MotionBounds bounds = motionBounds(model);
    const double dt = 1e-4;
    std::mt19937 random(7);
    for (int32_t c = 0; c < int32_t(model.clips.size()); ++c) {
        const Clip& clip = model.clips[c];
        // A stepped key jumps; no finite speed bounds a window across it.
        std::vector<double> jumps;
        for (const Channel& ch : clip.channels)
            if (ch.interpolation == Interpolation::Step)
                jumps.insert(jumps.end(), ch.times.begin(), ch.times.end());
        std::uniform_real_distribution<double> time(0.0, clip.duration - dt);
        double seen = 0.0;
        for (int i = 0; i < 200; ++i) {
            const double t = time(random);
            if (std::any_of(jumps.begin(), jumps.end(), [&](double j) { return j > t && j <= t + dt; })) continue;
            const double speed = fastest(model, c, t, dt);
            EXPECT_LE(speed, bounds.clipSpeed[c]) << "clip " << c << " at " << t;
            seen = std::max(seen, speed);
        }
        EXPECT_GT(seen, 0.0);
    }
}

TEST(MotionBounds, OneJointTurningAQuarterMatchesTheHandBound) {
    for (bool skinned : {true, false}) {
        SCOPED_TRACE(skinned ? "skinned" : "static");
        const Model model = turner(1.0f, 1.0f, ClipEnd::Hold, skinned);
        ASSERT_TRUE(validateModel(model));
        expectQuarterTurnBounds(motionBounds(model, 64));
    }
}

TEST(MotionBounds, WrappingClipsCountTheWayBackToTheFirstKey) {
    // The quarter turn takes 0.9 s; a wrapping clip turns back in the last 0.1 s, nine times as
    // fast: 2 * (pi/2) / 0.1 = 10 pi, against 2 * (pi/2) / 0.9 one way. Sampled chords are
    // shorter than arcs, so the bound lies between the true speed and twice it.
    const double forward = M_PI / 0.9, back = 10.0 * M_PI;
    const MotionBounds hold = motionBounds(turner(0.9f, 1.0f, ClipEnd::Hold));
    EXPECT_GE(hold.clipSpeed[0], forward);
    EXPECT_LE(hold.clipSpeed[0], 2.0 * forward + 1e-4);
    const MotionBounds wrap = motionBounds(turner(0.9f, 1.0f, ClipEnd::WrapToFirst));
    EXPECT_GE(wrap.clipSpeed[0], back);
    EXPECT_LE(wrap.clipSpeed[0], 2.0 * back + 1e-4);
}

TEST(MotionBounds, ASteppedKeyJumpsWithoutSpeedAndTheSphereHoldsBothSides) {
    const MotionBounds bounds = motionBounds(turner(0.5f, 1.0f, ClipEnd::Hold, true, Interpolation::Step));
    // Nothing moves between the jumps.
    EXPECT_EQ(bounds.clipSpeed[0], 0.0f);
    // Both poses, (2,0,0) and (0,2,0), are sqrt(2) from the centre (1,1,0); the gap across the
    // jump is padded by the jump, 2 sqrt(2), like any other.
    EXPECT_NEAR(bounds.sphere.center.x, 1.0f, 1e-6f);
    EXPECT_NEAR(bounds.sphere.center.y, 1.0f, 1e-6f);
    EXPECT_GE(bounds.sphere.radius, std::sqrt(2.0));
    EXPECT_LE(bounds.sphere.radius, 3.0 * std::sqrt(2.0) + 1e-6);
}

TEST(MotionBounds, ModelsWithoutVerticesGiveAPointSphere) {
    Model model;
    model.nodes = {Node{"root"}};
    model.clips.push_back(Clip{"empty"});
    const MotionBounds bounds = motionBounds(model);
    EXPECT_EQ(bounds.sphere.radius, 0.0f);
    ASSERT_EQ(bounds.clipSpeed.size(), 1u);
    EXPECT_EQ(bounds.clipSpeed[0], 0.0f);
}
