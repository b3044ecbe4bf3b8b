// glTF meshes -> horde meshes: one per primitive, or per run of primitives sharing their vertex
// streams (as horde's own export writes them), placed once on every node that uses the mesh;
// vertex streams decoded from checked accessors (or a primitive's Draco stream) straight into
// the allocator.
#include "gltf/gltf.h"

#include <algorithm>

#include "model/influences.h"
#include "model/normals.h"

namespace horde::gltf {

namespace {
// Component types of mesh attributes: glTF 2.0's and, where KHR_mesh_quantization widens them,
// its ("Extending Mesh Attributes"). The normalized flag is the accessor's; unnormalized
// integers read as their values.
constexpr int kFloat = TINYGLTF_COMPONENT_TYPE_FLOAT, kByte = TINYGLTF_COMPONENT_TYPE_BYTE,
              kUbyte = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, kShort = TINYGLTF_COMPONENT_TYPE_SHORT,
              kUshort = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
constexpr std::initializer_list<int> kPositionTypes{kFloat, kByte, kUbyte, kShort, kUshort};
constexpr std::initializer_list<int> kDirectionTypes{kFloat, kByte, kShort}; // NORMAL, TANGENT
constexpr std::initializer_list<int> kUvTypes{kFloat, kByte, kUbyte, kShort, kUshort};
constexpr std::initializer_list<int> kColorTypes{kFloat, kUbyte, kUshort};

int attribute(const tinygltf::Primitive& p, const std::string& name) {
    auto it = p.attributes.find(name);
    return it == p.attributes.end() ? -1 : it->second;
}

// The vertex streams of one horde mesh: the attributes its primitives share.
struct Streams {
    AccessorView position, normal, tangent, uv0, uv1, color;
    std::vector<std::pair<AccessorView, AccessorView>> influences; // JOINTS_n, WEIGHTS_n
    // Per morph target: its POSITION and NORMAL displacements (count 0 where it has none).
    std::vector<std::pair<AccessorView, AccessorView>> targets;
    bool hasNormal = false, hasTangent = false, hasColor = false;
    uint32_t uvSets = 0;
};

// Where a primitive's vertex streams and indices come from: its accessors, or the Draco stream
// that stands for those the extension names.
struct Source {
    BufferViews& views;
    const tinygltf::Primitive& primitive;
    const DracoMesh* draco = nullptr;

