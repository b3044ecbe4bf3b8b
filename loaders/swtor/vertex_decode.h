#pragma once
// GAWB's interleaved vertices into the engine's separate streams.
#include <cstddef>
#include <span>

#include "asset/mesh_storage.h"
#include "mesh_decode.h"

namespace horde::swtor {

// Decodes the `m.numVertices` vertices in `vertices` (the bytes at m.offsetVertices) into `a`;
// joints and weights only when `a` has those streams. Fails through `r`, at the offending byte,
// when a weighted slot names a bone past the mesh's bone list.
bool decodeVertices(Reader& r, const MeshInfo& m, std::span<const std::byte> vertices, MeshArrays& a);

} // namespace horde::swtor
