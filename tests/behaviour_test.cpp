// Crowds that behave, on the CPU alone, against answers worked out by hand: root motion taken out
// of a clip's keys, the ground speed of a walk that plays in place, a behaviour resolved against a
// model's clips, the behaviour pass's CPU mirror stepped frame by frame, and behaviour files read
// or refused by field.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "anim/reference.h"
#include "anim/root_motion.h"
#include "anim/stride.h"
#include "behaviour_file.h"
#include "crowd/behaviour.h"
#include "crowd/clip_roles.h"

using namespace horde;

namespace {

// No pair of the three clips below needs a fade longer than asked for.
const std::vector<float> kNoFloors(9, 0.0f);

Mesh pointsMesh(const std::vector<glm::vec3>& points, const std::vector<uint32_t>& joints) {
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = uint32_t(points.size());
    layout.indexCount = 3;
    layout.skinned = true;
    Mesh mesh;
    mesh.name = "points";
    mesh.skin = 0;
    mesh.storage = heap.allocate(layout, mesh.name);
    for (size_t v = 0; v < points.size(); ++v) {
        mesh.arrays().positions[v] = points[v];
        mesh.arrays().normals[v] = {0, 1, 0};
        mesh.arrays().joints[v] = {uint16_t(joints[v]), 0, 0, 0};
        mesh.arrays().weights[v] = {1, 0, 0, 0};
    }
    for (uint32_t i = 0; i < 3; ++i)
        mesh.arrays().setIndex(i, i);
    mesh.submeshes = {{"", 0, 3}};
    return mesh;
}

Channel translation(uint32_t node, std::vector<float> times, std::vector<glm::vec4> values) {
    return Channel{node, ChannelPath::Translation, Interpolation::Linear, std::move(times),
                   std::move(values)};
}

// A root scaled twice and its hips, which walk 2 along z in the root's frame (4 in the model)
// over 1.5 s, bobbing 0.1 up half-way. A triangle rides on the hips.
Model strider() {
    Model model;
    model.nodes = {Node{"root", -1, glm::vec3(0), glm::quat(1, 0, 0, 0), glm::vec3(2)}, Node{"hips", 0}};
    model.skins.push_back(Skin{{1}, {glm::mat4(1.0f)}});
    model.meshes.push_back(pointsMesh({{0, 0, 0}, {0.5f, 0, 0}, {0, 0.5f, 0}}, {0, 0, 0}));
    Clip walk;
    walk.name = "stroll";
    walk.duration = 1.5f;
    walk.channels.push_back(
        translation(1, {0.0f, 0.75f, 1.5f}, {glm::vec4(0), glm::vec4(0, 0.1f, 1, 0), glm::vec4(0, 0, 2, 0)}));
    model.clips.push_back(walk);
    finalizeMeshes(model);
    return model;
}

} // namespace

// The hips carry the model (0, 0, 4) over the clip (2 in the root's frame, scaled twice); in place,
// their keys lose 2 x t / 1.5 along z: (0,0,0), (0,0.1,0), (0,0,0). The bob stays.
TEST(RootMotion, TravelIsTakenOutOfTheKeysByHand) {
    Model model = strider();
    const RootMotion m = rootMotionOf(model, model.clips[0]);
    EXPECT_EQ(m.node, 1);
    EXPECT_NEAR(m.travel.x, 0.0f, 1e-6f);
    EXPECT_NEAR(m.travel.y, 0.0f, 1e-6f);
    EXPECT_NEAR(m.travel.z, 4.0f, 1e-6f);
    EXPECT_EQ(m.duration, 1.5f);
    extractRootMotion(model);
    const std::vector<glm::vec4>& keys = model.clips[0].channels[0].values;
    const glm::vec4 expected[] = {glm::vec4(0), glm::vec4(0, 0.1f, 0, 0), glm::vec4(0)};
    for (size_t k = 0; k < 3; ++k)
        for (int c = 0; c < 3; ++c)
            EXPECT_NEAR(keys[k][c], expected[k][c], 1e-6f) << "key " << k << " " << c;
    EXPECT_NEAR(model.clips[0].travel.z, 4.0f, 1e-6f);
    // Played in place, the clip finds no travel a second time, and keeps what it has.
    extractRootMotion(model);
    EXPECT_NEAR(model.clips[0].travel.z, 4.0f, 1e-6f);
    EXPECT_LT(rootMotionOf(model, model.clips[0]).node, 0);
}

