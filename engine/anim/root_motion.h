#pragma once
// Root motion: a clip whose root node travels across the ground (Grimrock's walk carries the
// model a cell forward; a glTF clip whose hips move on) gives that travel to the instance that
// plays it, and is drawn in place. The travel is the root's displacement from its first key to
// its last, across the ground in model space (a Grimrock walk then wraps back to its first key
// in the time left); taking it out of the keys, at an even rate over their span, leaves what the
// root does about its path (a walk's bob and sway), so the clip loops without a jump and an
// instance moving travel a cycle (travel / duration) draws what the file draws as it walks
// straight ahead.
#include <cstdint>

#include <glm/glm.hpp>

#include "model/model.h"

namespace horde {

struct RootMotion {
    int32_t node = -1;      // the node that carries it; -1: the clip plays in place
    glm::vec3 travel{0.0f}; // model space, across the ground: the up axis's part stays in the clip
    float duration = 0.0f;
};

// A root moving less than this share of the bind pose's radius over a clip is its sway, not travel.
constexpr float kTravelShare = 0.1f;
// Travel is a cycle's: played in place, the clip must end where it began, every vertex within this
// share of the bind pose's radius (a clip that sits down or strikes a pose moves its root too).
constexpr float kLoopShare = 0.1f;

// The clip's root motion as the file has it. The root is the highest node that a translation
// channel keys and that moves what is drawn (a mesh's node or a joint, or an ancestor of one);
// of several at that depth, the one that travels farthest; and the clip, played in place, loops.
RootMotion rootMotionOf(const Model& model, const Clip& clip);

// `clip` (of `model`) played in place: its root's translation keys less the travel so far
// (travel x t / duration, turned into the root's parent frame), cubic keys' tangents less its rate.
void playInPlace(const Model& model, Clip& clip, const RootMotion& motion);

// Every clip of `model` played in place, its travel kept in Clip::travel. Applying it twice finds
// no travel the second time.
void extractRootMotion(Model& model);

} // namespace horde
