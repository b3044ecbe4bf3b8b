#pragma once
// Normals for meshes whose files store none.
#include <glm/glm.hpp>

#include "model/mesh_storage.h"

namespace horde {

// Area-weighted face normals: each vertex gets the normalized sum of the cross products of the
// triangles that use it; a vertex no triangle reaches, or only triangles without area, gets
// `fallback`. Triangles naming a vertex past the mesh are skipped (validateModel rejects them).
void faceNormals(MeshArrays& a, glm::vec3 fallback);

} // namespace horde
