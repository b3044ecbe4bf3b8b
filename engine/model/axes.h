#pragma once
// A file's own axes and how they map into horde's right-handed, Y-up world. Part of the asset
// model: the renderer draws with the map, and the writers convert between formats with it.
#include <cstdint>

#include <glm/glm.hpp>

namespace horde {

struct Axes {
    enum class Up : uint8_t { Y, Z } up = Up::Y;
    bool leftHanded = false;
    bool clockwiseFrontFaces = false;
    float metresPerUnit = 1.0f;
};

// Z-up files turn upright; left-handed files are mirrored along Z so they are not shown
// reversed (the mirror also flips their triangle winding; see frontFaceClockwise()). Always a
// signed permutation.
glm::mat4 axesToWorld(const Axes& axes);
// Whether front faces wind clockwise once in the world (the rasterizer's convention).
bool frontFaceClockwise(const Axes& axes);

} // namespace horde
