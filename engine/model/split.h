#pragma once
// Cuts a mesh into parts of bounded vertex count, for formats whose indices are narrower than
// the engine's but that hold several meshes per file (SWTOR's GAWB indices are 16-bit).
#include <cstdint>
#include <vector>

#include "model/model.h"

namespace horde {

// Walks the triangles submesh by submesh, in order, and starts a new part whenever the next
// triangle's vertices not yet in the current part would take it past maxVertices (taken as at
// least 3, so that every triangle fits somewhere). Each part:
//  - holds every stream the source has (and its dangly constraints), for the vertices its
//    triangles use, numbered in order of first use; vertices no triangle uses are dropped, so a
//    source that already fits still comes back renumbered (callers that want it untouched skip
//    splitting);
//  - keeps the source's node and skin (joint indices are unchanged);
//  - has one submesh per stretch of a source submesh it holds, same material, firstIndex and
//    indexCount into the part; submeshes without a whole triangle vanish, as do the indices of
//    a trailing partial triangle;
//  - uses 16-bit indices when it has 65536 vertices or fewer, has its bounds set and is
//    committed;
//  - is named "<source name>.<k>", k counting parts from 0.
// A mesh without a whole triangle gives no part. Linear in the vertex and index counts. The
// mesh must be valid (validateModel).
std::vector<Mesh> splitMesh(const Mesh& mesh, uint32_t maxVertices, MeshAllocator& allocator);

} // namespace horde
