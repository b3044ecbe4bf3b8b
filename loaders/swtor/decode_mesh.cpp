#include "swtor/swtor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <glm/gtc/packing.hpp>

#include "model/normals.h"
#include "index_copy.h"

namespace horde::swtor {

namespace {
std::string hex(uint32_t v) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%x", v);
    return text;
}

bool checkMask(Reader& r, size_t at, uint16_t mask, uint16_t vertexSize) {
    if (mask & ~kKnownMask)
        return r.failAt(at, "mesh.vertexFormat", "mask " + hex(mask) + " has bits horde does not know: " + hex(mask & ~kKnownMask));
    if (!(mask & kPosition)) return r.failAt(at, "mesh.vertexFormat", "mask " + hex(mask) + " has no position bit (0x1)");
    if (vertexSize != vertexSizeFor(mask))
        return r.failAt(at + 2, "mesh.vertexSize", std::to_string(vertexSize) + " does not match the " +
                                                       std::to_string(vertexSizeFor(mask)) + " bytes that mask " + hex(mask) + " implies");
    return true;
}

// Every mesh copies its own pieces and bone list, even where headers share one table: both are
// charged to the walk's copies.
std::vector<Piece> readPieces(Reader& r, const Header& h, const MeshInfo& m, uint32_t offset, uint16_t count, Budget& copies) {
    std::vector<Piece> pieces;
    if (!seekTable(r, offset, count, kPieceSize, "mesh.offsetMeshPieces") ||
        !r.charge(copies, uint64_t(count) * sizeof(Piece), "mesh.offsetMeshPieces"))
        return pieces;
    pieces.resize(count);
    const uint32_t triangles = m.numIndices / 3;
    for (Piece& p : pieces) {
        size_t at = r.offset();
        p.firstTriangle = r.u32("piece.firstFace");
        p.triangles = r.u32("piece.numFaces");
        p.material = r.i32("piece.materialIndex");
        r.i32("piece.index"); // an enumerator (or -1 when untextured); the order in the table is what counts
        r.skip(32, "piece.boundingBox");
        if (!r.ok()) break;
        if (uint64_t(p.firstTriangle) + p.triangles > triangles) {
            r.failAt(at, "piece.numFaces", "faces " + std::to_string(p.firstTriangle) + " + " + std::to_string(p.triangles) +
                                               " run past the " + std::to_string(triangles) + " faces of mesh '" + m.name + "'");
            break;
        }
        if (p.material < -1 || p.material >= int32_t(h.numMaterials)) {
            r.failAt(at + 8, "piece.materialIndex", std::to_string(p.material) + " is not -1 or one of the file's " +
                                                        std::to_string(h.numMaterials) + " materials");
            break;
        }
    }
    return pieces;
}

std::vector<std::string> readBoneList(Reader& r, uint32_t offset, uint16_t count, Budget& copies) {
    std::vector<std::string> names;
    if (!seekTable(r, offset, count, kMeshBoneSize, "mesh.offsetBones") ||
        !r.charge(copies, uint64_t(count) * sizeof(std::string), "mesh.offsetBones"))
        return names;
    names.resize(count);
    for (std::string& name : names) {
        name = readName(r, "meshBone.offsetName", copies);
        r.skip(24, "meshBone.bounds"); // the box of the vertices the bone moves; horde recomputes bounds
    }
    return names;
}

} // namespace

