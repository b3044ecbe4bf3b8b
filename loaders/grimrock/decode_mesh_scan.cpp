#include "grimrock/grimrock.h"

#include <cmath>

#include "model/validate.h"

namespace horde::grimrock {

namespace {
constexpr const char* kArrayNames[kVertexArrays] = {
    "vertexArrays[0] (position)",  "vertexArrays[1] (normal)",    "vertexArrays[2] (tangent)",
    "vertexArrays[3] (bitangent)", "vertexArrays[4] (color)",     "vertexArrays[5] (texcoord0)",
    "vertexArrays[6] (texcoord1)", "vertexArrays[7] (texcoord2)", "vertexArrays[8] (texcoord3)",
    "vertexArrays[9] (texcoord4)", "vertexArrays[10] (texcoord5)", "vertexArrays[11] (texcoord6)",
    "vertexArrays[12] (texcoord7)", "vertexArrays[13] (boneIndex)", "vertexArrays[14] (boneWeight)"};

// Segment: String (at least its length) + primitiveType + firstIndex + count.
constexpr uint64_t kMinSegmentBytes = 16;
// Bone: boneNodeIndex + Mat4x3.
constexpr uint64_t kBoneBytes = 4 + 48;
// boundCenter, boundRadius, boundMin, boundMax: recomputed from the vertices, so skipped.
constexpr size_t kBoundsBytes = 12 + 4 + 12 + 12;

int32_t typeSize(int32_t type) { return type == kByte ? 1 : type == kInt16 ? 2 : 4; }

std::string field(int slot, const char* part) { return std::string(kArrayNames[slot]) + "." + part; }

void scanArray(Reader& r, int slot, uint32_t vertexCount, VertexArray& a) {
    a.type = r.i32(field(slot, "dataType"));
    size_t dimAt = r.offset();
    a.dim = r.i32(field(slot, "dim"));
    size_t strideAt = r.offset();
    a.stride = r.i32(field(slot, "stride"));
    if (!r.ok()) return;
    // Unused arrays are all zero; dataType 0 is also "byte", so stride is what tells them apart.
    if (a.stride == 0 && a.dim == 0) {
        a = VertexArray{};
        return;
    }
    if (a.type < kByte || a.type > kFloat32) {
        r.failAt(dimAt - 4, field(slot, "dataType"), "unknown data type " + std::to_string(a.type) + " (0 byte, 1 int16, 2 int32, 3 float32)");
        return;
    }
    if (a.dim < 1 || a.dim > 4) {
        r.failAt(dimAt, field(slot, "dim"), "dimension " + std::to_string(a.dim) + " is not 1 to 4");
        return;
    }
    if (a.stride < a.dim * typeSize(a.type)) {
        r.failAt(strideAt, field(slot, "stride"), "stride " + std::to_string(a.stride) + " is smaller than " +
                                                      std::to_string(a.dim) + " components of " +
                                                      std::to_string(typeSize(a.type)) + " bytes");
        return;
    }
    if (!r.fits(vertexCount, uint64_t(a.stride), field(slot, "rawVertexData"))) return;
    a.offset = r.offset();
    a.data = r.bytes(size_t(vertexCount) * size_t(a.stride), field(slot, "rawVertexData"));
}

void scanSegments(Reader& r, MeshScan& s) {
    int32_t count = r.i32("MeshData.numSegments");
    if (!r.ok()) return;
    if (count < 0) {
        r.failAt(r.offset() - 4, "MeshData.numSegments", "count " + std::to_string(count) + " is negative");
        return;
    }
    if (!r.fits(uint64_t(count), kMinSegmentBytes, "MeshData.numSegments")) return;
    s.segments.reserve(size_t(count));
    for (int32_t i = 0; i < count && r.ok(); ++i) {
        std::string at = "segments[" + std::to_string(i) + "]";
        Submesh segment;
        segment.material = readString(r, at + ".material");
        size_t typeAt = r.offset();
        int32_t primitive = r.i32(at + ".primitiveType");
        int32_t first = r.i32(at + ".firstIndex");
        int32_t triangles = r.i32(at + ".count");
        if (!r.ok()) return;
        if (primitive != 2) {
            r.failAt(typeAt, at + ".primitiveType", "primitive type " + std::to_string(primitive) + " is not 2 (triangle list)");
            return;
        }
        if (first < 0 || triangles < 0 || uint64_t(first) + 3 * uint64_t(triangles) > s.indexCount) {
            r.failAt(typeAt + 4, at + ".firstIndex", "indices " + std::to_string(first) + " + 3 x " + std::to_string(triangles) +
                                                        " triangles run outside the " + std::to_string(s.indexCount) + " indices");
            return;
        }
        segment.firstIndex = uint32_t(first);
        segment.indexCount = uint32_t(3 * triangles);
        s.segments.push_back(std::move(segment));
    }
}

void scanBones(Reader& r, uint32_t nodeCount, MeshScan& s) {
    int32_t count = r.i32("MeshEntity.numBones");
    if (!r.ok()) return;
    if (count < 0) {
        r.failAt(r.offset() - 4, "MeshEntity.numBones", "count " + std::to_string(count) + " is negative");
        return;
    }
    if (!r.atMost(uint64_t(count), 65535, "MeshEntity.numBones") || !r.fits(uint64_t(count), kBoneBytes, "MeshEntity.numBones"))
        return;
    s.bones.resize(size_t(count));
    for (int32_t i = 0; i < count && r.ok(); ++i) {
        std::string at = "bones[" + std::to_string(i) + "]";
        size_t nodeAt = r.offset();
        s.bones[i].node = r.i32(at + ".boneNodeIndex");
        if (r.ok() && (s.bones[i].node < 0 || uint32_t(s.bones[i].node) >= nodeCount)) {
            r.failAt(nodeAt, at + ".boneNodeIndex", "node " + std::to_string(s.bones[i].node) + " is not one of the " +
                                                        std::to_string(nodeCount) + " nodes");
            return;
        }
        size_t matrixAt = r.offset();
        s.bones[i].invRest = readMat4x3(r, at + ".invRestMatrix");
        if (r.ok() && !finite(s.bones[i].invRest)) {
            r.failAt(matrixAt, at + ".invRestMatrix", "is not finite");
            return;
        }
    }
}
} // namespace

bool MeshScan::skinned() const { return !bones.empty() && arrays[kBoneIndex].present() && arrays[kBoneWeight].present(); }

MeshScan scanMeshEntity(Reader& r, uint32_t nodeCount) {
    MeshScan s;
    r.expect("MESH", "MeshData.magic");
    int32_t version = r.i32("MeshData.version");
    if (r.ok() && version != 2) r.failAt(r.offset() - 4, "MeshData.version", "version " + std::to_string(version) + " is not 2");
    int32_t vertices = r.i32("MeshData.numVertices");
    if (r.ok() && vertices < 0) r.failAt(r.offset() - 4, "MeshData.numVertices", "count " + std::to_string(vertices) + " is negative");
    if (!r.ok()) return s;
    s.vertexCount = uint32_t(vertices);
    for (int slot = 0; slot < kVertexArrays && r.ok(); ++slot) scanArray(r, slot, s.vertexCount, s.arrays[slot]);
    if (r.ok() && s.vertexCount > 0 && !s.arrays[kPosition].present())
        r.fail(kArrayNames[kPosition], "the mesh has " + std::to_string(s.vertexCount) + " vertices but no positions");
    int32_t indices = r.i32("MeshData.numIndices");
    if (!r.ok()) return s;
    if (indices < 0 || indices % 3 != 0) {
        r.failAt(r.offset() - 4, "MeshData.numIndices", "count " + std::to_string(indices) + " is not a non-negative multiple of 3");
        return s;
    }
    if (!r.fits(uint64_t(indices), 4, "MeshData.indices")) return s;
    s.indexCount = uint32_t(indices);
    s.indicesOffset = r.offset();
    s.indices = r.bytes(size_t(indices) * 4, "MeshData.indices");
    scanSegments(r, s);
    r.skip(kBoundsBytes, "MeshData bounds");
    scanBones(r, nodeCount, s);
    r.vec3("MeshEntity.emissiveColor");
    s.castShadow = r.u8("MeshEntity.castShadow") != 0;
    return s;
}

} // namespace horde::grimrock
