#pragma once
// The attribute views of `horde validate`: a model's pose drawn on the CPU (z-buffered, both
// faces, perspective-correct) with its texture coordinates as a procedural checker or its normals
// as colours. The shaded render shows the shape; these show what the shape alone hides.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "anim/reference.h"
#include "model/model.h"
#include "render/headless.h"

namespace horde {

enum class AttributeView : uint8_t {
    UvChecker, // uv0 as 8 x 8 tiles per unit, shaded by (u, v), the tile at (0, 0) marked
    Normals    // normal n in the common frame as the colour 0.5 + 0.5 n
};

const char* viewName(AttributeView view); // "uv", "normals": file names and report keys

// Colour of the checker at (u, v): red grows with u, green with v, alternate tiles darker, the
// tile at the origin magenta, so a flip, a swap or an offset of the set changes it everywhere.
glm::vec3 checkerColor(glm::dvec2 uv);

// `posed` is the pose in metres (metresPose), `viewProjection` the validate camera's.
Image8 rasterize(const Model& model, const std::vector<PosedMesh>& posed, const glm::mat4& viewProjection,
                 uint32_t width, uint32_t height, AttributeView view);

} // namespace horde
