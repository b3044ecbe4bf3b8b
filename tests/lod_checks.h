#pragma once
// What the LOD tests check of any chain, and the meshes they build by hand: a chain's promises
// whatever the mesh, its levels' triangles as source vertices, open edges, tears when posed, and
// each level's error found by brute force.
#include <array>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "model/lod.h"
#include "model/model.h"

namespace horde::test {

using Triangle = std::array<uint32_t, 3>;

// The same triangle whichever corner comes first (winding kept).
Triangle canonical(Triangle t);

// One submesh's triangles of a level, as source vertices: canonical and sorted, or as stored.
std::vector<Triangle> levelTriangles(const LodChain& chain, size_t level, size_t submesh, bool sorted = true);
std::vector<Triangle> sourceTriangles(const Mesh& mesh, size_t submesh);
uint32_t triangles(const LodLevel& level);
// Per source vertex: whether the level's triangles use it.
std::vector<bool> used(const LodChain& chain, size_t level, size_t vertexCount);

// Everything the chain promises whatever the mesh.
void expectWellFormed(const Mesh& mesh, const LodChain& chain);

// A model holding `mesh` at its root, with a two-joint skin (joint b 4 along z, bending in the
// model's one clip) that skinned meshes use.
Model modelOf(Mesh mesh);
// A tube of radius 1 along z, open at both ends: 9 rings 1 apart of 8 sides, each ring with a
// ninth vertex on its first (a UV seam: u runs 0 to 1 around each ring), so 81 vertices and 8 x 8 x 2 = 128
// triangles. Submesh "front" holds the quads between rings 0 and 4 (64 triangles), "back" the rest (64); the
// two share ring 4. Joint 0 drives rings 0-5, joint 1 rings 7-8, ring 6 half each: bone regions split the
// back submesh in two.
constexpr uint32_t kRings = 9, kSides = 8, kRingVertices = kSides + 1;
Model tube(bool skinned);
// One submesh "only"; every normal +z; skinned ones wholly on joint 0.
Mesh meshOf(const std::vector<glm::vec3>& positions, const std::vector<uint32_t>& indices, bool skinned);

// Each vertex's id after welding vertices with identical positions.
std::vector<uint32_t> welded(const Mesh& mesh);
// Directed edges of the welded triangles that no edge the other way pairs, with multiplicity.
std::map<std::pair<uint32_t, uint32_t>, int> openEdges(const std::vector<std::vector<Triangle>>& submeshes,
                                                       const std::vector<uint32_t>& weld);
// Poses the model mid-clip with the CPU reference; wherever a level uses two vertices with the
// same bind position, they must land together (within 1e-5 of the model's size). Returns how many
// such pairs there were.
size_t expectNoTears(const Model& model, const LodChain& chain);

// What a level's error measures, by brute force over every pair: the largest distance from a
// point of the source surface (a vertex, an edge's midpoint, a triangle's centroid) to the nearest
// of the level's triangles.
double bruteForceError(const Mesh& mesh, const LodChain& chain, size_t level);
// Each simplified level's error (from `fromLevel` on) is the larger of the finer level's, its own
// brute-force distance and the brute-force size of what its shading loses (`options` as built).
void expectMeasuredErrors(const Mesh& mesh, const LodChain& chain, size_t fromLevel = 1,
                          const LodOptions& options = {});

} // namespace horde::test
