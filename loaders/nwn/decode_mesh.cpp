#include "nwn/nwn.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "model/influences.h"
#include "model/normals.h"

namespace horde::nwn {

namespace {
struct MeshHeader {
    Array faces, indexCounts, indexLists;
    uint32_t render = 1;
    glm::vec3 diffuse{1.0f};
    std::string texture;
    uint8_t triangleMode = kTriangleList;
    uint32_t vertices = kRawNull, normals = kRawNull, colors = kRawNull;
    uint16_t vertexCount = 0, textureCount = 0;
    std::array<uint32_t, 4> uv{};
};

bool readHeader(File& file, const RawNode& node, MeshHeader& h) {
    Reader& r = file.reader();
    const size_t size = nodeSize(node.flags);
    if (!file.seekStruct(node.offset, size, kMeshFaces, "mesh faces")) return false;
    h.faces = file.array("mesh faces");
    file.seekStruct(node.offset, size, kMeshDiffuse, "mesh diffuse");
    h.diffuse = r.vec3("mesh diffuse");
    file.seekStruct(node.offset, size, kMeshRender, "mesh render flag");
    h.render = r.u32("mesh render flag");
    file.seekStruct(node.offset, size, kMeshTexture0, "mesh texture0");
    h.texture = file.name(64, "mesh texture0");
    file.seekStruct(node.offset, size, kMeshIndexCounts, "mesh vertex index counts");
    h.indexCounts = file.array("mesh vertex index counts");
    h.indexLists = file.array("mesh vertex index lists");
    file.seekStruct(node.offset, size, kMeshTriangleMode, "mesh triangle mode");
    h.triangleMode = r.u8("mesh triangle mode");
    file.seekStruct(node.offset, size, kMeshVertices, "mesh vertices");
    h.vertices = r.u32("mesh vertices");
    h.vertexCount = r.u16("mesh vertex count");
    h.textureCount = r.u16("mesh texture count");
    for (uint32_t& uv : h.uv) uv = r.u32("mesh texture vertices");
    h.normals = r.u32("mesh normals");
    h.colors = r.u32("mesh vertex colours");
    return r.ok();
}

// Triangle corners from the face array, else from the raw index lists (lists or strips).
struct IndexSource {
    bool faces = false;
    std::vector<uint32_t> listCounts, listPointers;
    uint32_t indexCount = 0;
};

bool planIndices(File& file, const MeshHeader& h, IndexSource& src) {
    Reader& r = file.reader();
    if (h.faces.count > 0 || h.indexLists.count == 0) {
        if (!file.seekModelArray(h.faces.offset, h.faces.count, kFaceSize, "mesh faces")) return false;
        src.faces = true;
        src.indexCount = h.faces.count * 3;
        return true;
    }
    if (h.triangleMode != kTriangleList && h.triangleMode != kTriangleStrip)
        return r.fail("mesh triangle mode", std::to_string(h.triangleMode) + " is neither 3 (triangles) nor 4 (strips)");
    if (h.indexCounts.count != h.indexLists.count)
        return r.fail("mesh vertex index counts", "count array and list array differ in length");
    if (!file.seekModelArray(h.indexCounts.offset, h.indexCounts.count, 4, "mesh vertex index counts")) return false;
    for (uint32_t i = 0; i < h.indexCounts.count; ++i) src.listCounts.push_back(r.u32("mesh vertex index counts"));
    if (!file.seekModelArray(h.indexLists.offset, h.indexLists.count, 4, "mesh vertex index lists")) return false;
    for (uint32_t i = 0; i < h.indexLists.count; ++i) src.listPointers.push_back(r.u32("mesh vertex index lists"));
    uint64_t total = 0;
    for (size_t i = 0; i < src.listCounts.size(); ++i) {
        uint32_t n = src.listCounts[i];
        if (!file.seekRawArray(src.listPointers[i], n, 2, "mesh vertex index list")) return false;
        if (h.triangleMode == kTriangleList && n % 3 != 0)
            return r.fail("mesh vertex index counts", "triangle list of " + std::to_string(n) + " indices");
        // A strip of n indices is n - 2 triangles; degenerate ones are kept (they draw nothing).
        total += h.triangleMode == kTriangleList ? n : (n >= 3 ? 3 * uint64_t(n - 2) : 0);
    }
    if (total > 0xFFFFFFFFull) return r.fail("mesh vertex index counts", "more than 2^32 indices");
    src.indexCount = uint32_t(total);
    return r.ok();
}

bool checkIndex(Reader& r, uint32_t index, uint32_t vertexCount, std::string_view field) {
    if (index < vertexCount) return true;
    return r.fail(field, "vertex index " + std::to_string(index) + " of " + std::to_string(vertexCount) + " vertices");
}

bool decodeIndices(File& file, const MeshHeader& h, const IndexSource& src, MeshArrays& a) {
    Reader& r = file.reader();
    size_t out = 0;
    if (src.faces) {
        for (uint32_t f = 0; f < h.faces.count && r.ok(); ++f) {
            file.seekModelArray(h.faces.offset + f * uint32_t(kFaceSize) + uint32_t(kFaceIndices), 3, 2, "face vertex indices");
            for (int k = 0; k < 3; ++k) {
                uint32_t v = r.u16("face vertex indices");
                if (!checkIndex(r, v, h.vertexCount, "face vertex indices")) return false;
                a.setIndex(out++, v);
            }
        }
        return r.ok();
    }
    for (size_t l = 0; l < src.listCounts.size() && r.ok(); ++l) {
        uint32_t n = src.listCounts[l];
        file.seekRawArray(src.listPointers[l], n, 2, "mesh vertex index list");
        uint32_t window[2] = {0, 0};
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t v = r.u16("mesh vertex index list");
            if (!r.ok() || !checkIndex(r, v, h.vertexCount, "mesh vertex index list")) return false;
            if (h.triangleMode == kTriangleList) {
                a.setIndex(out++, v);
            } else if (i >= 2) {
                // Every other strip triangle is wound the other way; swapping its first two keeps fronts consistent.
                bool odd = (i & 1) != 0;
                a.setIndex(out++, odd ? window[1] : window[0]);
                a.setIndex(out++, odd ? window[0] : window[1]);
                a.setIndex(out++, v);
            }
            window[0] = i >= 1 ? window[1] : v;
            window[1] = v;
        }
    }
    return r.ok();
}

struct SkinHeader {
    uint32_t weights = kRawNull, boneRefs = kRawNull;
    Array qBoneRefInv, tBoneRefInv;
    std::array<int16_t, kSkinBones> boneNodes{};
};

bool readSkinHeader(File& file, const RawNode& node, SkinHeader& s) {
    Reader& r = file.reader();
    const size_t size = nodeSize(node.flags);
    if (!file.seekStruct(node.offset, size, kSkinWeights, "skin weights")) return false;
    s.weights = r.u32("skin weights");
    s.boneRefs = r.u32("skin bone refs");
    file.seekStruct(node.offset, size, kSkinQBoneRefInv, "skin qbone_ref_inv");
    s.qBoneRefInv = file.array("skin qbone_ref_inv");
    s.tBoneRefInv = file.array("skin tbone_ref_inv");
    file.seekStruct(node.offset, size, kSkinBoneNodes, "skin bone node numbers");
    for (int16_t& b : s.boneNodes) b = r.i16("skin bone node numbers");
    return r.ok();
}

// Weights are read into the weight stream first, then combined with the bone refs in place.
bool decodeWeights(File& file, const SkinHeader& s, uint32_t vertexCount, const std::vector<glm::mat4>& restModel,
                   MeshArrays& a, Skin& skin) {
    Reader& r = file.reader();
    if (!file.seekRawArray(s.weights, vertexCount, 16, "skin weights")) return false;
    for (uint32_t v = 0; v < vertexCount; ++v) a.weights[v] = r.vec4("skin weights");
    if (!file.seekRawArray(s.boneRefs, vertexCount, 8, "skin bone refs")) return false;
    std::array<int32_t, kSkinBones> jointOfBone;
    jointOfBone.fill(-1);
    for (uint32_t v = 0; v < vertexCount && r.ok(); ++v) {
        std::array<Influence, 4> influences{};
        size_t used = 0;
        for (int k = 0; k < 4; ++k) {
            int16_t bone = r.i16("skin bone refs");
            if (bone < 0) continue; // -1: slot unused
            if (bone >= int16_t(kSkinBones))
                return r.fail("skin bone refs", "vertex " + std::to_string(v) + " names bone " + std::to_string(bone) +
                                                    " of the " + std::to_string(kSkinBones) + "-entry bone table");
            if (jointOfBone[bone] < 0) {
                int16_t node = s.boneNodes[bone];
                if (node < 0 || size_t(node) >= restModel.size())
                    return r.fail("skin bone node numbers", "bone " + std::to_string(bone) + " names node " + std::to_string(node) +
                                                                " of " + std::to_string(restModel.size()));
                jointOfBone[bone] = int32_t(skin.joints.size());
                skin.joints.push_back(uint32_t(node));
                skin.inverseBind.push_back(glm::inverse(restModel[size_t(node)]));
            }
            influences[used++] = {uint32_t(jointOfBone[bone]), a.weights[v][k]};
        }
        FourInfluences four = strongestFour(std::span(influences.data(), used));
        a.joints[v] = four.joints;
        a.weights[v] = four.weights;
    }
    return r.ok();
}

// The stored inverse binds (rotation w, x, y, z, then translation; skin-node space -> bone
// space, one per node in pre-order) are compared with the rest pose, which horde uses.
void checkInverseBinds(File& file, const SkinHeader& s, uint32_t skinNode, const std::vector<glm::mat4>& restModel,
                       const Skin& skin, const std::string& name, Model& model) {
    Reader& r = file.reader();
    const size_t nodes = restModel.size();
    if (s.qBoneRefInv.count != nodes || s.tBoneRefInv.count != nodes) {
        model.warnings.push_back("skin '" + name + "' stores " + std::to_string(s.qBoneRefInv.count) + " inverse bind rotations and " +
                                 std::to_string(s.tBoneRefInv.count) + " translations for " + std::to_string(nodes) +
                                 " nodes; the rest pose is used");
        return;
    }
    size_t disagree = 0;
    std::string first;
    for (uint32_t node : skin.joints) {
        glm::mat4 expected = glm::inverse(restModel[node]) * restModel[skinNode];
        glm::quat qe = glm::normalize(glm::quat_cast(glm::mat3(expected)));
        glm::vec3 te(expected[3]);
        file.seekModelArray(s.qBoneRefInv.offset + node * 16, 1, 16, "skin qbone_ref_inv");
        float w = r.f32("skin qbone_ref_inv"), x = r.f32("skin qbone_ref_inv"), y = r.f32("skin qbone_ref_inv"),
              z = r.f32("skin qbone_ref_inv");
        file.seekModelArray(s.tBoneRefInv.offset + node * 12, 1, 12, "skin tbone_ref_inv");
        glm::vec3 t = r.vec3("skin tbone_ref_inv");
        if (!r.ok()) return;
        glm::quat q(w, x, y, z);
        bool same = glm::length(q) > 0.0f && std::abs(glm::dot(glm::normalize(q), qe)) > 1.0f - 1e-4f &&
                    glm::length(t - te) <= 1e-3f * std::max(1.0f, glm::length(te));
        if (!same && disagree++ == 0) first = model.nodes[node].name;
    }
    if (disagree > 0)
        model.warnings.push_back("skin '" + name + "': the stored inverse binds of " + std::to_string(disagree) +
                                 " joints (first '" + first + "') disagree with the rest pose; the rest pose is used");
}

// The constraints are per vertex of the compiled mesh (the compiler rebuilds them for its
// vertices), so their count must be the vertex count.
bool readDangly(File& file, const RawNode& node, uint16_t vertexCount, Mesh& mesh) {
    Reader& r = file.reader();
    const size_t size = nodeSize(node.flags);
    if (!file.seekStruct(node.offset, size, kDanglyConstraints, "dangly constraints")) return false;
    const Array constraints = file.array("dangly constraints");
    Dangly d;
    d.displacement = r.f32("dangly displacement");
    d.tightness = r.f32("dangly tightness");
    d.period = r.f32("dangly period");
    if (!r.ok()) return false;
    if (constraints.count != vertexCount)
        return r.failAt(kFileHeaderSize + node.offset + kDanglyConstraints + 4, "dangly constraints",
                        std::to_string(constraints.count) + " constraints for " + std::to_string(vertexCount) +
                            " vertices");
    if (!file.seekModelArray(constraints.offset, constraints.count, 4, "dangly constraints")) return false;
    for (uint32_t v = 0; v < constraints.count; ++v) d.constraints.push_back(r.f32("dangly constraints"));
    if (!r.ok()) return false;
    mesh.dangly = std::move(d);
    return true;
}

std::string describeWalkmesh(const MeshHeader& h) {
    return std::to_string(h.faces.count) + " faces, " + std::to_string(h.vertexCount) + " vertices (AABB tree, not drawn)";
}
} // namespace

