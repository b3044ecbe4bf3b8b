#pragma once
// A GAWB file's mesh headers, pieces, per-mesh bone lists and material names, checked against
// the file size before anything is allocated; then one mesh's vertices and indices decoded
// straight into engine storage.
#include <string>
#include <vector>

#include "asset/mesh_storage.h"
#include "swtor/swtor.h"

namespace horde::swtor {

struct Piece {
    uint32_t firstTriangle = 0;
    uint32_t triangles = 0;
    int32_t material = -1; // into the material-name table, -1 for none
};

struct MeshInfo {
    std::string name;
    uint16_t mask = 0;        // vertex-format bits (gawb.h)
    uint16_t vertexSize = 0;
    uint32_t numVertices = 0;
    uint32_t numIndices = 0;
    uint32_t offsetVertices = 0;
    uint32_t offsetIndices = 0;
    std::vector<Piece> pieces;
    std::vector<std::string> bones; // the mesh's own bone list, which vertex bone indices index
};

// Check r.ok() after each.
std::vector<MeshInfo> readMeshes(Reader& r, const Header& h);
std::vector<std::string> readMaterialNames(Reader& r, const Header& h);

uint32_t uvSetCount(uint16_t mask);
// Storage for `m`; `skinned` keeps the skin bytes (false when there is no skeleton to bind to).
MeshLayout layoutFor(const MeshInfo& m, bool skinned);
// Decodes into arrays allocated from layoutFor(m, ...). Vertex bone indices stay indices into
// m.bones. A mesh without normals gets area-weighted face normals.
bool decodeMesh(Reader& r, const MeshInfo& m, MeshArrays& a);

} // namespace horde::swtor
