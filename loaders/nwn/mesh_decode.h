#pragma once
// Mesh nodes: trimesh, skin, dangly and animmesh nodes become horde meshes; AABB walkmeshes and
// meshes with render 0 are checked and reported (Model::extras) but not drawn.
#include <vector>

#include "asset/model.h"
#include "node_tree.h"

namespace horde::nwn {

// `restModel`: every node's rest model transform (skin vertices are stored in their node's
// space and moved to model space here; joints' inverse binds come from the rest pose).
bool decodeMesh(File& file, const std::vector<RawNode>& nodes, uint32_t index, const std::vector<glm::mat4>& restModel,
                Model& model, MeshAllocator& allocator);

} // namespace horde::nwn