    Result<AccessorView> attribute(const std::string& name, int type, std::initializer_list<int> types,
                                   const std::string& field) const {
        const int index = gltf::attribute(primitive, name);
        if (draco && draco->holds(name))
            return draco->attribute(views.gltf(), name, index, type, types, field);
        return view(views, index, type, types, field);
    }
};

Result<Streams> streams(const Source& source, const std::string& field) {
    const tinygltf::Primitive& p = source.primitive;
    Streams s;
    Result<AccessorView> pos =
        source.attribute("POSITION", TINYGLTF_TYPE_VEC3, kPositionTypes, field + " POSITION");
    if (!pos) return pos.error();
    s.position = *pos;
    auto optional = [&](const char* name, int type, std::initializer_list<int> types, AccessorView& out,
                        bool& present) -> Status {
        present = attribute(p, name) >= 0;
        if (!present) return Ok{};
        Result<AccessorView> v = source.attribute(name, type, types, field + " " + name);
        if (!v) return v.error();
        if (v->count != s.position.count)
            return Error{field + " " + name + ": " + std::to_string(v->count) + " elements for " +
                         std::to_string(s.position.count) + " vertices"};
        out = *v;
        return Ok{};
    };
    bool uv0 = false, uv1 = false;
    for (Status st : {optional("NORMAL", TINYGLTF_TYPE_VEC3, kDirectionTypes, s.normal, s.hasNormal),
                      optional("TANGENT", TINYGLTF_TYPE_VEC4, kDirectionTypes, s.tangent, s.hasTangent),
                      optional("TEXCOORD_0", TINYGLTF_TYPE_VEC2, kUvTypes, s.uv0, uv0),
                      optional("TEXCOORD_1", TINYGLTF_TYPE_VEC2, kUvTypes, s.uv1, uv1)})
        if (!st) return st.error();
    s.uvSets = uv1 ? 2 : uv0 ? 1 : 0;
    // COLOR_0 is RGB or RGBA, float or normalized integers.
    const tinygltf::Model& gltf = source.views.gltf();
    int color = attribute(p, "COLOR_0");
    bool rgb = color >= 0 && size_t(color) < gltf.accessors.size() &&
               gltf.accessors[size_t(color)].type == TINYGLTF_TYPE_VEC3;
    if (Status st = optional("COLOR_0", rgb ? TINYGLTF_TYPE_VEC3 : TINYGLTF_TYPE_VEC4, kColorTypes, s.color,
                             s.hasColor);
        !st)
        return st.error();
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
    // Morph targets are read from their accessors: KHR_draco_mesh_compression leaves them out of
    // its stream. A displacement may be a float or, with KHR_mesh_quantization, a normalized
    // integer.
    for (size_t t = 0; t < p.targets.size(); ++t) {
        const std::string target = field + " target " + std::to_string(t);
        std::pair<AccessorView, AccessorView>& out = s.targets.emplace_back();
        for (const auto& [name, index] : p.targets[t]) {
            AccessorView* into = name == "POSITION" ? &out.first : name == "NORMAL" ? &out.second : nullptr;
            if (!into) continue; // TANGENT displacements: horde keeps tangents unanimated
            Result<AccessorView> v = view(source.views, index, TINYGLTF_TYPE_VEC3, {kFloat, kByte, kShort},
                                          target + " " + name);
            if (!v) return v.error();
            if (v->count != s.position.count)
                return Error{target + " " + name + ": " + std::to_string(v->count) + " elements for " +
                             std::to_string(s.position.count) + " vertices"};
            *into = *v;
        }
    }
    return s;
}

// The weights a mesh's targets rest at: the node's, else the mesh's, else zero (glTF "Morph
// Targets"); and their names, from the `targetNames` extra that exporters write.
Status restingWeights(const tinygltf::Mesh& gm, const tinygltf::Node& node, uint32_t targets,
                      const std::string& field, Mesh& mesh) {
    const std::vector<double>& given = !node.weights.empty() ? node.weights : gm.weights;
    if (!given.empty() && given.size() != targets)
        return Error{field + ": " + std::to_string(given.size()) + " weights for " + std::to_string(targets) +
                     " morph targets"};
    mesh.morphWeights.assign(targets, 0.0f);
    for (size_t t = 0; t < given.size(); ++t) mesh.morphWeights[t] = float(given[t]);
    if (gm.extras.Has("targetNames")) {
        const tinygltf::Value& names = gm.extras.Get("targetNames");
        if (names.IsArray() && names.ArrayLen() == targets) {
            for (size_t t = 0; t < targets; ++t)
                mesh.morphNames.push_back(names.Get(int(t)).IsString() ? names.Get(int(t)).Get<std::string>() : "");
        }
    }
    return Ok{};
}

struct Group {
    size_t first = 0, count = 0; // primitives of the glTF mesh
};

// Primitives with the same attribute accessors share one vertex array: one horde mesh. A Draco
// primitive's vertices are its own stream's.
std::vector<Group> groups(const tinygltf::Mesh& mesh,
                          const std::vector<std::optional<DracoPrimitive>>& draco) {
    std::vector<Group> out;
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
        if (mesh.primitives[p].mode != TINYGLTF_MODE_TRIANGLES) continue;
        if (!out.empty() && out.back().first + out.back().count == p && !draco[p] &&
            !draco[out.back().first] &&
            mesh.primitives[out.back().first].attributes == mesh.primitives[p].attributes &&
            mesh.primitives[out.back().first].targets == mesh.primitives[p].targets)
            ++out.back().count;
        else
            out.push_back({p, 1});
    }
    return out;
}

Status decodeMesh(BufferViews& views, const DracoMesh* draco, const tinygltf::Mesh& gm, const Group& g,
                  const std::string& name, const tinygltf::Node& gltfNode, uint32_t node, MeshAllocator& allocator,
                  Budget& storage, Model& model) {
    const int32_t skin = gltfNode.skin;
    const tinygltf::Model& gltf = views.gltf();
    std::string field = "mesh '" + gm.name + "' primitive " + std::to_string(g.first);
    const tinygltf::Primitive& first = gm.primitives[g.first];
    Result<Streams> s = streams(Source{views, first, draco}, field);
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
        if (draco) {
            iv = draco->triangles(); // DracoMesh::decode checked it against the indices accessor
        } else if (prim.indices >= 0) {
            Result<AccessorView> v =
                view(views, prim.indices, TINYGLTF_TYPE_SCALAR,
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
    layout.colors = s->hasColor;
    // A second set of joints and weights is kept (the eight strongest), not reduced to four here.
    layout.moreInfluences = layout.skinned && s->influences.size() > 1;
    layout.morphTargets = uint32_t(s->targets.size());
    // Normals the file does not give are made from the faces, and a target's own would not fit them.
    layout.morphNormals = s->hasNormal && std::any_of(s->targets.begin(), s->targets.end(),
                                                      [](const auto& t) { return t.second.count > 0; });
    const uint64_t bytes = streamOffsets(layout).total;
    if (!storage.take(bytes)) return Error{field + ": " + std::to_string(bytes) + " " + storage.reason()};
    Mesh mesh;
    mesh.name = name;
    mesh.node = node;
    mesh.skin = skin;
    mesh.storage = allocator.allocate(layout, name);
    if (Status st = restingWeights(gm, gltfNode, layout.morphTargets, field, mesh); !st) return st;
    MeshArrays& a = mesh.arrays();
    for (uint32_t t = 0; t < layout.morphTargets; ++t) {
        const auto& [positions, normals] = s->targets[t];
        for (uint32_t v = 0; v < vertices; ++v) {
            const size_t at = size_t(t) * vertices + v;
            a.morphPositions[at] = positions.count ? glm::vec3(positions.vec4(v)) : glm::vec3(0.0f);
            if (layout.morphNormals) a.morphNormals[at] = normals.count ? glm::vec3(normals.vec4(v)) : glm::vec3(0.0f);
        }
    }
    for (uint32_t v = 0; v < vertices; ++v) {
        a.positions[v] = glm::vec3(s->position.vec4(v));
        if (s->hasNormal) a.normals[v] = glm::vec3(s->normal.vec4(v));
        if (s->hasTangent) a.tangents[v] = s->tangent.vec4(v);
        if (s->uvSets >= 1) a.uv0[v] = glm::vec2(s->uv0.vec4(v));
        if (s->uvSets >= 2) a.uv1[v] = glm::vec2(s->uv1.vec4(v));
        if (s->hasColor) a.colors[v] = s->color.vec4(v, 1.0f);
        if (!layout.skinned) continue;
        Influence influences[16];
        size_t n = 0;
        for (const auto& [joints, weights] : s->influences)
            for (int k = 0; k < 4 && n < std::size(influences); ++k)
                influences[n++] = {joints.integer(v, k), weights.get(v, k)};
        if (layout.moreInfluences) {
            const EightInfluences eight = strongestEight(std::span(influences, n));
            a.joints[v] = eight.joints;
            a.weights[v] = eight.weights;
            a.more[v] = eight.more;
            continue;
        }
        FourInfluences four = strongestFour(std::span(influences, n));
        a.joints[v] = four.joints;
        a.weights[v] = four.weights;
    }
    uint32_t at = 0;
    for (size_t p = 0; p < indexViews.size(); ++p) {
        const AccessorView& iv = indexViews[p];
        uint32_t begin = at;
        for (size_t i = 0; i < iv.count; ++i) {
            const uint32_t index = iv.componentType ? iv.getIndex(i) : uint32_t(i);
            // Checked here, before 16-bit storage could wrap it onto a vertex that exists.
            if (index >= vertices)
                return Error{"mesh '" + gm.name + "' primitive " + std::to_string(g.first + p) +
                             " indices: index " + std::to_string(i) + " = " + std::to_string(index) +
                             " is past its " + std::to_string(vertices) + " vertices"};
            a.setIndex(at++, index);
        }
        mesh.submeshes.push_back(
            {materialName(gltf, gm.primitives[g.first + p].material), begin, uint32_t(iv.count)});
    }
    if (!s->hasNormal) faceNormals(a, glm::vec3(0, 1, 0));
    model.meshes.push_back(std::move(mesh));
    return Ok{};
}

// The node a mesh hangs on: its glTF node, or for a node left out of the hierarchy (it only
// holds skinned meshes) the root of its skeleton.
uint32_t placeOf(const Model& model, int32_t node, int skin) {
    if (node >= 0) return uint32_t(node);
    int32_t n = int32_t(model.skins[size_t(skin)].joints[0]);
    while (model.nodes[size_t(n)].parent >= 0)
        n = model.nodes[size_t(n)].parent;
    return uint32_t(n);
}
} // namespace

Status decodeMeshes(BufferViews& views, const std::vector<int32_t>& hordeOf, MeshAllocator& allocator,
                    Budget& storage, Model& model) {
    const tinygltf::Model& gltf = views.gltf();
    std::vector<std::vector<size_t>> nodesOfMesh(gltf.meshes.size()); // glTF nodes, in horde order
    std::vector<size_t> gltfOf; // horde order, then the nodes left out of it (load.cpp)
    for (size_t g = 0; g < hordeOf.size(); ++g)
        if (hordeOf[g] >= 0) gltfOf.push_back(g);
    std::sort(gltfOf.begin(), gltfOf.end(), [&](size_t x, size_t y) { return hordeOf[x] < hordeOf[y]; });
    for (size_t g = 0; g < hordeOf.size(); ++g)
        if (hordeOf[g] < 0) gltfOf.push_back(g);
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
        const std::vector<std::optional<DracoPrimitive>>& dracoOf = views.extensions().draco[m];
        std::vector<Group> parts = groups(gm, dracoOf);
        // Each Draco stream is decoded once, for the first node that places the mesh.
        std::vector<std::optional<DracoMesh>> draco(parts.size());
        for (size_t g : nodesOfMesh[m]) {
            const tinygltf::Node& node = gltf.nodes[g];
            for (size_t i = 0; i < parts.size(); ++i) {
                std::string name = parts.size() == 1 ? base : base + "_" + std::to_string(i);
                if (const std::optional<DracoPrimitive>& d = dracoOf[parts[i].first]; d && !draco[i]) {
                    Result<DracoMesh> decoded = DracoMesh::decode(views, gm.primitives[parts[i].first], *d,
                                                                  "mesh '" + gm.name + "' primitive " +
                                                                      std::to_string(parts[i].first));
                    if (!decoded) return decoded.error();
                    draco[i] = std::move(*decoded);
                }
                if (Status st = decodeMesh(views, draco[i] ? &*draco[i] : nullptr, gm, parts[i], name, node,
                                           placeOf(model, hordeOf[g], node.skin), allocator, storage, model);
                    !st)
                    return st;
            }
        }
        views.release();
    }
    return Ok{};
}

} // namespace horde::gltf
