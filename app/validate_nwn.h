#pragma once
// What the NWN writers change in a model's tree, recognised exactly (docs/formats/nwn.md,
// "Writer"): the model's root dummy, named after the model, above the source's roots; and a
// node's second and later mesh pieces (the format holds one material, at most 65535 vertices and
// 17 bones per mesh node) as its children "<node cut to 26 characters>_<k>", k from 1, with an
// identity rest transform and no children. validate reports them as a mapping, not a difference.
#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"

namespace horde {

struct NwnChanges {
    int32_t root = -1;            // B's added root; -1 when there is none
    std::vector<uint32_t> pieces; // B nodes holding further pieces
    std::vector<bool> mapped;     // per B node: the root or a piece node
};

// Empty unless B was read from an NWN file (format nwn or nwn-ascii).
NwnChanges nwnChanges(const Model& a, const Model& b);

// Merges the mesh of each recognised piece node into the mesh of its parent node (the node's
// first piece), so that B has A's meshes for the vertex, attribute, material and pose checks:
// vertices and triangles appended in order, one submesh per piece, skinned pieces' joints joined
// and numbered as A's mesh at the same place numbers them (the joint check's order; A's joints
// that no vertex weighs, which a skin node's bone table cannot list, are taken from B's nodes of
// the same name; a skinned mesh of one piece is renumbered the same way). Pieces whose parent
// holds no mesh, or that differ from it in skinning or streams, are left alone.
void mergeNwnPieces(const Model& a, Model& b, MeshAllocator& allocator);

} // namespace horde
