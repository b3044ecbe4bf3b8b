#pragma once
// How a crowd's instances behave: a small state machine that each instance runs on the GPU
// (shaders/behaviour.comp), one instance per invocation, every frame. A state plays one of its
// clips for a random span, may walk across the ground at its clip's speed and turn; when it ends,
// a transition chosen at random by weight leads to the next state, and the clip it plays fades in
// over the one that played (a cross-fade, blended per joint by the sample pass). `loop` has no
// states: each instance plays its layout's clip forever. `wander` is built in (wanderBehaviour);
// a user's file gives any other (tools/sources/behaviour_file.h, README "Behaviours").
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "crowd/clip_roles.h"
#include "shaders/gpu_types.h"

namespace horde {

struct BehaviourState {
    std::string name;
    std::vector<std::string> clips; // patterns (crowd/clip_roles.h): names with * and ?, or "@role"
    float minSeconds = 2.0f, maxSeconds = 5.0f; // how long the state lasts: a random span between
    bool moves = false;                         // walks across the ground at its clip's speed
    float turnDegrees = 0.0f;                   // turns this far over the state, to a random side
    bool operator==(const BehaviourState&) const = default;
};

struct BehaviourTransition {
    std::string from, to;
    float weight = 1.0f; // its share among the transitions out of `from`
    bool operator==(const BehaviourTransition&) const = default;
};

struct Behaviour {
    std::string name; // "loop", "wander", or the file it was read from
    std::vector<BehaviourState> states;
    std::vector<BehaviourTransition> transitions;
    bool operator==(const Behaviour&) const = default;
    bool loops() const { return states.empty(); }
};

Behaviour loopBehaviour();
// Idle, walk, turn while walking, and the model's other clips, for spans of seconds, walking
// wherever there is a walk clip (README, "Behaviours").
Behaviour wanderBehaviour();

// One model's behaviour as the behaviour pass reads it: every state of the definition, in its
// order, each with the model's played clips it matches (none: the model never enters it), and the
// transitions out of each state into states it has clips for.
struct BehaviourTables {
    std::vector<gpu::BehaviourStateRecord> states;
    std::vector<uint32_t> stateClips;
    std::vector<gpu::BehaviourTransitionRecord> transitions;
    bool playable() const; // some state has a clip
};

// `played`, `roles`: per clip of the model (crowd/clip_roles.h).
BehaviourTables resolveBehaviour(const Behaviour& behaviour, const Model& model,
                                 std::span<const ClipRole> roles, const std::vector<bool>& played);

// The random stream every instance draws from: a PCG hash step (Jarzynski and Olano 2020),
// integers only, so the GPU and the CPU draw the same numbers.
uint32_t nextRandom(uint32_t& state);
// A number in [0, 1) with 24 random bits: exact in single precision.
float randomUnit(uint32_t& state);

// What the behaviour pass reads beside the instances: this frame's time and the time since the
// last, the area walkers stay in (x0, z0, x1, z1 of the world), and the crowd's cross-fade.
struct BehaviourFrame {
    float time = 0.0f;
    float step = 0.0f;
    glm::vec4 area{0.0f};
    float crossfade = 0.25f; // seconds, into a clip whose file gives none
};

// What it tallies (the crowd's --stats "behaviour").
struct BehaviourCounts {
    std::array<uint32_t, HORDE_BEHAVIOUR_MAX_STATES> states{}; // instances in each state
    uint32_t transitions = 0;                                  // cross-fades begun this frame
    uint32_t blending = 0;                                     // instances in a cross-fade
    uint32_t moved = 0;                                        // instances whose position changed
};

// The CPU mirror of behaviour.comp, one frame over `instances`: states, clips, phases, cross-fades
// and timers exactly as the GPU leaves them (integer draws, and float arithmetic the shader marks
// precise); positions and headings within rounding of the GPU's (its sine, cosine and division
// are not exact).
// `motion` per clip, `fadeFloors` per (clip left, clip entered) (CrowdAsset::fadeFloors).
void behaviourStep(std::span<gpu::InstanceRecord> instances, const BehaviourTables& tables,
                   std::span<const gpu::ClipMotionRecord> motion, std::span<const float> fadeFloors,
                   const BehaviourFrame& frame, BehaviourCounts* counts = nullptr);

// Each instance's first state (a random one the model has clips for), its clip, a random point
// in that clip and in the state's span, from the instance's random stream seeded by `seed` and its
// index; the layout's placement, speed and tint kept.
void startBehaviour(std::span<gpu::InstanceRecord> instances, const BehaviourTables& tables,
                    std::span<const gpu::ClipRecord> clips, uint32_t seed);

} // namespace horde