// Two feet in turn: each on the ground (y 0) half the cycle, sliding back from z 1 to z -1 (4 a
// second), then lifted forward. A body vertex 1 up sets the height. An instance walking 4 a second
// along +z keeps each planted foot exactly still: the stride is 4 a cycle, the drift 0.
TEST(Stride, PlantedFeetWalkingInPlaceGiveTheirSpeed) {
    Model model;
    model.nodes = {Node{"root"}, Node{"left", 0}, Node{"right", 0}};
    model.skins.push_back(Skin{{0, 1, 2}, {glm::mat4(1.0f), glm::mat4(1.0f), glm::mat4(1.0f)}});
    model.meshes.push_back(pointsMesh({{0, 1, 0}, {0, 0, 0}, {0, 0, 0}}, {0, 1, 2}));
    Clip walk;
    walk.name = "walk";
    walk.duration = 1.0f;
    const glm::vec4 front(0, 0, 1, 0), back(0, 0, -1, 0), up(0, 0.5f, 0, 0);
    walk.channels.push_back(translation(1, {0.0f, 0.5f, 0.75f, 1.0f}, {front, back, up, front}));
    walk.channels.push_back(translation(2, {0.0f, 0.25f, 0.5f, 1.0f}, {back, up, front, back}));
    model.clips.push_back(walk);
    finalizeMeshes(model);
    const Stride s = measureStride(model, model.clips[0]);
    EXPECT_NEAR(s.velocity.x, 0.0f, 1e-4f);
    EXPECT_NEAR(s.velocity.y, 0.0f, 1e-4f);
    EXPECT_NEAR(s.velocity.z, 4.0f, 1e-4f);
    EXPECT_NEAR(s.length, 4.0f, 1e-4f);
    EXPECT_NEAR(s.drift, 0.0f, 1e-4f);
    // Walking at half the speed, a planted foot slides 2 a second for its half cycle: 1.
    const glm::vec3 half(0, 0, 2);
    EXPECT_NEAR(measureStride(model, model.clips[0], &half).drift, 1.0f, 1e-4f);
}

TEST(ClipRoles, NamesGiveRoles) {
    EXPECT_EQ(roleByName("Idle"), ClipRole::Idle);
    EXPECT_EQ(roleByName("pause1"), ClipRole::Idle);
    EXPECT_EQ(roleByName("hturnl"), ClipRole::Idle) << "NWN: the head turns";
    EXPECT_EQ(roleByName("skeleton_warrior_axe_walk"), ClipRole::Walk);
    EXPECT_EQ(roleByName("Running"), ClipRole::Run);
    EXPECT_EQ(roleByName("skeleton_warrior_axe_turn_left"), ClipRole::Turn);
    EXPECT_EQ(roleByName("TPose"), ClipRole::Left);
    EXPECT_EQ(roleByName("Death"), ClipRole::Left);
    EXPECT_EQ(roleByName("kdbckdie"), ClipRole::Left);
    EXPECT_EQ(roleByName("disappear"), ClipRole::Left);
    EXPECT_EQ(roleByName("1hslashl"), ClipRole::Other);
    EXPECT_TRUE(globMatches("walk*", "WalkJump"));
    EXPECT_TRUE(globMatches("*slash?", "1hslashl"));
    EXPECT_FALSE(globMatches("*slash?", "1hslash"));
    EXPECT_TRUE(clipMatches("@idle", "pause2", ClipRole::Idle));
    EXPECT_FALSE(clipMatches("@walk", "pause2", ClipRole::Idle));
}

namespace {
Model threeClips() {
    Model model;
    model.nodes = {Node{"root"}};
    for (const char* name : {"Idle", "Walk", "TPose"}) {
        Clip c;
        c.name = name;
        c.duration = 1.0f;
        model.clips.push_back(c);
    }
    return model;
}
std::vector<ClipRole> rolesOf(const Model& model) {
    std::vector<ClipRole> roles;
    for (const Clip& c : model.clips)
        roles.push_back(roleByName(c.name));
    return roles;
}
} // namespace

