#include "render/view.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace horde {

glm::mat4 axesToWorld(const Axes& axes) {
    glm::mat4 m(1.0f);
    if (axes.up == Axes::Up::Z) m = glm::mat4(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, -1, 0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 0, 0, 1));
    if (axes.leftHanded) m = glm::scale(glm::mat4(1.0f), glm::vec3(1, 1, -1)) * m;
    return m;
}

bool frontFaceClockwise(const Axes& axes) { return axes.clockwiseFrontFaces != axes.leftHanded; }

glm::vec3 OrbitCamera::eye() const {
    glm::vec3 dir(std::sin(yaw) * std::cos(pitch), std::sin(pitch), std::cos(yaw) * std::cos(pitch));
    return target + dir * distance;
}

glm::mat4 OrbitCamera::viewProjection(float aspect, float sceneRadius) const {
    float nearPlane = std::max(distance - sceneRadius * 1.5f, distance * 0.01f);
    float farPlane = distance + sceneRadius * 1.5f;
    glm::mat4 proj = glm::perspectiveRH_ZO(fovY, aspect, nearPlane, farPlane);
    proj[1][1] *= -1.0f;
    return proj * glm::lookAtRH(eye(), target, glm::vec3(0, 1, 0));
}

OrbitCamera frameBounds(const Bounds& world, float aspect) {
    OrbitCamera camera;
    camera.target = world.center();
    float radius = std::max(world.radius(), 1e-3f);
    float halfFov = camera.fovY * 0.5f;
    float horizontal = std::atan(std::tan(halfFov) * aspect);
    camera.distance = radius / std::sin(std::min(halfFov, horizontal)) * 1.05f;
    return camera;
}

Bounds toWorld(const Bounds& b, const glm::mat4& m) {
    Bounds out{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? b.max.x : b.min.x, (corner & 2) ? b.max.y : b.min.y, (corner & 4) ? b.max.z : b.min.z);
        glm::vec3 w = glm::vec3(m * glm::vec4(p, 1.0f));
        out.min = glm::min(out.min, w);
        out.max = glm::max(out.max, w);
    }
    return out;
}

} // namespace horde
