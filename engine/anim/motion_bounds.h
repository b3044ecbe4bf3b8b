#pragma once
// How far and how fast a model's vertices can go under its clips, for culling animated instances
// with one sphere per instance and for choosing how often a far instance's animation must be
// updated. Computed once per model at load, from the CPU reference.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "model/model.h"

namespace horde {

struct Sphere {
    glm::vec3 center{0.0f};
    float radius = 0.0f;
};

struct MotionBounds {
    Sphere sphere;                // model space: holds every vertex of every mesh in the bind pose and in
                                  // every pose any clip reaches
    std::vector<float> clipSpeed; // per clip: an upper bound on any vertex's speed, model units per
                                  // second of clip time, between a stepped key's jumps (a jump is
                                  // instantaneous: no speed bounds it)
    Bounds poseBox;               // model space: the box around every vertex of the bind pose and of
                                  // every sampled pose (unpadded: where a crowd lays out instances)
    float displacement = 0.0f;    // the farthest any vertex gets from where the bind pose has it, over
                                  // the samples (unpadded): two poses differ by at most twice this
    std::vector<float> sampledSpeed; // per clip: the fastest any vertex moves between two samples
                                     // (unpadded: what clipSpeed bounds, kSpeedSafety times over)
};

// clipSpeed over sampledSpeed: what a vertex may do between two samples beyond what they show.
constexpr double kSpeedSafety = 2.0;

// Each clip is posed with the CPU reference at every key time within [0, duration] (stepped keys
// also just before), and at `samplesPerClip` evenly spaced times over it (ends included; those
// within a quarter spacing of a key are left to the key); wrapping clips thus include the way
// back to the first key. Each vertex's reach is padded for what it may do between two samples
// (see motion_bounds.cpp). The sphere's centre is the centre of the box around every posed
// vertex. A clip with no duration has speed 0. The model must be valid (validateModel). With
// `played` (per clip), only the clips it marks count; the others get speed 0.
MotionBounds motionBounds(const Model& model, uint32_t samplesPerClip = 64, const std::vector<bool>& played = {});

} // namespace horde
