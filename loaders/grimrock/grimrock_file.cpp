#include "grimrock_file.h"

#include <cmath>
#include <fstream>

#include <glm/gtc/quaternion.hpp>

namespace horde::grimrock {

Axes fileAxes() {
    Axes axes;
    axes.up = Axes::Up::Y;
    axes.leftHanded = true;
    axes.clockwiseFrontFaces = true;
    return axes;
}

std::string readString(Reader& r, std::string_view field) {
    int32_t length = r.i32(field);
    if (!r.ok()) return {};
    if (length < 0) {
        r.fail(field, "string length " + std::to_string(length) + " is negative");
        return {};
    }
    if (!r.fits(uint64_t(length), 1, field)) return {};
    auto raw = r.bytes(size_t(length), field);
    return std::string(reinterpret_cast<const char*>(raw.data()), raw.size());
}

glm::mat4 readMat4x3(Reader& r, std::string_view field) {
    glm::mat4 m(1.0f);
    for (int c = 0; c < 4; ++c) m[c] = glm::vec4(r.vec3(field), c == 3 ? 1.0f : 0.0f);
    return m;
}

namespace {
// Columns whose cosine exceeds this are called sheared; float noise in exported files stays far below.
constexpr float kShearTolerance = 1e-3f;
constexpr float kTiny = 1e-12f;

// A unit vector perpendicular to `a` (for completing a basis that lost a column).
glm::vec3 perpendicular(glm::vec3 a) {
    glm::vec3 other = std::abs(a.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    return glm::normalize(glm::cross(a, other));
}
} // namespace

Decomposed decompose(const glm::mat4& local) {
    Decomposed out;
    out.trs.translation = glm::vec3(local[3]);
    glm::vec3 axis[3] = {glm::vec3(local[0]), glm::vec3(local[1]), glm::vec3(local[2])};
    glm::vec3 scale(glm::length(axis[0]), glm::length(axis[1]), glm::length(axis[2]));
    // A mirrored basis keeps a proper rotation by negating the X scale.
    if (glm::dot(axis[0], glm::cross(axis[1], axis[2])) < 0.0f) scale.x = -scale.x;
    bool zero[3];
    int zeros = 0;
    for (int i = 0; i < 3; ++i) {
        zero[i] = std::abs(scale[i]) <= kTiny;
        if (zero[i]) ++zeros;
        else axis[i] /= scale[i];
    }
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
    out.trs.scale = scale;
    out.trs.rotation = glm::normalize(glm::quat_cast(glm::mat3(axis[0], axis[1], axis[2])));
    return out;
}

Status Output::save(const std::filesystem::path& path) const {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) return Error{path.string() + ": cannot open for writing"};
    file.write(reinterpret_cast<const char*>(bytes_.data()), std::streamsize(bytes_.size()));
    if (!file) return Error{path.string() + ": write failed"};
    return Ok{};
}

} // namespace horde::grimrock