// Wander against Idle, Walk and TPose: the T-pose is left out, act has no clip, so transitions
// into act are dropped and the others' weights shared out again.
TEST(Behaviour, WanderResolvesAgainstTheModelsClips) {
    const Model model = threeClips();
    const std::vector<ClipRole> roles = rolesOf(model);
    const std::vector<bool> played = playedClips(model, roles, {});
    EXPECT_EQ(played, (std::vector<bool>{true, true, false}));
    const BehaviourTables t = resolveBehaviour(wanderBehaviour(), model, roles, played);
    ASSERT_EQ(t.states.size(), 4u);
    auto clipsOf = [&](uint32_t s) {
        return std::vector<uint32_t>(t.stateClips.begin() + t.states[s].firstClip,
                                     t.stateClips.begin() + t.states[s].firstClip + t.states[s].clipCount);
    };
    EXPECT_EQ(clipsOf(0), std::vector<uint32_t>{0}); // idle
    EXPECT_EQ(clipsOf(1), std::vector<uint32_t>{1}); // walk
    EXPECT_EQ(clipsOf(2), std::vector<uint32_t>{1}); // turn
    EXPECT_TRUE(clipsOf(3).empty());                 // act
    // idle: walk 3, act dropped, idle 1 -> walk below 0.75, idle up to 1.
    ASSERT_EQ(t.states[0].transitionCount, 2u);
    EXPECT_EQ(t.transitions[t.states[0].firstTransition].to, 1u);
    EXPECT_FLOAT_EQ(t.transitions[t.states[0].firstTransition].upTo, 0.75f);
    EXPECT_EQ(t.transitions[t.states[0].firstTransition + 1].to, 0u);
    EXPECT_EQ(t.transitions[t.states[0].firstTransition + 1].upTo, 1.0f);
    // walk: idle 2, turn 3 -> 0.4, 1.
    ASSERT_EQ(t.states[1].transitionCount, 2u);
    EXPECT_FLOAT_EQ(t.transitions[t.states[1].firstTransition].upTo, 0.4f);
    EXPECT_EQ(t.states[1].moves, 1u);
    EXPECT_FLOAT_EQ(t.states[2].turn, 100.0f * float(M_PI) / 180.0f);
    EXPECT_TRUE(t.playable());
}

namespace {

// `b` resolved against every clip of `model` but the ones a crowd leaves out.
BehaviourTables tablesOf(const Model& model, const Behaviour& b) {
    const std::vector<ClipRole> roles = rolesOf(model);
    return resolveBehaviour(b, model, roles, playedClips(model, roles, {}));
}

// An instance in state 0, playing `clip` at speed 1 from its start, fading nothing.
gpu::InstanceRecord playing(uint32_t clip, float stateEnd) {
    gpu::InstanceRecord r{};
    r.clip = clip;
    r.speed = 1.0f;
    r.fromClip = HORDE_NONE;
    r.state = 0;
    r.stateEnd = stateEnd;
    return r;
}

} // namespace

