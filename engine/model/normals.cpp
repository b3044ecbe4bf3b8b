#include "model/normals.h"

#include <algorithm>

namespace horde {

void faceNormals(MeshArrays& a, glm::vec3 fallback) {
    const size_t vertices = a.positions.size();
    const size_t indices = a.indices16.empty() ? a.indices32.size() : a.indices16.size();
    std::fill(a.normals.begin(), a.normals.end(), glm::vec3(0.0f));
    for (size_t i = 0; i + 2 < indices; i += 3) {
        const uint32_t v0 = a.index(i), v1 = a.index(i + 1), v2 = a.index(i + 2);
        if (v0 >= vertices || v1 >= vertices || v2 >= vertices) continue;
        const glm::vec3 n = glm::cross(a.positions[v1] - a.positions[v0], a.positions[v2] - a.positions[v0]);
        a.normals[v0] += n;
        a.normals[v1] += n;
        a.normals[v2] += n;
    }
    for (glm::vec3& n : a.normals) n = glm::length(n) > 0.0f ? glm::normalize(n) : fallback;
}

} // namespace horde
