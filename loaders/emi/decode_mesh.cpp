// .meshb: name, bounds, textures, vertex arrays, face groups, then optional bone weights.
// Decoded in two passes: the first walks every header and skips the bulk, so the storage is
// sized (and every count checked against the file) before a single vertex is written; the
// second decodes each array once, straight into that storage.
#include "emi/emi.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "model/normals.h"
#include "index_copy.h"

namespace horde::emi {

namespace {
// Vertex formats (ScummVM EMIModel::loadMesh): which arrays follow the positions.
constexpr uint32_t kFull = 19, kNoNormals = 18, kNoUvs = 3;
constexpr uint32_t kAdditiveBlend = 0x400; // texture flag

bool hasNormals(uint32_t format) { return format != kNoNormals; }
bool hasUvs(uint32_t format) { return format != kNoUvs; }
uint64_t vertexBytes(uint32_t format) { return 12 + (hasNormals(format) ? 12 : 0) + 4 + (hasUvs(format) ? 8 : 0); }

struct Plan {
    std::string name;
    std::vector<std::string> textures;
    std::vector<std::string> additive; // textures flagged for additive blending
    uint32_t format = kFull, vertexCount = 0, groupCount = 0, boneCount = 0, infoCount = 0;
    uint64_t indexCount = 0;
    size_t verticesAt = 0, groupsAt = 0, bonesAt = 0;
    bool hasBones = false;
};

bool scan(Reader& r, Plan& p) {
    p.name = readString(r, "mesh name");
    r.f32("radius");
    r.vec3("centre");
    r.vec3("box min");
    r.vec3("box max");
    r.u32("texture set count");
    r.u32("texture set type");
    uint32_t textures = r.u32("texture count");
    if (!r.fits(textures, 8, "texture count")) return false;
    for (uint32_t t = 0; t < textures; ++t) {
        p.textures.push_back(readString(r, "texture name"));
        uint32_t flags = r.u32("texture flags");
        if (r.ok() && (flags & kAdditiveBlend)) p.additive.push_back(p.textures.back());
    }
    size_t at = r.offset();
    p.format = r.u32("vertex format");
    if (r.ok() && p.format != kFull && p.format != kNoNormals && p.format != kNoUvs)
        return r.failAt(at, "vertex format", std::to_string(p.format) +
                                                 " is not 19 (normals and UVs), 18 (no normals) or 3 (no UVs)");
    p.vertexCount = r.u32("vertex count");
    if (!r.fits(p.vertexCount, vertexBytes(p.format), "vertex count")) return false;
    p.verticesAt = r.offset();
    r.skip(size_t(p.vertexCount * vertexBytes(p.format)), "vertices");

    p.groupCount = r.u32("face group count");
    if (!r.fits(p.groupCount, 12, "face group count")) return false;
    p.groupsAt = r.offset();
    for (uint32_t g = 0; g < p.groupCount && r.ok(); ++g) {
        r.u32("face group flags");
        if (r.u32("face group has-texture") != 0) {
            at = r.offset();
            uint32_t texture = r.u32("face group texture index");
            if (r.ok() && texture >= textures)
                return r.failAt(at, "face group texture index", std::to_string(texture) + " is past the texture count " +
                                                                    std::to_string(textures));
        }
        at = r.offset();
        uint32_t count = r.u32("face group index count");
        if (r.ok() && count % 3 != 0)
            return r.failAt(at, "face group index count", std::to_string(count) + " is not a multiple of 3");
        if (!r.fits(count, 2, "face group index count")) return false;
        r.skip(size_t(count) * 2, "face group indices");
        p.indexCount += count;
    }
    at = r.offset();
    uint32_t hasBones = r.u32("has-bones");
    if (r.ok() && hasBones > 1) return r.failAt(at, "has-bones", std::to_string(hasBones) + " is neither 0 nor 1");
    p.hasBones = hasBones == 1;
    if (p.hasBones) {
        p.boneCount = r.u32("bone count");
        if (!r.fits(p.boneCount, 4, "bone count") || !r.atMost(p.boneCount, 65535, "bone count")) return false;
        p.bonesAt = r.offset();
        for (uint32_t b = 0; b < p.boneCount && r.ok(); ++b) readString(r, "bone name");
        p.infoCount = r.u32("bone info count");
        if (!r.fits(p.infoCount, 12, "bone info count")) return false;
        r.skip(size_t(p.infoCount) * 12, "bone infos");
    }
    return r.ok();
}

// Positions, normals and UVs are stored as tight float arrays, the engine's own layout: each
// is one copy.
template <class T> void copyArray(Reader& r, std::span<T> out, std::string_view field) {
    std::span<const std::byte> in = r.bytes(out.size_bytes(), field);
    if (r.ok() && !in.empty()) std::memcpy(out.data(), in.data(), in.size());
}

void decodeVertices(Reader& r, const Plan& p, MeshArrays& a) {
    r.seek(p.verticesAt, "vertices");
    copyArray(r, a.positions, "vertex positions");
    if (hasNormals(p.format)) copyArray(r, a.normals, "vertex normals");
    // Vertex colours (RGBA8) light the original's faces; horde has no colour stream.
    r.skip(size_t(p.vertexCount) * 4, "vertex colours");
    if (hasUvs(p.format)) copyArray(r, a.uv0, "texture coordinates");
}

bool decodeFaces(Reader& r, const Plan& p, Mesh& mesh) {
    MeshArrays& a = mesh.arrays();
    r.seek(p.groupsAt, "face groups");
    uint32_t next = 0;
    for (uint32_t g = 0; g < p.groupCount && r.ok(); ++g) {
        r.u32("face group flags");
        Submesh submesh;
        if (r.u32("face group has-texture") != 0) {
            uint32_t texture = r.u32("face group texture index"); // checked by scan()
            if (texture < p.textures.size()) submesh.material = p.textures[texture];
        }
        submesh.firstIndex = next;
        submesh.indexCount = r.u32("face group index count");
        const size_t at = r.offset();
        std::span<uint16_t> indices = a.indices16.subspan(next, submesh.indexCount);
        std::span<const std::byte> in = r.bytes(indices.size_bytes(), "face group indices");
        if (!r.ok()) return false;
        if (!copyIndices16(indices, in, p.vertexCount, r.size() >= kStreamingFileBytes)) {
            size_t bad = size_t(std::find_if(indices.begin(), indices.end(), [&](uint16_t i) { return i >= p.vertexCount; }) - indices.begin());
            return r.failAt(at + 2 * bad, "face group index", std::to_string(indices[bad]) + " is past the vertex count " +
                                                                  std::to_string(p.vertexCount));
        }
        next += submesh.indexCount;
        mesh.submeshes.push_back(std::move(submesh));
    }
    return r.ok();
}

glm::dmat4 restModel(const Model& model, uint32_t node) {
    glm::dmat4 out(1.0);
    for (int32_t n = int32_t(node); n >= 0; n = model.nodes[n].parent) {
        const Node& x = model.nodes[n];
        glm::dquat q(x.rotation.w, x.rotation.x, x.rotation.y, x.rotation.z);
        out = glm::translate(glm::dmat4(1.0), glm::dvec3(x.translation)) * glm::mat4_cast(q) * out;
    }
    return out;
}

// The mesh's bone names find the skeleton's joints; its bone infos index those names.
bool decodeSkin(Reader& r, const Plan& p, Model& model, Mesh& mesh) {
    MeshArrays& a = mesh.arrays();
    r.seek(p.bonesAt, "bone names");
    Skin skin;
    const NameIndex names(model);
    std::vector<int32_t> jointOf(p.boneCount, -1);
    std::string missing;
    for (uint32_t b = 0; b < p.boneCount && r.ok(); ++b) {
        std::string name = readString(r, "bone name");
        int32_t node = names.find(name);
        if (node < 0) {
            missing += (missing.empty() ? "'" : ", '") + name + "'";
            continue;
        }
        jointOf[b] = int32_t(skin.joints.size());
        skin.joints.push_back(uint32_t(node));
        skin.inverseBind.push_back(glm::mat4(glm::inverse(restModel(model, uint32_t(node)))));
    }
    r.u32("bone info count");
    const size_t infosAt = r.offset();
    std::span<const std::byte> infos = r.bytes(size_t(p.infoCount) * 12, "bone infos"); // sized by scan()
    InfluenceReport report;
    if (!r.ok() || !decodeBoneInfos(r, infos, infosAt, jointOf, a, report)) return false;

    if (!missing.empty()) model.warnings.push_back("bones not in the skeleton, their influences ignored: " + missing);
    if (report.reduced > 0) {
        char text[160];
        std::snprintf(text, sizeof text, "%u vertices had more than four influences; kept the four strongest (largest weight dropped %.4f)",
                      report.reduced, double(report.droppedMax));
        model.warnings.push_back(text);
    }
    if (report.unbound > 0)
        model.warnings.push_back(std::to_string(report.unbound) + " vertices have no bone influence; bound rigidly to the mesh node");
    mesh.skin = int32_t(model.skins.size());
    model.skins.push_back(std::move(skin));
    return true;
}
} // namespace

Status readMesh(const std::filesystem::path& path, std::span<const std::byte> bytes, bool skinned,
                MeshAllocator& allocator, Model& model) {
    Reader r(bytes, path.string());
    Plan plan;
    if (!scan(r, plan) || !r.atMost(plan.indexCount, UINT32_MAX, "face group index count")) return r.error();
    if (plan.hasBones && !skinned)
        model.warnings.push_back("the mesh has bone weights but no skeleton was given (--skeleton): loaded static");

    // Skinned vertices are in model space; the mesh's own identity root holds the static mesh
    // and any vertex no bone moves. A skeleton written by horde already has it.
    Node root;
    root.name = plan.name.empty() ? path.stem().string() : plan.name;
    int32_t node = NameIndex(model).find(root.name);
    if (node < 0 || model.nodes[node].parent >= 0 || model.nodes[node].translation != root.translation ||
        model.nodes[node].rotation != root.rotation) {
        node = int32_t(model.nodes.size());
        model.nodes.push_back(root);
    }
    for (const std::string& texture : plan.additive) model.extras.push_back({"additive-texture", root.name, texture});

    MeshLayout layout;
    layout.vertexCount = plan.vertexCount;
    layout.indexCount = uint32_t(plan.indexCount);
    layout.uvSets = hasUvs(plan.format) ? 1 : 0;
    layout.skinned = plan.hasBones && skinned;
    layout.index16 = true; // EMI indices are 16-bit
    Mesh mesh;
    mesh.name = root.name;
    mesh.node = uint32_t(node);
    mesh.storage = allocator.allocate(layout, mesh.name);

    decodeVertices(r, plan, mesh.arrays());
    if (!decodeFaces(r, plan, mesh)) return r.error();
    // Format 18 stores no normals (ScummVM leaves them zero); face normals light the mesh instead.
    if (!hasNormals(plan.format)) faceNormals(mesh.arrays(), glm::vec3(0, 1, 0));
    if (layout.skinned && !decodeSkin(r, plan, model, mesh)) return r.error();
    // A face group names a texture, not a material: the texture is the material.
    for (const Submesh& s : mesh.submeshes)
        if (!s.material.empty() && findMaterial(model, s.material) < 0)
            model.materials.push_back({.name = s.material, .textures = {{TextureSlot::Base, s.material, {}, nullptr}}});
    model.meshes.push_back(std::move(mesh));
    return Ok{};
}

AddedNodes addedNodes(const Model& source, const Model& read) {
    AddedNodes c;
    c.added.assign(read.nodes.size(), false);
    for (const Mesh& mesh : read.meshes) {
        const Node& n = read.nodes[mesh.node];
        const bool identity = n.parent < 0 && n.translation == glm::vec3(0.0f) &&
                              n.rotation == glm::quat(1.0f, 0.0f, 0.0f, 0.0f) && n.scale == glm::vec3(1.0f);
        const bool inSource = std::any_of(source.nodes.begin(), source.nodes.end(),
                                          [&](const Node& x) { return x.name == n.name; });
        const bool childless = std::none_of(read.nodes.begin(), read.nodes.end(),
                                            [&](const Node& x) { return x.parent == int32_t(mesh.node); });
        if (identity && !inSource && childless && n.name == mesh.name) {
            c.added[mesh.node] = true;
            c.note = "EMI mapping: root '" + n.name + "' (the node the reader gives the mesh) added";
            return c;
        }
    }
    return c;
}

} // namespace horde::emi
