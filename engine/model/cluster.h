#pragma once
// Vertex clustering on a uniform grid: what a level can still lose once edge collapses stall, as
// they do on meshes made of many small pieces (armour plates, hair cards, a model built from
// separate parts) or whose every vertex is a seam. Like meshoptimizer's sloppy simplifier, the
// vertices of a cell move to one position, a vertex of theirs, and triangles left with fewer than
// three cells vanish, so pieces merge where they lie close; unlike it, a cell's vertices move
// together only within one region (bones, materials), and each side of a seam keeps its own
// vertex at the new position where it has one, so seams stay seams and stay closed.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace horde {

// The triangles left by clustering with cells `cell` wide (from the positions' lower corner), as
// vertex triples, each at most once. `regions[v]` is the region of vertex v: only vertices of one
// cell and one region form a cluster, which moves to one of its positions: the one held by the most
// sides in the cell (a side: vertices of the cell joined by triangle edges inside it; a seam's
// sides, or a region's edge, hold their shared positions alike), then the one nearest to the
// planes of the cell's triangles (their quadric error, weighted by area, so a corner of the
// surface survives), then the lowest. Each side moves to its own vertex at that position where
// it has one, else to the cluster's. A triangle whose corners lie in three clusters survives,
// with its winding, unless its corners then lie in a line; one without area in the first place
// is left out too. `triangles` index `positions` and `regions`;
// named positions must be finite; a trailing partial triple is ignored.
std::vector<uint32_t> clusterTriangles(std::span<const glm::vec3> positions,
                                       std::span<const uint64_t> regions, std::span<const uint32_t> triangles,
                                       float cell);

// clusterTriangles for the smallest cell (of a search over sizes) that leaves at most
// `targetTriangles`; empty when the triangles have no extent.
std::vector<uint32_t> clusterToTarget(std::span<const glm::vec3> positions, std::span<const uint64_t> regions,
                                      std::span<const uint32_t> triangles, uint32_t targetTriangles);

// Each vertex's piece, named by its lowest vertex: vertices joined by `triangles` (index triples;
// a trailing partial one is ignored) or by sharing a position, so that a seam does not cut a
// piece in two.
std::vector<uint32_t> piecesOf(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles);

} // namespace horde
