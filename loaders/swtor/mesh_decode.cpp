#include "mesh_decode.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include <glm/gtc/packing.hpp>

#include "asset/influences.h"

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

std::vector<Piece> readPieces(Reader& r, const Header& h, const MeshInfo& m, uint32_t offset, uint16_t count) {
    std::vector<Piece> pieces;
    if (!seekTable(r, offset, count, kPieceSize, "mesh.offsetMeshPieces")) return pieces;
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

std::vector<std::string> readBoneList(Reader& r, uint32_t offset, uint16_t count) {
    std::vector<std::string> names;
    if (!seekTable(r, offset, count, kMeshBoneSize, "mesh.offsetBones")) return names;
    names.resize(count);
    for (std::string& name : names) {
        name = readName(r, "meshBone.offsetName");
        r.skip(24, "meshBone.bounds"); // the box of the vertices the bone moves; horde recomputes bounds
    }
    return names;
}

void faceNormals(MeshArrays& a) {
    std::fill(a.normals.begin(), a.normals.end(), glm::vec3(0.0f));
    for (size_t i = 0; i + 2 < a.indices16.size(); i += 3) {
        uint16_t v0 = a.indices16[i], v1 = a.indices16[i + 1], v2 = a.indices16[i + 2];
        glm::vec3 n = glm::cross(a.positions[v1] - a.positions[v0], a.positions[v2] - a.positions[v0]);
        a.normals[v0] += n;
        a.normals[v1] += n;
        a.normals[v2] += n;
    }
    for (glm::vec3& n : a.normals)
        if (glm::length(n) > 0.0f) n = glm::normalize(n);
}

glm::vec3 unitOrZero(glm::vec3 v) { return glm::length(v) > 0.0f ? glm::normalize(v) : v; }
} // namespace

std::vector<MeshInfo> readMeshes(Reader& r, const Header& h) {
    std::vector<MeshInfo> meshes;
    if (!seekTable(r, h.offsetMeshHeaders, h.numMeshes, kMeshHeaderSize, "offsetMeshHeader")) return meshes;
    meshes.resize(h.numMeshes);
    for (size_t i = 0; i < meshes.size() && r.ok(); ++i) {
        MeshInfo& m = meshes[i];
        const size_t at = h.offsetMeshHeaders + i * kMeshHeaderSize;
        r.seek(at, "mesh");
        m.name = readName(r, "mesh.offsetMeshName");
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
        m.pieces = readPieces(r, h, m, offsetPieces, numPieces);
        m.bones = readBoneList(r, offsetBones, numBones);
    }
    if (!r.ok()) meshes.clear();
    return meshes;
}

std::vector<std::string> readMaterialNames(Reader& r, const Header& h) {
    std::vector<std::string> names;
    if (!seekTable(r, h.offsetMaterialNames, h.numMaterials, 4, "offsetMaterialNameOffsets")) return names;
    names.resize(h.numMaterials);
    for (std::string& name : names) name = readName(r, "materialName");
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
    const bool skinned = !a.joints.empty();
    r.seek(m.offsetVertices, "mesh.offsetMeshVertices");
    for (uint32_t v = 0; v < m.numVertices && r.ok(); ++v) {
        const size_t at = r.offset();
        a.positions[v] = r.vec3("vertex.position");
        if (m.mask & kSkin) {
            auto weights = r.bytes(4, "vertex.boneWeights");
            auto bones = r.bytes(4, "vertex.boneIndices");
            if (!r.ok()) break;
            if (skinned) {
                std::array<Influence, 4> influences{};
                for (int k = 0; k < 4; ++k) {
                    influences[k] = {uint32_t(bones[k]), float(uint8_t(weights[k])) / 255.0f};
                    if (influences[k].weight > 0.0f && influences[k].joint >= m.bones.size())
                        return r.failAt(at + 16 + k, "vertex.boneIndices", "vertex " + std::to_string(v) + " names bone " +
                                                                             std::to_string(influences[k].joint) + " but mesh '" + m.name +
                                                                             "' lists " + std::to_string(m.bones.size()) + " bones");
                }
                FourInfluences four = strongestFour(influences);
                a.joints[v] = four.joints;
                a.weights[v] = four.weights;
            }
        }
        if (m.mask & kNormalTangent) {
            auto n = r.bytes(4, "vertex.normal"); // the fourth byte is padding
            auto t = r.bytes(4, "vertex.tangent"); // the fourth byte is the bitangent sign: 255 = +1, 0 = -1
            if (!r.ok()) break;
            auto unit = [](std::span<const std::byte> b) {
                return unitOrZero(glm::vec3(unpackUnit(uint8_t(b[0])), unpackUnit(uint8_t(b[1])), unpackUnit(uint8_t(b[2]))));
            };
            a.normals[v] = unit(n);
            a.tangents[v] = glm::vec4(unit(t), uint8_t(t[3]) >= 128 ? 1.0f : -1.0f);
        }
        if (m.mask & kColour) r.skip(4, "vertex.colour"); // no colour stream in the engine
        uint32_t set = 0;
        for (uint16_t uv : kUvSets) {
            if (!(m.mask & uv)) continue;
            glm::vec2 value;
            value.x = glm::unpackHalf1x16(r.u16("vertex.uv.u"));
            value.y = glm::unpackHalf1x16(r.u16("vertex.uv.v"));
            if (set == 0) a.uv0[v] = value;
            else if (set == 1) a.uv1[v] = value;
            ++set;
        }
    }
    r.seek(m.offsetIndices, "mesh.offsetIndices");
    for (uint32_t i = 0; i < m.numIndices && r.ok(); ++i) {
        const size_t at = r.offset();
        uint16_t index = r.u16("indices");
        if (r.ok() && index >= m.numVertices)
            return r.failAt(at, "indices", "index " + std::to_string(index) + " of face " + std::to_string(i / 3) + " of mesh '" +
                                               m.name + "' is past its " + std::to_string(m.numVertices) + " vertices");
        a.indices16[i] = index;
    }
    if (r.ok() && !(m.mask & kNormalTangent)) faceNormals(a);
    return r.ok();
}

} // namespace horde::swtor
