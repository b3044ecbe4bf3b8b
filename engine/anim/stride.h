#pragma once
// The ground speed of a walk that plays in place, measured from its skinned feet. Over the clip,
// the vertices within kContactShare of the model's height above its lowest point are on the
// ground, and those on it for the longest run any vertex has are planted: the sole that stays down
// through a foot's stance (long in a walk, short in a run), not a heel touching down or a toe
// rolling off. A planted vertex moves between two
// samples by the clip alone, so an instance that keeps it still moves the opposite way as fast:
// the stride velocity is the median of those steps' velocities along their mean direction,
// reversed. What it leaves is the planted foot's drift: how far, in the world, a planted vertex
// still slides over its stance once the instance moves at that velocity, as a share of the stride
// (the distance covered in one cycle of the clip).
#include <glm/glm.hpp>

#include "model/model.h"

namespace horde {

constexpr float kContactShare = 0.01f;
constexpr uint32_t kStrideSamples = 64;

struct Stride {
    glm::vec3 velocity{0.0f}; // model units per clip second, across the ground (0: nothing planted)
    float length = 0.0f;      // |velocity| x duration: the distance one cycle covers
    float drift = 0.0f;       // the largest slide of a planted vertex over one contact, model units
};

// `velocity`: the instance's across the ground, or none to measure it first (plantedVelocity).
Stride measureStride(const Model& model, const Clip& clip, const glm::vec3* velocity = nullptr);

} // namespace horde
