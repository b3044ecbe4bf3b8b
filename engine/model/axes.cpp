#include "model/axes.h"

#include <glm/gtc/matrix_transform.hpp>

namespace horde {

glm::mat4 axesToWorld(const Axes& axes) {
    glm::mat4 m(1.0f);
    if (axes.up == Axes::Up::Z) m = glm::mat4(glm::vec4(1, 0, 0, 0), glm::vec4(0, 0, -1, 0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 0, 0, 1));
    if (axes.leftHanded) m = glm::scale(glm::mat4(1.0f), glm::vec3(1, 1, -1)) * m;
    return m;
}

bool frontFaceClockwise(const Axes& axes) { return axes.clockwiseFrontFaces != axes.leftHanded; }

} // namespace horde