bool decodeMesh(File& file, const std::vector<RawNode>& nodes, uint32_t index, const std::vector<glm::mat4>& restModel,
                Model& model, MeshAllocator& allocator) {
    Reader& r = file.reader();
    const RawNode& node = nodes[index];
    MeshHeader h;
    if (!readHeader(file, node, h)) return false;
    IndexSource src;
    if (!planIndices(file, h, src)) return false;
    if (h.vertexCount > 0 && !file.seekRawArray(h.vertices, h.vertexCount, 12, "mesh vertices")) return false;
    if (node.flags & kHasAABB) {
        model.extras.push_back({"walkmesh", node.name, describeWalkmesh(h)});
        return true;
    }
    if (h.render == 0) {
        model.extras.push_back({"hidden mesh", node.name, "render 0: not drawn by the game"});
        return true;
    }
    if (h.vertexCount == 0 || src.indexCount == 0) return true;

    const bool skinned = (node.flags & kHasSkin) != 0;
    SkinHeader skinHeader;
    if (skinned && !readSkinHeader(file, node, skinHeader)) return false;
    const bool uv0 = h.textureCount >= 1 && h.uv[0] != kRawNull;
    const bool uv1 = uv0 && h.textureCount >= 2 && h.uv[1] != kRawNull;
    if (uv0 && !file.seekRawArray(h.uv[0], h.vertexCount, 8, "mesh texture vertices")) return false;
    if (uv1 && !file.seekRawArray(h.uv[1], h.vertexCount, 8, "mesh texture vertices")) return false;
    if (h.normals != kRawNull && !file.seekRawArray(h.normals, h.vertexCount, 12, "mesh normals")) return false;
    if (h.colors != kRawNull && !file.seekRawArray(h.colors, h.vertexCount, 4, "mesh vertex colours")) return false;

    MeshLayout layout;
    layout.vertexCount = h.vertexCount;
    layout.indexCount = src.indexCount;
    layout.uvSets = uv1 ? 2 : uv0 ? 1 : 0;
    layout.skinned = skinned;
    layout.colors = h.colors != kRawNull;
    NodeMesh started = startMesh(node.name, index, layout, restModel, allocator);
    Mesh& mesh = started.mesh;
    MeshArrays& a = mesh.arrays();
    file.seekRawArray(h.vertices, h.vertexCount, 12, "mesh vertices");
    for (glm::vec3& p : a.positions)
        p = started.position(r.vec3("mesh vertices"));
    if (uv0) {
        file.seekRawArray(h.uv[0], h.vertexCount, 8, "mesh texture vertices");
        for (glm::vec2& t : a.uv0) t = r.vec2("mesh texture vertices");
    }
    if (uv1) {
        file.seekRawArray(h.uv[1], h.vertexCount, 8, "mesh texture vertices");
        for (glm::vec2& t : a.uv1) t = r.vec2("mesh texture vertices");
    }
    if (layout.colors) {
        // Bytes R, G, B, A per vertex, each channel / 255 (the compiler writes round(c * 255)).
        file.seekRawArray(h.colors, h.vertexCount, 4, "mesh vertex colours");
        for (glm::vec4& c : a.colors)
            for (int k = 0; k < 4; ++k) c[k] = float(r.u8("mesh vertex colours")) / 255.0f;
    }
    if (!decodeIndices(file, h, src, a)) return false;
    if (h.normals != kRawNull) {
        file.seekRawArray(h.normals, h.vertexCount, 12, "mesh normals");
        for (glm::vec3& n : a.normals)
            n = started.normal(r.vec3("mesh normals"));
    } else {
        faceNormals(a, glm::vec3(0, 0, 1)); // NWN is Z-up
    }
    if (skinned) {
        Skin skin;
        if (!decodeWeights(file, skinHeader, h.vertexCount, restModel, a, skin)) return false;
        checkInverseBinds(file, skinHeader, index, restModel, skin, node.name, model);
        if (!r.ok()) return false;
        mesh.skin = int32_t(model.skins.size());
        model.skins.push_back(std::move(skin));
    }
    if ((node.flags & kHasDangly) && !readDangly(file, node, h.vertexCount, mesh)) return false;
    if (!r.ok()) return false;
    std::string material = asciiLower(h.texture) == "null" ? std::string() : h.texture;
    mesh.submeshes.push_back({material, 0, src.indexCount});
    addMaterial(model, material, h.diffuse, 1.0f);
    model.meshes.push_back(std::move(mesh));
    return true;
}

