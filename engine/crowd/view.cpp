#include "crowd/view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>

namespace horde {

glm::vec3 OrbitCamera::eye() const {
    glm::vec3 dir(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
    return target + dir * distance;
}

glm::mat4 OrbitCamera::viewProjection(float aspect, float sceneRadius) const {
    float nearZ = nearPlane > 0.0f ? nearPlane : std::max(distance - sceneRadius * 1.5f, distance * 0.01f);
    float farZ = distance + sceneRadius * 2.0f;
    glm::mat4 proj = glm::perspectiveRH_ZO(fovY, aspect, nearZ, farZ);
    proj[1][1] *= -1.0f;
    return proj * glm::lookAtRH(eye(), target, glm::vec3(0, 1, 0));
}

OrbitCamera frameBounds(const Bounds& world, float aspect, float yaw, float pitch) {
    OrbitCamera camera;
    camera.target = world.center();
    camera.yaw = yaw;
    camera.pitch = pitch;
    glm::vec3 back(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
    glm::vec3 right = glm::normalize(glm::cross(glm::vec3(0, 1, 0), back));
    glm::vec3 up = glm::cross(back, right);
    float tanY = std::tan(camera.fovY * 0.5f) * 0.95f, tanX = tanY * aspect;
    // Each corner needs the eye far enough back that it projects inside both half-angles.
    float distance = 1e-3f;
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p =
            glm::vec3((corner & 1) ? world.max.x : world.min.x, (corner & 2) ? world.max.y : world.min.y,
                      (corner & 4) ? world.max.z : world.min.z) -
            camera.target;
        float toward = glm::dot(p, back);
        distance = std::max(distance, toward + std::abs(glm::dot(p, right)) / tanX);
        distance = std::max(distance, toward + std::abs(glm::dot(p, up)) / tanY);
    }
    camera.distance = distance;
    return camera;
}

float projectedHeight(const glm::mat4& viewProjection, glm::vec3 foot, float height,
                      uint32_t viewportHeight) {
    const glm::vec4 a = viewProjection * glm::vec4(foot, 1.0f);
    const glm::vec4 b = viewProjection * glm::vec4(foot + glm::vec3(0.0f, height, 0.0f), 1.0f);
    if (a.w <= 0.0f || b.w <= 0.0f) return 0.0f;
    return std::abs(a.y / a.w - b.y / b.w) * 0.5f * float(viewportHeight);
}

OrbitCamera frontCamera(const Bounds& world, const Bounds& placements, float groundHeight, float modelHeight,
                        float aspect, uint32_t viewportHeight, float pixels) {
    const float sceneRadius = world.radius();
    // Framed whole, the ground corner nearest the eye stands for the front row.
    const OrbitCamera whole = frameBounds(world, aspect, 0.6f, 0.55f);
    const glm::mat4 wholeView = whole.viewProjection(aspect, sceneRadius);
    float nearest = 0.0f;
    for (float x : {placements.min.x, placements.max.x})
        for (float z : {placements.min.z, placements.max.z})
            nearest = std::max(nearest, projectedHeight(wholeView, glm::vec3(x, groundHeight, z), modelHeight,
                                                        viewportHeight));
    if (nearest >= pixels) return whole;

    // For a pitch p below the horizon and the front row at depth k along the view axis, the eye
    // stands `height` above the ground and `ahead` in front of the row so that the row's feet
    // are seen 0.8 of the half field below the axis. k starts where a vertical segment would
    // project to `pixels` at one depth, then follows the segment's true projection (its head is
    // nearer the eye than its feet). The pitch grows until the crowd's far edge is seen at or
    // above the frame's top.
    OrbitCamera camera;
    camera.yaw = 0.0f;
    const float t = std::tan(camera.fovY * 0.5f);
    const float pixelsPerUnit = float(viewportHeight) / (2.0f * t);
    const float front = placements.max.z, depth = placements.max.z - world.min.z;
    const glm::vec3 foot(placements.center().x, groundHeight, front);
    for (float pitch = 0.35f;; pitch += 0.02f) {
        const glm::vec3 back(0.0f, std::sin(pitch), std::cos(pitch));
        float k = modelHeight * std::cos(pitch) * pixelsPerUnit / pixels;
        float height = 0.0f, ahead = 0.0f;
        for (int pass = 0; pass < 4; ++pass) {
            height = k * (std::sin(pitch) + 0.8f * t * std::cos(pitch));
            ahead = k * (std::cos(pitch) - 0.8f * t * std::sin(pitch));
            camera.pitch = pitch;
            camera.distance = k;
            camera.target = glm::vec3(foot.x, groundHeight + height, front + ahead) - back * k;
            camera.nearPlane = std::max(k * 0.05f, 1e-3f);
            const float seen = projectedHeight(camera.viewProjection(aspect, sceneRadius), foot, modelHeight,
                                               viewportHeight);
            if (seen <= 0.0f) break;
            k *= seen / pixels;
        }
        // The far edge is seen atan(height / distance) below the horizon, the frame's top edge
        // pitch - fovY / 2 below it.
        if (std::atan2(height, ahead + depth) <= pitch - camera.fovY * 0.5f || pitch >= 1.2f) return camera;
    }
}

ViewCamera orbitView(const OrbitCamera& camera, float aspect, float sceneRadius, uint32_t viewportHeight) {
    return {camera.viewProjection(aspect, sceneRadius), camera.eye(),
            float(viewportHeight) / (2.0f * std::tan(camera.fovY * 0.5f))};
}

OrbitCamera streetCamera(const Bounds& world, float groundHeight, float eyeHeight) {
    glm::vec3 size = world.max - world.min;
    float ahead = std::max({size.x, size.z, 1e-3f}) * 0.3f;
    OrbitCamera camera;
    camera.target = glm::vec3(world.center().x, groundHeight, world.max.z - ahead);
    camera.yaw = 0.0f;
    camera.pitch = std::atan2(eyeHeight, ahead);
    camera.distance = std::sqrt(eyeHeight * eyeHeight + ahead * ahead);
    camera.fovY = 0.9f;
    camera.nearPlane = eyeHeight * 0.05f;
    return camera;
}

Bounds toWorld(const Bounds& b, const glm::mat4& m) {
    Bounds out{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? b.max.x : b.min.x, (corner & 2) ? b.max.y : b.min.y,
                    (corner & 4) ? b.max.z : b.min.z);
        glm::vec3 w = glm::vec3(m * glm::vec4(p, 1.0f));
        out.min = glm::min(out.min, w);
        out.max = glm::max(out.max, w);
    }
    return out;
}

OrbitCamera aroundFramed(OrbitCamera framed, const PictureSettings& picture) {
    constexpr float radians = std::numbers::pi_v<float> / 180.0f;
    if (!std::isnan(picture.yaw)) framed.yaw = picture.yaw * radians;
    if (!std::isnan(picture.pitch)) framed.pitch = picture.pitch * radians;
    if (!std::isnan(picture.distance)) {
        framed.distance = picture.distance;
        framed.nearPlane = 0.0f; // fitted again to the new distance
    }
    return framed;
}

} // namespace horde
