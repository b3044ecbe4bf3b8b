#pragma once
// Which vertex of B stands for which vertex of A, mesh by mesh. Writers and readers split or weld
// vertices at seams (a glTF vertex carries one UV, so a seam is two vertices), so counts may
// differ while the creature is the same: then vertices pair by position, and among those at one
// position by their attributes.
#include <cstdint>
#include <vector>

#include "anim/reference.h"
#include "model/model.h"

namespace horde {

struct MeshMatch {
    bool byOrder = false;      // counts agree: vertex i of A is vertex i of B
    std::vector<int32_t> bOfA; // the B vertex that best stands for each A vertex; -1: none
    std::vector<int32_t> aOfB; // and the other way
    size_t unmatchedA = 0, unmatchedB = 0;
};

// Meshes pair by index (the structure check reports a count that differs). `bindA`/`bindB` are
// the bind poses in metres (metresPose); vertices pair when within `tolerance` metres.
std::vector<MeshMatch> matchVertices(const Model& a, const Model& b, const std::vector<PosedMesh>& bindA,
                                     const std::vector<PosedMesh>& bindB, double tolerance);

// The pairs (vertex of A, vertex of B) to compare: both directions of a match, so that a B
// vertex no A vertex chose is compared too.
std::vector<std::pair<size_t, size_t>> vertexPairs(const MeshMatch& match);

} // namespace horde
