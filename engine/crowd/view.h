#pragma once
// Where the camera is, and boxes moved from a file's axes into the world (model/axes.h).
#include <glm/glm.hpp>

#include "crowd/crowd_settings.h"
#include "model/axes.h"
#include "model/model.h"

namespace horde {

struct OrbitCamera {
    glm::vec3 target{0.0f};
    float distance = 5.0f;
    float yaw = 0.6f;    // radians about +Y, 0 looks down -Z
    float pitch = 0.35f; // radians above the horizon
    float fovY = 0.7f;
    float nearPlane = 0.0f; // 0: fitted to the scene around the target

    glm::vec3 eye() const;
    // Vulkan clip space: depth 0..1, Y down.
    glm::mat4 viewProjection(float aspect, float sceneRadius) const;
};

// What a frame is drawn from, and what culling and level choice need of it.
struct ViewCamera {
    glm::mat4 viewProjection{1.0f};
    glm::vec3 eye{0.0f};
    float pixelsPerUnit = 1.0f; // pixels one world unit covers at distance 1
};

ViewCamera orbitView(const OrbitCamera& camera, float aspect, float sceneRadius, uint32_t viewportHeight);
// Eye height at the middle of the crowd's near edge (+Z), looking across it along -Z, slightly
// down: most of the crowd ahead and much of it far away.
OrbitCamera streetCamera(const Bounds& world, float groundHeight, float eyeHeight);

// A camera at the given heading that fits a world-space box (all eight corners) in view.
OrbitCamera frameBounds(const Bounds& world, float aspect, float yaw = 0.6f, float pitch = 0.35f);

// The crowd as a person looks at it: from its front edge (+Z) across it, near enough that a
// monster `modelHeight` tall in the front row (the largest z of `placements`, where instances
// stand) stands `pixels` tall near the bottom of a viewport `viewportHeight` high, and steep
// enough that the crowd's far edge reaches the top of the frame. A crowd that fits the frame
// whole (`world`) with its nearest monsters that tall is framed whole.
OrbitCamera frontCamera(const Bounds& world, const Bounds& placements, float groundHeight, float modelHeight,
                        float aspect, uint32_t viewportHeight, float pixels);

// The framed camera with what `picture` gives in its place (its yaw, pitch and distance).
OrbitCamera aroundFramed(OrbitCamera framed, const PictureSettings& picture);

// How tall, in pixels of a viewport `viewportHeight` high, a vertical segment from `foot` up
// `height` world units projects (0 when any of it is behind the eye).
float projectedHeight(const glm::mat4& viewProjection, glm::vec3 foot, float height, uint32_t viewportHeight);

// A box in the file's axes, moved into world axes.
Bounds toWorld(const Bounds& model, const glm::mat4& axesToWorld);

} // namespace horde
