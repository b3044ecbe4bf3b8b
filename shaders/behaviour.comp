#version 460
// Pass 0, behaviour: one invocation per instance advances its state by a frame, before anything
// reads it. A state that has run its span hands over to the next, chosen at random by its
// transitions' weights; the clip that state plays fades in over the one that played. Walkers move
// by their clips' speeds, blended as the clips are, turn as their state says, and turn back toward
// the middle once outside the crowd's area. Mirrors behaviourStep() in engine/crowd/behaviour.cpp:
// what decides states is integer draws and arithmetic marked precise, so the CPU mirror reaches
// the same states, clips and times; headings and positions pass through sin, cos and a division,
// which Vulkan does not make exact.
#include "compute.glsl"

layout(push_constant, scalar) uniform Push { BehaviourPush pc; };

layout(buffer_reference, scalar) buffer StateRecords { BehaviourStateRecord v[]; };
layout(buffer_reference, scalar) buffer TransitionRecords { BehaviourTransitionRecord v[]; };
layout(buffer_reference, scalar) buffer MotionRecords { ClipMotionRecord v[]; };

// The PCG hash step (Jarzynski and Olano 2020); nextRandom() in engine/crowd/behaviour.cpp.
uint nextRandom(inout uint state) {
    state = state * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

float randomUnit(inout uint state) {
    return float(nextRandom(state) >> 8u) * (1.0 / 16777216.0);
}

const float kSteerRate = 1.5; // radians a second back toward the middle

void main() {
    uint i = flatInvocation();
    if (i >= pc.instanceCount) return;
    Instances instances = Instances(pc.instances);
    InstanceRecord r = instances.v[i];
    if (r.state >= pc.stateCount) return;
    StateRecords states = StateRecords(pc.states);
    MotionRecords motion = MotionRecords(pc.motion);
    Uints counters = Uints(pc.counters);
    precise float now = pc.time;

    precise float fadeEnd = r.fadeStart + r.fadeLength;
    if (r.fromClip != HORDE_NONE && now >= fadeEnd) r.fromClip = HORDE_NONE;
    if (now >= r.stateEnd) {
        BehaviourStateRecord state = states.v[r.state];
        uint next = r.state;
        float pick = randomUnit(r.random);
        for (uint k = 0u; k < state.transitionCount; ++k) {
            BehaviourTransitionRecord t = TransitionRecords(pc.transitions).v[state.firstTransition + k];
            if (pick < t.upTo) {
                next = t.to;
                break;
            }
        }
        BehaviourStateRecord entered = states.v[next];
        uint which = min(uint(randomUnit(r.random) * float(entered.clipCount)), entered.clipCount - 1u);
        uint clip = Uints(pc.stateClips).v[entered.firstClip + which];
        precise float duration = entered.minSeconds + entered.spanSeconds * randomUnit(r.random);
        float side = randomUnit(r.random) < 0.5 ? -1.0 : 1.0;
        r.turnRate = entered.turn * side / duration;
        if (clip != r.clip) {
            r.fromClip = r.clip;
            r.fromPhase = r.phase;
            r.fromSpeed = r.speed;
            r.fadeStart = now;
            float fade = motion.v[clip].fade;
            // Long enough not to pop (anim/fade_floor.h), however short the file or the crowd asks.
            float floor = r.clip != HORDE_NONE ? Floats(pc.fadeFloors).v[r.clip * pc.clipCount + clip] : 0.0;
            r.fadeLength = max(fade >= 0.0 ? fade : pc.crossfade, floor);
            r.clip = clip;
            precise float started = -(r.speed * now);
            r.phase = started;
            atomicAdd(counters.v[HORDE_COUNT_TRANSITIONS], 1u);
        }
        r.state = next;
        precise float end = now + duration;
        r.stateEnd = end;
    }

    bool fading = r.fromClip != HORDE_NONE && r.fadeLength > 0.0;
    float weight = fading ? clamp((now - r.fadeStart) / r.fadeLength, 0.0, 1.0) : 1.0;
    vec2 velocity = vec2(0.0);
    if (states.v[r.state].moves != 0u) {
        ClipMotionRecord m = motion.v[r.clip];
        velocity = vec2(m.velocityX, m.velocityZ) * (r.speed * weight);
        if (r.fromClip != HORDE_NONE) {
            ClipMotionRecord f = motion.v[r.fromClip];
            velocity += vec2(f.velocityX, f.velocityZ) * (r.fromSpeed * (1.0 - weight));
        }
    }
    float yaw = r.placement.w + r.turnRate * pc.step;
    vec2 world = turnByHeading(vec3(velocity.x, 0.0, velocity.y), yaw).xz;
    vec2 at = r.placement.xz;
    vec4 area = pc.area;
    bool outside = at.x < area.x || at.x > area.z || at.y < area.y || at.y > area.w;
    vec2 home = 0.5 * (area.xy + area.zw) - at;
    if (outside && dot(world, home) < 0.0) {
        float cross = world.x * home.y - world.y * home.x;
        yaw += (cross > 0.0 ? -kSteerRate : kSteerRate) * pc.step;
        world = turnByHeading(vec3(velocity.x, 0.0, velocity.y), yaw).xz;
    }
    r.placement.w = yaw;
    if ((world.x != 0.0 || world.y != 0.0) && pc.step > 0.0) {
        r.placement.xz += world * pc.step;
        atomicAdd(counters.v[HORDE_COUNT_MOVED], 1u);
    }
    atomicAdd(counters.v[HORDE_COUNT_STATES + r.state], 1u);
    if (fading && weight < 1.0) atomicAdd(counters.v[HORDE_COUNT_BLENDING], 1u);
    instances.v[i] = r;
}
