#pragma once
// glTF is right-handed, Y-up, in metres. horde's axesToWorld() is always a signed permutation
// (Z-up turned upright, left-handed mirrored along Z), so the writer converts every vector,
// rotation, scale and matrix into glTF's frame exactly: no root node is added, the hierarchy
// stays the file's own, and a model already in glTF's axes is written bit for bit.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asset/model.h"

namespace horde::gltf {

struct Frame {
    glm::mat3 permutation{1.0f}; // signed permutation: file axes -> glTF axes
    float determinant = 1.0f;    // -1 when the file is mirrored into glTF
    float metres = 1.0f;         // metres per file unit
    bool flipWinding = false;    // file front faces wind clockwise once in glTF's frame

    glm::vec3 point(glm::vec3 p) const { return permutation * p * metres; }
    glm::vec3 direction(glm::vec3 d) const { return permutation * d; }
    // A rotation conjugated by the permutation: its axis is a pseudo-vector.
    glm::vec4 rotation(glm::vec4 xyzw) const;
    // Per-axis scale factors land on the permuted axes.
    glm::vec3 scale(glm::vec3 s) const;
    // A model-space -> joint-space matrix with both spaces converted.
    glm::mat4 matrix(const glm::mat4& m) const;
};

Frame frameOf(const Axes& axes);

} // namespace horde::gltf
