#pragma once
// Which meshes the rest pose draws mirrored. A transform whose determinant is negative (a node
// scaled by -1 along an axis, as modelling tools write a mirrored copy) turns every triangle's
// winding around on screen, so a renderer that culls back faces must take the other winding as
// the front for that mesh (glTF 2.0, section 3.7.4: "the determinant of the node's global
// transform defines the winding order"; three.js flips its front face per object the same way).
#include <vector>

#include "model/model.h"

namespace horde {

// Per mesh: whether its rest-pose skinning transform mirrors. A static mesh's is its node's model
// transform; a skinned vertex's is the blend of its joints' palette entries, and a mesh is
// mirrored where more of its vertices are than are not (a mesh can take only one front face). A
// clip that drives a scale through zero changes the sign mid-clip: the rest pose decides.
std::vector<bool> mirroredMeshes(const Model& model);

} // namespace horde
