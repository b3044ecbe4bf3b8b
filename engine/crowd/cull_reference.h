#pragma once
// The CPU reference of the cull pass (shaders/cull.comp), in double precision: whether an
// instance is drawn, at which level each mesh is drawn, and whether it borrows a shared pose.
// Tests hold the GPU's lists to it.
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "crowd/crowd_settings.h"

namespace horde {

// Planes with inward normals (xyz) and offsets (w), normalized, from a Vulkan (depth 0..1)
// view-projection: left, right, bottom, top, near, far.
std::array<glm::vec4, 6> frustumPlanes(const glm::mat4& viewProjection);

struct CullCamera {
    std::array<glm::vec4, 6> planes{};
    glm::vec3 eye{0.0f};
    float pixelsPerUnit = 1.0f; // pixels one world unit covers at distance 1
    // The widest point sprite the device draws: an impostor's most (Device::largestPoint).
    float largestPoint = std::numeric_limits<float>::infinity();
};

// The most pixels across an impostor's point can need (shaders/cull.comp's impostorSpan): its
// rectangle lies in the sphere of sqrt(2) times the radius, whose picture at an angle a off the
// view's axis spans at most 2 f sin(b) / (cos(a)^2 - sin(b)^2), sin(b) that radius over the
// distance; and a pixel for rounding. Infinite where the sphere reaches past the eye's side.
double impostorSpan(const CullCamera& camera, glm::dvec3 centre, double radius);

// One instance as the cull pass sees it.
struct CullInstance {
    glm::vec3 position{0.0f}; // world placement
    float yaw = 0.0f;
    int32_t clip = -1;     // -1: bind pose
    double clipTime = 0.0; // where in its clip it is this frame
    // In a cross-fade: the clip it fades from, where in that clip, and its own clip's weight (1: none).
    int32_t fromClip = -1;
    double fromTime = 0.0;
    double fade = 1.0;
};

struct CullModelInfo {
    glm::vec4 sphere{0.0f}; // every pose, in world axes: centre, radius
    std::vector<float> clipDuration;
    std::vector<float> clipSpeed;                // vertex speed bound per clip, units per clip second
    std::vector<std::vector<float>> levelErrors; // per mesh, per level (level 0 first)
    uint32_t bucketsPerClip = 64;
    bool blends = false;     // the scene keeps a shared-blend table (CrowdFrame.blendSlots)
    float blendError = 0.0f; // what a weight step's rounding may move a vertex (CrowdFrame.blendError)
};

struct CullDecision {
    bool visible = false;
    std::vector<uint32_t> levels; // per mesh
    bool sharedPose = false;      // drawn with the pose of its clip's time bucket
    uint32_t bucket = 0;          // that bucket (clip x buckets + bucket; the last one is the bind pose)
    double pixelsPerUnit = 0.0;   // at the sphere's nearest point
    // From the eye to the sphere's centre: what its distance bucket is taken from.
    double centreDistance = 0.0;
    bool impostor = false; // drawn as one quad of the atlas, with the shared pose of its bucket
    uint32_t view = 0;     // the atlas view it is drawn from (impostorView)
    // Crossing into an impostor: drawn as meshes and as impostor (at the impostor's shared pose),
    // the meshes taking this share of the samples (the rest the impostor's), in HORDE_FADE_STEPS
    // steps (the GPU's fadeStep); 0 where it is one or the other.
    double meshShare = 0.0;
    uint32_t fadeStep = 0;
    // In a cross-fade, the shared blend it may take (common.glsl blendKey), HORDE_NONE where it
    // needs an own pose; the table may still give it one (a slot another key holds).
    uint32_t blendKey = 0xFFFFFFFFu;
};

// The atlas view for an eye in direction `toEye` from an instance turned by `heading` (the
// shaders' impostorView): azimuth steps around the model, elevation steps up from its horizon.
uint32_t impostorView(glm::dvec3 toEye, double heading);

CullDecision cullInstance(const CullModelInfo& model, const CullInstance& instance, const CullCamera& camera,
                          const CrowdSettings& settings);

// Which of `buckets` equal steps of [0, far) a sphere centre this far from the eye falls in (the
// last holds everything beyond).
uint32_t distanceBucket(double centreDistance, double far, uint32_t buckets);

// How the budget pass (budget.comp) shares out what the shared poses left of the vertex pool,
// from own-pose instances' skinned vertices per distance bucket at the levels they want and at
// every mesh's coarsest level: buckets before coarseFrom keep their levels, those from it take
// the coarsest, those from dropFrom are not drawn. The nearest keep the most; nothing is dropped
// while every own-pose instance fits at its coarsest.
struct PoolBudget {
    uint32_t coarseFrom = 0, dropFrom = 0;
};
PoolBudget poolBudget(std::span<const uint64_t> wanted, std::span<const uint64_t> coarsest, uint64_t left);

// Where each draw list starts once the lists are laid one after another (lists.comp): the
// exclusive prefix sum of their counts.
std::vector<uint32_t> listStarts(std::span<const uint32_t> counts);

} // namespace horde
