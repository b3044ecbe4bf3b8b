#include "crowd/behaviour.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace horde {

Behaviour loopBehaviour() {
    return {"loop", {}, {}};
}

Behaviour wanderBehaviour() {
    Behaviour b;
    b.name = "wander";
    b.states = {{"idle", {"@idle"}, 2.0f, 6.0f, false, 0.0f},
                {"walk", {"@walk"}, 3.0f, 8.0f, true, 0.0f},
                {"turn", {"@walk"}, 1.0f, 2.5f, true, 100.0f},
                {"act", {"@other"}, 1.5f, 4.0f, false, 0.0f}};
    b.transitions = {{"idle", "walk", 3.0f}, {"idle", "act", 1.0f},  {"idle", "idle", 1.0f},
                     {"walk", "idle", 2.0f}, {"walk", "turn", 3.0f}, {"walk", "act", 1.0f},
                     {"turn", "walk", 3.0f}, {"turn", "idle", 1.0f}, {"act", "idle", 2.0f},
                     {"act", "walk", 2.0f}};
    return b;
}

bool BehaviourTables::playable() const {
    return std::any_of(states.begin(), states.end(),
                       [](const gpu::BehaviourStateRecord& s) { return s.clipCount > 0; });
}

BehaviourTables resolveBehaviour(const Behaviour& behaviour, const Model& model,
                                 std::span<const ClipRole> roles, const std::vector<bool>& played) {
    BehaviourTables t;
    for (const BehaviourState& state : behaviour.states) {
        gpu::BehaviourStateRecord r{};
        r.firstClip = uint32_t(t.stateClips.size());
        for (uint32_t c = 0; c < model.clips.size(); ++c) {
            if (!played[c]) continue;
            for (const std::string& pattern : state.clips)
                if (clipMatches(pattern, model.clips[c].name, roles[c])) {
                    t.stateClips.push_back(c);
                    break;
                }
        }
        r.clipCount = uint32_t(t.stateClips.size()) - r.firstClip;
        r.minSeconds = state.minSeconds;
        r.spanSeconds = state.maxSeconds - state.minSeconds;
        r.turn = state.turnDegrees * std::numbers::pi_v<float> / 180.0f;
        r.moves = state.moves ? 1u : 0u;
        t.states.push_back(r);
    }
    auto indexOf = [&](const std::string& name) {
        for (uint32_t s = 0; s < behaviour.states.size(); ++s)
            if (behaviour.states[s].name == name) return s;
        return uint32_t(HORDE_NONE);
    };
    for (uint32_t s = 0; s < t.states.size(); ++s) {
        gpu::BehaviourStateRecord& r = t.states[s];
        r.firstTransition = uint32_t(t.transitions.size());
        float total = 0.0f;
        for (const BehaviourTransition& tr : behaviour.transitions) {
            const uint32_t from = indexOf(tr.from), to = indexOf(tr.to);
            if (from != s || to == HORDE_NONE || t.states[to].clipCount == 0 || !(tr.weight > 0.0f)) continue;
            total += tr.weight;
            t.transitions.push_back({to, total});
        }
        r.transitionCount = uint32_t(t.transitions.size()) - r.firstTransition;
        for (uint32_t k = r.firstTransition; k < t.transitions.size(); ++k)
            t.transitions[k].upTo = k + 1 == t.transitions.size() ? 1.0f : t.transitions[k].upTo / total;
    }
    return t;
}