std::vector<MeshInfo> readMeshes(Reader& r, const Header& h) {
    std::vector<MeshInfo> meshes;
    if (!seekTable(r, h.offsetMeshHeaders, h.numMeshes, kMeshHeaderSize, "offsetMeshHeader")) return meshes;
    meshes.resize(h.numMeshes);
    Budget copies = copyBudget(r);
    for (size_t i = 0; i < meshes.size() && r.ok(); ++i) {
        MeshInfo& m = meshes[i];
        const size_t at = h.offsetMeshHeaders + i * kMeshHeaderSize;
        r.seek(at, "mesh");
        m.name = readName(r, "mesh.offsetMeshName", copies);
        r.u32("mesh.flags"); // 0 for skinned meshes, 128 otherwise in the Slicers' exporter; nothing depends on it
        uint16_t numPieces = r.u16("mesh.numPieces");
        uint16_t numBones = r.u16("mesh.numUsedBones");
        m.mask = r.u16("mesh.vertexFormat");
        m.vertexSize = r.u16("mesh.vertexSize");
        m.numVertices = r.u32("mesh.numVertices");
        m.numIndices = r.u32("mesh.numIndices");
        m.offsetVertices = r.u32("mesh.offsetMeshVertices");
        uint32_t offsetPieces = r.u32("mesh.offsetMeshPieces");
        m.offsetIndices = r.u32("mesh.offsetIndices");
        uint32_t offsetBones = r.u32("mesh.offsetBones");
        if (!r.ok() || !checkMask(r, at + 12, m.mask, m.vertexSize)) break;
        if (m.numIndices % 3 != 0) {
            r.failAt(at + 20, "mesh.numIndices", std::to_string(m.numIndices) + " is not a multiple of 3");
            break;
        }
        seekTable(r, m.offsetVertices, m.numVertices, m.vertexSize, "mesh.offsetMeshVertices");
        seekTable(r, m.offsetIndices, m.numIndices, 2, "mesh.offsetIndices");
        m.pieces = readPieces(r, h, m, offsetPieces, numPieces, copies);
        m.bones = readBoneList(r, offsetBones, numBones, copies);
    }
    if (!r.ok()) meshes.clear();
    return meshes;
}

std::vector<std::string> readMaterialNames(Reader& r, const Header& h) {
    std::vector<std::string> names;
    if (!seekTable(r, h.offsetMaterialNames, h.numMaterials, 4, "offsetMaterialNameOffsets")) return names;
    names.resize(h.numMaterials);
    Budget copies = copyBudget(r);
    for (std::string& name : names) name = readName(r, "materialName", copies);
    if (!r.ok()) names.clear();
    return names;
}

uint32_t uvSetCount(uint16_t mask) {
    uint32_t n = 0;
    for (uint16_t uv : kUvSets)
        if (mask & uv) ++n;
    return n;
}

MeshLayout layoutFor(const MeshInfo& m, bool skinned) {
    MeshLayout layout;
    layout.vertexCount = m.numVertices;
    layout.indexCount = m.numIndices;
    layout.tangents = (m.mask & kNormalTangent) != 0;
    layout.uvSets = std::min(uvSetCount(m.mask), 2u);
    layout.skinned = skinned;
    layout.index16 = true;
    return layout;
}

bool decodeMesh(Reader& r, const MeshInfo& m, MeshArrays& a) {
    r.seek(m.offsetVertices, "mesh.offsetMeshVertices");
    std::span<const std::byte> vertices = r.bytes(size_t(m.numVertices) * m.vertexSize, "mesh.offsetMeshVertices");
    if (!r.ok() || !decodeVertices(r, m, vertices, a)) return false;
    r.seek(m.offsetIndices, "mesh.offsetIndices");
    std::span<const std::byte> indices = r.bytes(size_t(m.numIndices) * 2, "mesh.offsetIndices");
    if (!r.ok()) return false;
    if (!copyIndices16(a.indices16, indices, m.numVertices, r.size() >= kStreamingFileBytes)) {
        size_t i = size_t(std::find_if(a.indices16.begin(), a.indices16.end(), [&](uint16_t x) { return x >= m.numVertices; }) - a.indices16.begin());
        return r.failAt(m.offsetIndices + 2 * i, "indices", "index " + std::to_string(a.indices16[i]) + " of face " + std::to_string(i / 3) +
                                                              " of mesh '" + m.name + "' is past its " + std::to_string(m.numVertices) + " vertices");
    }
    if (!(m.mask & kNormalTangent)) faceNormals(a, glm::vec3(0.0f));
    return true;
}

} // namespace horde::swtor
