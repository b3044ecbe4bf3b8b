#include "crowd/view.h"

#include <algorithm>
#include <cmath>

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

} // namespace horde