uint32_t nextRandom(uint32_t& state) {
    state = state * 747796405u + 2891336453u;
    const uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

float randomUnit(uint32_t& state) {
    return float(nextRandom(state) >> 8u) * (1.0f / 16777216.0f);
}

namespace {

// The instance's heading turns model axes about +Y (common.glsl placeInWorld).
glm::vec2 turned(glm::vec2 v, float yaw) {
    const float c = std::cos(yaw), s = std::sin(yaw);
    return {c * v.x + s * v.y, -s * v.x + c * v.y};
}

// Radians a second a walker outside the area turns back toward its middle.
constexpr float kSteerRate = 1.5f;

// The state that follows `r`'s, its clip, span and turn; a new clip fades in over the old.
void nextState(gpu::InstanceRecord& r, const BehaviourTables& tables,
               std::span<const gpu::ClipMotionRecord> motion, std::span<const float> fadeFloors, float now,
               float crossfade, BehaviourCounts* counts) {
    const gpu::BehaviourStateRecord& state = tables.states[r.state];
    uint32_t next = r.state;
    const float pick = randomUnit(r.random);
    for (uint32_t k = 0; k < state.transitionCount; ++k)
        if (pick < tables.transitions[state.firstTransition + k].upTo) {
            next = tables.transitions[state.firstTransition + k].to;
            break;
        }
    const gpu::BehaviourStateRecord& entered = tables.states[next];
    const uint32_t which =
        std::min(uint32_t(randomUnit(r.random) * float(entered.clipCount)), entered.clipCount - 1);
    const uint32_t clip = tables.stateClips[entered.firstClip + which];
    const float duration = entered.minSeconds + entered.spanSeconds * randomUnit(r.random);
    const float side = randomUnit(r.random) < 0.5f ? -1.0f : 1.0f;
    r.turnRate = entered.turn * side / duration;
    if (clip != r.clip) {
        r.fromClip = r.clip;
        r.fromPhase = r.phase;
        r.fromSpeed = r.speed;
        r.fadeStart = now;
        const float floor = r.clip != HORDE_NONE ? fadeFloors[r.clip * motion.size() + clip] : 0.0f;
        r.fadeLength = std::max(motion[clip].fade >= 0.0f ? motion[clip].fade : crossfade, floor);
        r.clip = clip;
        r.phase = -(r.speed * now); // the entered clip starts now
        if (counts) ++counts->transitions;
    }
    r.state = next;
    r.stateEnd = now + duration;
}

} // namespace

void behaviourStep(std::span<gpu::InstanceRecord> instances, const BehaviourTables& tables,
                   std::span<const gpu::ClipMotionRecord> motion, std::span<const float> fadeFloors,
                   const BehaviourFrame& frame, BehaviourCounts* counts) {
    if (tables.states.empty()) return;
    const float now = frame.time;
    const glm::vec2 middle(0.5f * (frame.area.x + frame.area.z), 0.5f * (frame.area.y + frame.area.w));
    for (gpu::InstanceRecord& r : instances) {
        if (r.state >= tables.states.size()) continue;
        if (r.fromClip != HORDE_NONE && now >= r.fadeStart + r.fadeLength) r.fromClip = HORDE_NONE;
        if (now >= r.stateEnd) nextState(r, tables, motion, fadeFloors, now, frame.crossfade, counts);

        const float weight = r.fromClip == HORDE_NONE || !(r.fadeLength > 0.0f)
                                 ? 1.0f
                                 : std::clamp((now - r.fadeStart) / r.fadeLength, 0.0f, 1.0f);
        glm::vec2 velocity(0.0f);
        if (tables.states[r.state].moves) {
            const gpu::ClipMotionRecord& m = motion[r.clip];
            velocity = glm::vec2(m.velocityX, m.velocityZ) * (r.speed * weight);
            if (r.fromClip != HORDE_NONE) {
                const gpu::ClipMotionRecord& f = motion[r.fromClip];
                velocity += glm::vec2(f.velocityX, f.velocityZ) * (r.fromSpeed * (1.0f - weight));
            }
        }
        float yaw = r.placement.w + r.turnRate * frame.step;
        glm::vec2 world = turned(velocity, yaw);
        const glm::vec2 at(r.placement.x, r.placement.z);
        const bool outside =
            at.x < frame.area.x || at.x > frame.area.z || at.y < frame.area.y || at.y > frame.area.w;
        const glm::vec2 home = middle - at;
        if (outside && glm::dot(world, home) < 0.0f) {
            // Turn the way that brings the heading round to the middle soonest.
            const float cross = world.x * home.y - world.y * home.x;
            yaw += (cross > 0.0f ? -kSteerRate : kSteerRate) * frame.step;
            world = turned(velocity, yaw);
        }
        r.placement.w = yaw;
        if ((world.x != 0.0f || world.y != 0.0f) && frame.step > 0.0f) {
            r.placement.x += world.x * frame.step;
            r.placement.z += world.y * frame.step;
            if (counts) ++counts->moved;
        }
        if (counts) {
            ++counts->states[r.state];
            if (r.fromClip != HORDE_NONE && weight < 1.0f) ++counts->blending;
        }
    }
}

void startBehaviour(std::span<gpu::InstanceRecord> instances, const BehaviourTables& tables,
                    std::span<const gpu::ClipRecord> clips, uint32_t seed) {
    std::vector<uint32_t> playable;
    for (uint32_t s = 0; s < tables.states.size(); ++s)
        if (tables.states[s].clipCount > 0) playable.push_back(s);
    for (uint32_t i = 0; i < instances.size(); ++i) {
        gpu::InstanceRecord& r = instances[i];
        r.fromClip = HORDE_NONE;
        r.random = seed * 0x9E3779B9u ^ (i * 0x85EBCA6Bu + 0x2545F491u);
        nextRandom(r.random);
        if (playable.empty()) {
            r.state = HORDE_NONE;
            continue;
        }
        r.state = playable[std::min(uint32_t(randomUnit(r.random) * float(playable.size())),
                                    uint32_t(playable.size()) - 1)];
        const gpu::BehaviourStateRecord& s = tables.states[r.state];
        r.clip = tables.stateClips[s.firstClip + std::min(uint32_t(randomUnit(r.random) * float(s.clipCount)),
                                                          s.clipCount - 1)];
        r.phase = randomUnit(r.random) * clips[r.clip].duration;
        const float duration = s.minSeconds + s.spanSeconds * randomUnit(r.random);
        // Somewhere into the state already, so the crowd's states do not all end together.
        r.stateEnd = duration * randomUnit(r.random);
        r.turnRate = 0.0f;
    }
}

} // namespace horde