// Two states by hand: A plays Idle for exactly 1 s, B walks for exactly 2 s at 1.5 a second
// along z; each leads to the other. At t = 1 the instance enters B: Walk starts (its phase -1, so
// its clip time is 0), Idle fades out over 0.25 s from 1; at 1.125 the walk weighs half, so the
// instance moves 0.75 a second; from 1.25 the fade is over and it moves 1.5 a second.
TEST(Behaviour, TheStepMatchesAHandWorkedFrame) {
    const Model model = threeClips();
    Behaviour b;
    b.states = {{"A", {"Idle"}, 1.0f, 1.0f, false, 0.0f}, {"B", {"Walk"}, 2.0f, 2.0f, true, 0.0f}};
    b.transitions = {{"A", "B", 1.0f}, {"B", "A", 1.0f}};
    const BehaviourTables t = tablesOf(model, b);
    const std::vector<gpu::ClipMotionRecord> motion{{0, 0, -1, 0}, {0, 1.5f, -1, 0}, {0, 0, -1, 0}};
    gpu::InstanceRecord r = playing(0, 1.0f);
    r.loop = 1;
    r.random = 12345u;
    const glm::vec4 area(-100, -100, 100, 100);
    BehaviourCounts counts;
    behaviourStep(std::span(&r, 1), t, motion, kNoFloors, {1.0f, 0.125f, area, 0.25f}, &counts);
    EXPECT_EQ(r.state, 1u);
    EXPECT_EQ(r.clip, 1u);
    EXPECT_EQ(r.phase, -1.0f);
    EXPECT_EQ(r.fromClip, 0u);
    EXPECT_EQ(r.fromPhase, 0.0f);
    EXPECT_EQ(r.fadeStart, 1.0f);
    EXPECT_EQ(r.fadeLength, 0.25f);
    EXPECT_EQ(r.stateEnd, 3.0f);
    EXPECT_EQ(r.placement.z, 0.0f) << "the walk weighs nothing yet";
    EXPECT_EQ(counts.transitions, 1u);
    EXPECT_EQ(counts.states[1], 1u);
    EXPECT_EQ(counts.blending, 1u);
    behaviourStep(std::span(&r, 1), t, motion, kNoFloors, {1.125f, 0.125f, area, 0.25f});
    EXPECT_FLOAT_EQ(r.placement.z, 0.75f * 0.125f);
    behaviourStep(std::span(&r, 1), t, motion, kNoFloors, {1.25f, 0.125f, area, 0.25f});
    EXPECT_EQ(r.fromClip, HORDE_NONE) << "the fade is over";
    EXPECT_FLOAT_EQ(r.placement.z, 0.75f * 0.125f + 1.5f * 0.125f);
    // The walk's 2 s end at 3: back to A, Idle fading in over Walk.
    behaviourStep(std::span(&r, 1), t, motion, kNoFloors, {3.0f, 1.75f, area, 0.25f});
    EXPECT_EQ(r.state, 0u);
    EXPECT_EQ(r.clip, 0u);
    EXPECT_EQ(r.fromClip, 1u);
    EXPECT_EQ(r.fromPhase, -1.0f);
    EXPECT_EQ(r.stateEnd, 4.0f);
}

// A walker plays a clip whose root travelled 3 units in 1.8 s, for 1.8 s in 90 frames: it covers
// the clip's travel.
TEST(Behaviour, AWalkersDistanceIsItsClipsRootMotion) {
    Model model = threeClips();
    Behaviour b;
    b.states = {{"walk", {"Walk"}, 100.0f, 100.0f, true, 0.0f}};
    const BehaviourTables t = tablesOf(model, b);
    const float travel = 3.0f, duration = 1.8f;
    const std::vector<gpu::ClipMotionRecord> motion{
        {0, 0, -1, 0}, {0, travel / duration, -1, 0}, {0, 0, -1, 0}};
    gpu::InstanceRecord r = playing(1, 1000.0f);
    const float step = duration / 90.0f;
    for (int f = 0; f <= 90; ++f)
        behaviourStep(std::span(&r, 1), t, motion, kNoFloors,
                      {float(f) * step, f ? step : 0.0f, glm::vec4(-9, -9, 9, 9)});
    EXPECT_NEAR(r.placement.z, travel, 1e-5f);
    EXPECT_EQ(r.placement.x, 0.0f);
}

// Outside the area, a walker heading away turns back toward its middle.
TEST(Behaviour, WalkersTurnBackAtTheAreasEdge) {
    Model model = threeClips();
    Behaviour b;
    b.states = {{"walk", {"Walk"}, 100.0f, 100.0f, true, 0.0f}};
    const BehaviourTables t = tablesOf(model, b);
    const std::vector<gpu::ClipMotionRecord> motion{{0, 0, -1, 0}, {0, 1.0f, -1, 0}, {0, 0, -1, 0}};
    gpu::InstanceRecord r = playing(1, 1000.0f);
    const glm::vec4 area(-5, -5, 5, 5);
    float farthest = 0.0f;
    for (int f = 0; f < 2000; ++f) {
        behaviourStep(std::span(&r, 1), t, motion, kNoFloors, {float(f) / 30.0f, 1.0f / 30.0f, area});
        farthest = std::max({farthest, std::abs(r.placement.x), std::abs(r.placement.z)});
    }
    EXPECT_GT(farthest, 5.0f) << "it reached the edge";
    EXPECT_LT(farthest, 6.5f) << "and turned back within a turning circle of it (1 / 1.5 per second)";
}