NodeMesh startMesh(const std::string& node, uint32_t index, MeshLayout layout,
                   const std::vector<glm::mat4>& restModel, MeshAllocator& allocator) {
    layout.index16 = layout.vertexCount <= 0xFFFF;
    NodeMesh out;
    out.mesh.name = node;
    out.mesh.node = index;
    out.mesh.storage = allocator.allocate(layout, node);
    if (layout.skinned) out.place = restModel[index];
    out.turn = glm::transpose(glm::inverse(glm::mat3(out.place)));
    return out;
}

glm::vec4 materialColour(const Model& model, const std::string& material) {
    const int32_t m = findMaterial(model, material);
    return m < 0 ? glm::vec4(1.0f) : model.materials[size_t(m)].baseColor;
}

void addMaterial(Model& model, const std::string& bitmap, glm::vec3 diffuse, float alpha) {
    if (bitmap.empty() || findMaterial(model, bitmap) >= 0) return;
    Material m{.name = bitmap};
    if (std::isfinite(diffuse.r + diffuse.g + diffuse.b)) m.baseColor = glm::vec4(glm::clamp(diffuse, 0.0f, 1.0f), 1.0f);
    if (std::isfinite(alpha) && alpha < 1.0f) {
        m.baseColor.a = std::max(alpha, 0.0f);
        m.alpha = AlphaMode::Blend;
    }
    m.textures.push_back({TextureSlot::Base, bitmap, {}, nullptr});
    model.materials.push_back(std::move(m));
}

} // namespace horde::nwn
