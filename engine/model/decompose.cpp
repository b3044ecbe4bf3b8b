#include "model/decompose.h"

#include <cmath>

namespace horde {

namespace {
constexpr float kShearTolerance = 1e-3f;
constexpr float kTiny = 1e-12f;

glm::vec3 perpendicular(glm::vec3 a) {
    glm::vec3 other = std::abs(a.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    return glm::normalize(glm::cross(a, other));
}
} // namespace

SplitTransform splitTransform(const glm::mat4& m) {
    SplitTransform out;
    out.translation = glm::vec3(m[3]);
    out.projective = m[0][3] != 0.0f || m[1][3] != 0.0f || m[2][3] != 0.0f || m[3][3] != 1.0f;
    glm::vec3 axis[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
    glm::vec3 scale(glm::length(axis[0]), glm::length(axis[1]), glm::length(axis[2]));
    if (glm::dot(axis[0], glm::cross(axis[1], axis[2])) < 0.0f) scale.x = -scale.x;
    bool zero[3];
    int zeros = 0;
    for (int i = 0; i < 3; ++i) {
        zero[i] = std::abs(scale[i]) <= kTiny;
        if (zero[i]) ++zeros;
        else axis[i] /= scale[i];
    }
    out.degenerate = zeros > 0;
    // Zero-scaled columns (bones hidden by scaling them away) carry no direction: rebuild them.
    if (zeros == 3) {
        axis[0] = glm::vec3(1, 0, 0), axis[1] = glm::vec3(0, 1, 0), axis[2] = glm::vec3(0, 0, 1);
    } else if (zeros == 2) {
        int keep = !zero[0] ? 0 : !zero[1] ? 1 : 2;
        axis[(keep + 1) % 3] = perpendicular(axis[keep]);
        axis[(keep + 2) % 3] = glm::cross(axis[keep], axis[(keep + 1) % 3]);
    } else if (zeros == 1) {
        int lost = zero[0] ? 0 : zero[1] ? 1 : 2;
        axis[lost] = glm::normalize(glm::cross(axis[(lost + 1) % 3], axis[(lost + 2) % 3]));
    }
    for (int i = 0; i < 3; ++i)
        if (std::abs(glm::dot(axis[i], axis[(i + 1) % 3])) > kShearTolerance) out.sheared = true;
    // Gram-Schmidt keeps X, then the part of Y orthogonal to it; Z completes a right-handed basis.
    glm::vec3 x = axis[0];
    glm::vec3 y = axis[1] - glm::dot(axis[1], x) * x;
    y = glm::length(y) > kTiny ? glm::normalize(y) : perpendicular(x);
    out.rotation = glm::normalize(glm::quat_cast(glm::mat3(x, y, glm::cross(x, y))));
    out.scale = scale;
    return out;
}

} // namespace horde
