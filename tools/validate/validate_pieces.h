#pragma once
// Meshes a format's writer cut into pieces, joined back for comparison. NWN holds one material,
// at most 65535 vertices and 17 bones per mesh node, so its writers put a node's second and later
// mesh pieces on child nodes of their own (docs/formats/nwn.md, "Writer"); the format says which
// nodes those are (Format::addedNodes, loader.h).
#include "model/model.h"

namespace horde {

// When B's format joins pieces (AddedNodes::joinPieces), merges the mesh of each piece node into
// the mesh of its parent node (the node's first piece), so that B has A's meshes for the vertex,
// attribute, material and pose checks: vertices and triangles appended in order, one submesh per
// piece, skinned pieces' joints joined and numbered as A's mesh at the same place numbers them
// (the joint check's order; A's joints that no vertex weighs, which a piece's skin cannot list,
// are taken from B's nodes of the same name; a skinned mesh of one piece is renumbered the same
// way). Pieces whose parent holds no mesh, or that differ from it in skinning or streams, are
// left alone.
void mergePieces(const Model& a, Model& b, MeshAllocator& allocator);

} // namespace horde
