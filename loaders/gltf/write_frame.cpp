#include "gltf/gltf.h"

#include <cmath>

#include "model/axes.h"

namespace horde::gltf {

glm::vec4 Frame::rotation(glm::vec4 q) const {
    glm::vec3 axis = permutation * glm::vec3(q) * determinant;
    return {axis, q.w};
}

glm::vec3 Frame::scale(glm::vec3 s) const {
    // P diag(s) P^-1 is diag(|P| s): the axes move, the signs of the permutation cancel, and a
    // mirror (a negative factor) stays one; glTF's node.scale may be negative (the winding then
    // follows the determinant, glTF 2.0 section 3.7.4).
    glm::mat3 magnitude = permutation;
    for (int c = 0; c < 3; ++c)
        magnitude[c] = glm::abs(magnitude[c]);
    return magnitude * s;
}

glm::mat4 Frame::matrix(const glm::mat4& m) const {
    // (P s) m (P s)^-1: the linear part is conjugated by P, the translation converted as a point.
    glm::mat3 linear = permutation * glm::mat3(m) * glm::transpose(permutation);
    glm::mat4 out(linear);
    out[3] = glm::vec4(point(glm::vec3(m[3])), 1.0f);
    return out;
}

Frame frameOf(const Axes& axes) {
    // The file's axes are the world's, so a model's own way into the world is the whole change.
    const Axes file = fileAxes();
    Frame f;
    f.permutation = glm::mat3(axesToWorld(axes));
    f.determinant = axes.leftHanded != file.leftHanded ? -1.0f : 1.0f;
    f.metres = axes.metresPerUnit / file.metresPerUnit;
    f.flipWinding = frontFaceClockwise(axes) != frontFaceClockwise(file);
    return f;
}

} // namespace horde::gltf
