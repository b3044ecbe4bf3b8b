// glTF -> Model: nodes in an order where parents come first, one horde Mesh per primitive (or
// per run of primitives sharing their vertex streams, as horde's own export writes them), skins
// and animations; vertex streams decoded from checked accessors straight into the allocator.
#include "gltf/reader.h"

#include <unordered_map>

#ifndef GLM_ENABLE_EXPERIMENTAL
#define GLM_ENABLE_EXPERIMENTAL
#endif
#include <glm/gtx/matrix_decompose.hpp>

#include "asset/influences.h"
#include "asset/normals.h"
#include "gltf/accessor.h"
#include "gltf/clips.h"
#include "gltf/gltf.h"

namespace horde::gltf {

namespace {
constexpr std::initializer_list<int> kFloat{TINYGLTF_COMPONENT_TYPE_FLOAT};
constexpr std::initializer_list<int> kUvTypes{TINYGLTF_COMPONENT_TYPE_FLOAT,
                                              TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                              TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT};

Node restOf(const tinygltf::Node& n) {
    Node node;
    node.name = n.name;
    if (n.matrix.size() == 16) {
        glm::dmat4 m;
        for (int i = 0; i < 16; ++i)
            m[i / 4][i % 4] = n.matrix[i];
        glm::dvec3 scale, translation, skew;
        glm::dvec4 perspective;
        glm::dquat rotation;
        if (glm::decompose(m, scale, rotation, translation, skew, perspective)) {
            node.translation = glm::vec3(translation);
            node.rotation = glm::quat(glm::normalize(rotation));
            node.scale = glm::vec3(scale);
        }
        return node;
    }
    if (n.translation.size() == 3)
        node.translation = glm::vec3(n.translation[0], n.translation[1], n.translation[2]);
    if (n.rotation.size() == 4)
        node.rotation =
            glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
    if (n.scale.size() == 3) node.scale = glm::vec3(n.scale[0], n.scale[1], n.scale[2]);
    return node;
}

// horde needs every parent before its children: keep the file's order when it already is, else
// walk the roots depth first. Returns the horde index of each glTF node.
Result<std::vector<int32_t>> nodeOrder(const tinygltf::Model& gltf, Model& model) {
    size_t count = gltf.nodes.size();
    std::vector<int32_t> parent(count, -1);
    for (size_t i = 0; i < count; ++i)
        for (int child : gltf.nodes[i].children) {
            if (child < 0 || size_t(child) >= count)
                return Error{"node " + std::to_string(i) + ": child " + std::to_string(child) +
                             " out of range"};
            if (parent[child] >= 0 || size_t(child) == i)
                return Error{"node " + std::to_string(child) + ": has more than one parent"};
            parent[child] = int32_t(i);
        }
    std::vector<int32_t> order; // glTF indices in horde order
    bool sorted = true;
    for (size_t i = 0; i < count; ++i)
        sorted = sorted && parent[i] < int32_t(i);
    if (sorted) {
        for (size_t i = 0; i < count; ++i)
            order.push_back(int32_t(i));
    } else {
        std::vector<int32_t> stack;
        for (size_t i = count; i-- > 0;)
            if (parent[i] < 0) stack.push_back(int32_t(i));
        while (!stack.empty()) {
            int32_t n = stack.back();
            stack.pop_back();
            order.push_back(n);
            const std::vector<int>& children = gltf.nodes[n].children;
            for (size_t c = children.size(); c-- > 0;)
                stack.push_back(children[c]);
        }
        if (order.size() != count) return Error{"node hierarchy has a cycle"};
    }
    std::vector<int32_t> hordeOf(count, -1);
    for (size_t h = 0; h < order.size(); ++h)
        hordeOf[order[h]] = int32_t(h);
    for (int32_t g : order) {
        Node node = restOf(gltf.nodes[g]);
        if (node.name.empty()) node.name = "node" + std::to_string(g);
        node.parent = parent[g] < 0 ? -1 : hordeOf[parent[g]];
        model.nodes.push_back(std::move(node));
    }
    return hordeOf;
}

Status decodeSkins(const tinygltf::Model& gltf, const std::vector<int32_t>& hordeOf, Model& model) {
    for (size_t s = 0; s < gltf.skins.size(); ++s) {
        const tinygltf::Skin& gs = gltf.skins[s];
        std::string field = "skin " + std::to_string(s);
        Skin skin;
        for (int j : gs.joints) {
            if (j < 0 || size_t(j) >= hordeOf.size())
                return Error{field + ": joint node " + std::to_string(j) + " out of range"};
            skin.joints.push_back(uint32_t(hordeOf[j]));
        }
        skin.inverseBind.assign(skin.joints.size(), glm::mat4(1.0f));
        if (gs.inverseBindMatrices >= 0) {
            Result<AccessorView> ibm = view(gltf, gs.inverseBindMatrices, TINYGLTF_TYPE_MAT4, kFloat,
                                            field + " inverseBindMatrices");
            if (!ibm) return ibm.error();
            if (ibm->count != skin.joints.size())
                return Error{field + " inverseBindMatrices: " + std::to_string(ibm->count) +
                             " matrices for " + std::to_string(skin.joints.size()) + " joints"};
            for (size_t j = 0; j < skin.joints.size(); ++j)
                for (int c = 0; c < 16; ++c)
                    skin.inverseBind[j][c / 4][c % 4] = ibm->get(j, c);
        }
        model.skins.push_back(std::move(skin));
    }
    return Ok{};
}

int attribute(const tinygltf::Primitive& p, const std::string& name) {
    auto it = p.attributes.find(name);
    return it == p.attributes.end() ? -1 : it->second;
}

// The vertex streams of one horde mesh: the attributes its primitives share.
struct Streams {
    AccessorView position, normal, tangent, uv0, uv1;
    std::vector<std::pair<AccessorView, AccessorView>> influences; // JOINTS_n, WEIGHTS_n
    bool hasNormal = false, hasTangent = false;
    uint32_t uvSets = 0;
};

Result<Streams> streams(const tinygltf::Model& gltf, const tinygltf::Primitive& p, const std::string& field) {
    Streams s;
    Result<AccessorView> pos =
        view(gltf, attribute(p, "POSITION"), TINYGLTF_TYPE_VEC3, kFloat, field + " POSITION");
    if (!pos) return pos.error();
    s.position = *pos;
    auto optional = [&](const char* name, int type, std::initializer_list<int> types, AccessorView& out,
                        bool& present) -> Status {
        int index = attribute(p, name);
        present = index >= 0;
        if (!present) return Ok{};
        Result<AccessorView> v = view(gltf, index, type, types, field + " " + name);
        if (!v) return v.error();
        if (v->count != s.position.count)
            return Error{field + " " + name + ": " + std::to_string(v->count) + " elements for " +
                         std::to_string(s.position.count) + " vertices"};
        out = *v;
        return Ok{};
    };
    bool uv0 = false, uv1 = false;
    for (Status st : {optional("NORMAL", TINYGLTF_TYPE_VEC3, kFloat, s.normal, s.hasNormal),
                      optional("TANGENT", TINYGLTF_TYPE_VEC4, kFloat, s.tangent, s.hasTangent),
                      optional("TEXCOORD_0", TINYGLTF_TYPE_VEC2, kUvTypes, s.uv0, uv0),
                      optional("TEXCOORD_1", TINYGLTF_TYPE_VEC2, kUvTypes, s.uv1, uv1)})
        if (!st) return st.error();
    s.uvSets = uv1 ? 2 : uv0 ? 1 : 0;
    for (int set = 0;; ++set) {
        std::string j = "JOINTS_" + std::to_string(set), w = "WEIGHTS_" + std::to_string(set);
        if (attribute(p, j) < 0 || attribute(p, w) < 0) break;
        AccessorView joints, weights;
        bool present;
        if (Status st =
                optional(j.c_str(), TINYGLTF_TYPE_VEC4,
                         {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                         joints, present);
            !st)
            return st.error();
        if (Status st = optional(w.c_str(), TINYGLTF_TYPE_VEC4,
                                 {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                                  TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                                 weights, present);
            !st)
            return st.error();
        s.influences.emplace_back(joints, weights);
    }
    return s;
}

struct Group {
    size_t first = 0, count = 0; // primitives of the glTF mesh
};

// Primitives with the same attribute accessors share one vertex array: one horde mesh.
std::vector<Group> groups(const tinygltf::Mesh& mesh) {
    std::vector<Group> out;
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
        if (mesh.primitives[p].mode != TINYGLTF_MODE_TRIANGLES) continue;
        if (!out.empty() && out.back().first + out.back().count == p &&
            mesh.primitives[out.back().first].attributes == mesh.primitives[p].attributes)
            ++out.back().count;
        else
            out.push_back({p, 1});
    }
    return out;
}

std::string materialName(const tinygltf::Model& gltf, int material) {
    if (material < 0 || size_t(material) >= gltf.materials.size()) return "default";
    const std::string& name = gltf.materials[material].name;
    return name.empty() ? "material" + std::to_string(material) : name;
}

// `storageLeft`: what the file may still allocate (loader.h, kStoragePerInputByte).
Status decodeMesh(const tinygltf::Model& gltf, const tinygltf::Mesh& gm, const Group& g,
                  const std::string& name, uint32_t node, int32_t skin, MeshAllocator& allocator,
                  uint64_t& storageLeft, Model& model) {
    std::string field = "mesh '" + gm.name + "' primitive " + std::to_string(g.first);
    const tinygltf::Primitive& first = gm.primitives[g.first];
    Result<Streams> s = streams(gltf, first, field);
    if (!s) return s.error();
    if (s->position.count == 0 || s->position.count > 0xffffffffu)
        return Error{field + " POSITION: no vertices"};
    uint32_t vertices = uint32_t(s->position.count);
    std::vector<AccessorView> indexViews;
    uint64_t indexCount = 0;
    for (size_t p = g.first; p < g.first + g.count; ++p) {
        const tinygltf::Primitive& prim = gm.primitives[p];
        std::string pf = "mesh '" + gm.name + "' primitive " + std::to_string(p) + " indices";
        AccessorView iv;
        if (prim.indices >= 0) {
            Result<AccessorView> v =
                view(gltf, prim.indices, TINYGLTF_TYPE_SCALAR,
                     {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                      TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT},
                     pf);
            if (!v) return v.error();
            iv = *v;
        } else {
            iv.count = vertices; // non-indexed: vertices in order (componentType 0 marks it)
        }
        if (iv.count % 3 != 0) return Error{pf + ": " + std::to_string(iv.count) + " is not a multiple of 3"};
        indexCount += iv.count;
        indexViews.push_back(iv);
    }
    if (indexCount > 0xffffffffu) return Error{field + ": more than 2^32 indices"};

    MeshLayout layout;
    layout.vertexCount = vertices;
    layout.indexCount = uint32_t(indexCount);
    layout.tangents = s->hasTangent;
    layout.uvSets = s->uvSets;
    layout.skinned = skin >= 0;
    layout.index16 = vertices <= 65536;
    uint64_t storage = streamOffsets(layout).total;
    if (storage > storageLeft)
        return Error{field + ": " + std::to_string(storage) + " more bytes of mesh storage would pass " +
                     std::to_string(kStoragePerInputByte) +
                     " per byte of the file (every node that places a mesh, and every primitive that "
                     "repeats an accessor, is stored again)"};
    storageLeft -= storage;
    Mesh mesh;
    mesh.name = name;
    mesh.node = node;
    mesh.skin = skin;
    mesh.storage = allocator.allocate(layout, name);
    MeshArrays& a = mesh.arrays();
    for (uint32_t v = 0; v < vertices; ++v) {
        a.positions[v] = glm::vec3(s->position.vec4(v));
        if (s->hasNormal) a.normals[v] = glm::vec3(s->normal.vec4(v));
        if (s->hasTangent) a.tangents[v] = s->tangent.vec4(v);
        if (s->uvSets >= 1) a.uv0[v] = glm::vec2(s->uv0.vec4(v));
        if (s->uvSets >= 2) a.uv1[v] = glm::vec2(s->uv1.vec4(v));
        if (!layout.skinned) continue;
        Influence influences[16];
        size_t n = 0;
        for (const auto& [joints, weights] : s->influences)
            for (int k = 0; k < 4 && n < std::size(influences); ++k)
                influences[n++] = {joints.integer(v, k), weights.get(v, k)};
        FourInfluences four = strongestFour(std::span(influences, n));
        a.joints[v] = four.joints;
        a.weights[v] = four.weights;
    }
    uint32_t at = 0;
    for (size_t p = 0; p < indexViews.size(); ++p) {
        const AccessorView& iv = indexViews[p];
        uint32_t begin = at;
        for (size_t i = 0; i < iv.count; ++i)
            a.setIndex(at++, iv.componentType ? iv.getIndex(i) : uint32_t(i));
        mesh.submeshes.push_back(
            {materialName(gltf, gm.primitives[g.first + p].material), begin, uint32_t(iv.count)});
    }
    if (!s->hasNormal) faceNormals(a, glm::vec3(0, 1, 0));
    model.meshes.push_back(std::move(mesh));
    return Ok{};
}

Status decodeMeshes(const tinygltf::Model& gltf, const std::vector<int32_t>& hordeOf,
                    MeshAllocator& allocator, uint64_t storageLeft, Model& model) {
    std::vector<std::vector<size_t>> nodesOfMesh(gltf.meshes.size()); // glTF nodes, in horde order
    std::vector<size_t> gltfOf(hordeOf.size());
    for (size_t g = 0; g < hordeOf.size(); ++g)
        gltfOf[hordeOf[g]] = g;
    for (size_t g : gltfOf) {
        const tinygltf::Node& node = gltf.nodes[g];
        if (node.mesh < 0) continue;
        if (size_t(node.mesh) >= gltf.meshes.size())
            return Error{"node " + std::to_string(g) + ": mesh " + std::to_string(node.mesh) +
                         " out of range"};
        if (node.skin >= int(gltf.skins.size()))
            return Error{"node " + std::to_string(g) + ": skin " + std::to_string(node.skin) +
                         " out of range"};
        nodesOfMesh[node.mesh].push_back(g);
    }
    // Meshes in the file's mesh order (horde's export order), each on every node that uses it.
    for (size_t m = 0; m < gltf.meshes.size(); ++m) {
        const tinygltf::Mesh& gm = gltf.meshes[m];
        std::string base = gm.name.empty() ? "mesh" + std::to_string(m) : gm.name;
        for (size_t p = 0; p < gm.primitives.size(); ++p)
            if (gm.primitives[p].mode != TINYGLTF_MODE_TRIANGLES)
                model.warnings.push_back("mesh '" + base + "' primitive " + std::to_string(p) + ": mode " +
                                         std::to_string(gm.primitives[p].mode) +
                                         " is not triangles; skipped");
        if (nodesOfMesh[m].empty())
            model.warnings.push_back("mesh '" + base + "' is not placed by any node; skipped");
        std::vector<Group> parts = groups(gm);
        for (size_t g : nodesOfMesh[m]) {
            const tinygltf::Node& node = gltf.nodes[g];
            for (size_t i = 0; i < parts.size(); ++i) {
                std::string name = parts.size() == 1 ? base : base + "_" + std::to_string(i);
                if (Status st = decodeMesh(gltf, gm, parts[i], name, uint32_t(hordeOf[g]), node.skin,
                                           allocator, storageLeft, model);
                    !st)
                    return st;
            }
        }
    }
    return Ok{};
}

// What a decode may allocate (loader.h), from the file and every buffer it brought in (external
// .bin files, data URIs).
uint64_t allowance(std::span<const std::byte> bytes, const tinygltf::Model& gltf) {
    uint64_t input = bytes.size();
    for (const tinygltf::Buffer& buffer : gltf.buffers)
        input += buffer.data.size();
    return kStoragePerInputByte * input + kStorageSlack;
}

Error inFile(const std::filesystem::path& path, const Error& e) {
    return Error{path.string() + ": " + e.message};
}
} // namespace

Result<Model> load(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions&,
                   MeshAllocator& allocator) {
    Result<tinygltf::Model> gltf = parse(path, bytes);
    if (!gltf) return gltf.error();
    Model model;
    model.format = "gltf";
    Result<std::vector<int32_t>> hordeOf = nodeOrder(*gltf, model);
    if (!hordeOf) return inFile(path, hordeOf.error());
    if (Status st = decodeSkins(*gltf, *hordeOf, model); !st) return inFile(path, st.error());
    if (Status st = decodeMeshes(*gltf, *hordeOf, allocator, allowance(bytes, *gltf), model); !st)
        return inFile(path, st.error());
    Result<std::vector<Clip>> clips = decodeClips(*gltf, *hordeOf, model.warnings, allowance(bytes, *gltf));
    if (!clips) return inFile(path, clips.error());
    model.clips = std::move(*clips);
    return model;
}

Result<std::vector<Clip>> loadClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target) {
    Result<tinygltf::Model> gltf = parse(path, bytes);
    if (!gltf) return gltf.error();
    // Hashed, the first of a repeated name winning as in findNode: linear in both files' nodes.
    std::unordered_map<std::string, int32_t> byName;
    for (size_t n = 0; n < target.nodes.size(); ++n)
        byName.emplace(target.nodes[n].name, int32_t(n));
    std::vector<int32_t> nodeOf;
    for (const tinygltf::Node& n : gltf->nodes) {
        auto found = byName.find(n.name);
        nodeOf.push_back(found == byName.end() ? -1 : found->second);
    }
    Result<std::vector<Clip>> clips = decodeClips(*gltf, nodeOf, target.warnings, allowance(bytes, *gltf));
    if (!clips) return inFile(path, clips.error());
    return clips;
}

} // namespace horde::gltf