TEST(Behaviour, StartsEveryInstanceSomewhereIntoAStateItHasClipsFor) {
    const Model model = threeClips();
    const BehaviourTables t = tablesOf(model, wanderBehaviour());
    std::vector<gpu::ClipRecord> clips(3, gpu::ClipRecord{1.0f, 0, 0, 0});
    std::vector<gpu::InstanceRecord> a(200), b(200);
    startBehaviour(a, t, clips, 7);
    startBehaviour(b, t, clips, 7);
    for (size_t i = 0; i < a.size(); ++i) {
        ASSERT_LT(a[i].state, 3u) << "act has no clip";
        EXPECT_EQ(a[i].clip, t.stateClips[t.states[a[i].state].firstClip]);
        EXPECT_GE(a[i].stateEnd, 0.0f);
        EXPECT_LE(a[i].stateEnd, wanderBehaviour().states[a[i].state].maxSeconds);
        EXPECT_EQ(a[i].fromClip, HORDE_NONE);
        EXPECT_EQ(a[i].random, b[i].random) << "the same seed, the same crowd";
        EXPECT_EQ(a[i].state, b[i].state);
    }
}

TEST(BehaviourFile, ReadsTheSchema) {
    const std::string text = R"({
      "states": [
        {"name": "idle", "clips": ["@idle", "pause*"], "seconds": [2, 6]},
        {"name": "walk", "clips": ["walk"], "seconds": 4, "moves": true, "turn": 45}
      ],
      "transitions": [{"from": "idle", "to": "walk", "weight": 3}, {"from": "walk", "to": "idle"}]
    })";
    Result<Behaviour> b = parseBehaviour(text, "mine.json");
    ASSERT_TRUE(b) << b.error().message;
    ASSERT_EQ(b->states.size(), 2u);
    EXPECT_EQ(b->states[0].clips, (std::vector<std::string>{"@idle", "pause*"}));
    EXPECT_EQ(b->states[0].minSeconds, 2.0f);
    EXPECT_EQ(b->states[0].maxSeconds, 6.0f);
    EXPECT_EQ(b->states[1].minSeconds, 4.0f);
    EXPECT_EQ(b->states[1].maxSeconds, 4.0f);
    EXPECT_TRUE(b->states[1].moves);
    EXPECT_EQ(b->states[1].turnDegrees, 45.0f);
    ASSERT_EQ(b->transitions.size(), 2u);
    EXPECT_EQ(b->transitions[0].weight, 3.0f);
    EXPECT_EQ(b->transitions[1].weight, 1.0f);
}

TEST(BehaviourFile, RefusesABadFileNamingTheField) {
    auto error = [](const std::string& text) {
        Result<Behaviour> b = parseBehaviour(text, "bad.json");
        return b ? std::string("accepted") : b.error().message;
    };
    EXPECT_EQ(error(R"({"states": [{"name": "a", "clips": ["x"]}]})"),
              "bad.json: states[0].seconds: missing: how long the state lasts, [min, max]");
    EXPECT_EQ(
        error(R"({"states": [{"name": "a", "clips": ["@sleep"], "seconds": 1}]})"),
        "bad.json: states[0].clips[0]: '@sleep' names no role (@idle, @walk, @run, @turn, @other, @left)");
    EXPECT_EQ(error(R"({"states": [{"name": "a", "clips": ["x"], "seconds": [3, 1]}]})"),
              "bad.json: states[0].seconds: min is above max: [3,1]");
    EXPECT_EQ(error(R"({"states": [{"name": "a", "clips": ["x"], "seconds": 1, "speed": 2}]})"),
              "bad.json: states[0].speed: not a field of a behaviour (misspelt?)");
    EXPECT_EQ(error(R"({"states": [{"name": "a", "clips": ["x"], "seconds": 1}],
                        "transitions": [{"from": "a", "to": "b"}]})"),
              "bad.json: transitions[0].to: no state is named 'b'");
    EXPECT_EQ(error(R"({"states": []})"), "bad.json: states: expected an array of 1 to 16 states");
    EXPECT_NE(error("{\"states\": [").find("bad.json: byte"), std::string::npos);
}
