#include "grimrock/grimrock.h"

#include <algorithm>
#include <limits>

namespace horde::grimrock {

namespace {
// Where each mesh goes: its own node when that node holds no other entity, else a child node
// with an identity transform (one entity per node in MDL1), which places it the same way.
struct Placement {
    std::vector<int32_t> meshOfNode;
    std::vector<std::pair<uint32_t, uint32_t>> extraNodes; // (parent node, mesh)
};

Placement place(const Model& model) {
    Placement p;
    p.meshOfNode.assign(model.nodes.size(), -1);
    for (uint32_t m = 0; m < model.meshes.size(); ++m) {
        uint32_t node = model.meshes[m].node;
        if (p.meshOfNode[node] < 0) p.meshOfNode[node] = int32_t(m);
        else p.extraNodes.emplace_back(node, m);
    }
    return p;
}

void writeArrayHeader(Output& out, DataType type, int32_t dim, int32_t componentBytes) {
    out.i32(type);
    out.i32(dim);
    out.i32(dim * componentBytes);
}

void writeAbsentArray(Output& out) {
    out.i32(0);
    out.i32(0);
    out.i32(0);
}

void writeMeshEntity(Output& out, const Model& model, const Mesh& mesh, const Conversion& conv) {
    const MeshArrays& a = mesh.arrays();
    const MeshLayout& layout = mesh.layout();
    const uint32_t n = mesh.vertexCount();
    out.text("MESH");
    out.i32(2);
    out.i32(int32_t(n));
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest());
    writeArrayHeader(out, kFloat32, 3, 4);
    for (glm::vec3 p : a.positions) {
        glm::vec3 q = conv.point(p);
        lo = glm::min(lo, q), hi = glm::max(hi, q);
        out.vec3(q);
    }
    writeArrayHeader(out, kFloat32, 3, 4);
    for (glm::vec3 v : a.normals) out.vec3(conv.direction(v));
    if (layout.tangents) {
        writeArrayHeader(out, kFloat32, 3, 4);
        for (glm::vec4 t : a.tangents) out.vec3(conv.direction(glm::vec3(t)));
        // The engine keeps the bitangent as a sign; the file wants the vector.
        writeArrayHeader(out, kFloat32, 3, 4);
        for (uint32_t v = 0; v < n; ++v)
            out.vec3(conv.direction(glm::cross(a.normals[v], glm::vec3(a.tangents[v])) * a.tangents[v].w));
    } else {
        writeAbsentArray(out), writeAbsentArray(out);
    }
    if (layout.colors) {
        writeArrayHeader(out, kFloat32, 4, 4);
        for (glm::vec4 c : a.colors)
            out.put(c);
    } else {
        writeAbsentArray(out);
    }
    for (uint32_t set = 0; set < 8; ++set) {
        if (set >= layout.uvSets) {
            writeAbsentArray(out);
            continue;
        }
        writeArrayHeader(out, kFloat32, 2, 4);
        for (glm::vec2 uv : set == 0 ? a.uv0 : a.uv1) out.put(uv);
    }
    if (mesh.skinned()) {
        // int32 indices and float weights, as the game's own files store them.
        writeArrayHeader(out, kInt32, 4, 4);
        for (glm::u16vec4 j : a.joints) out.put(glm::ivec4(j));
        writeArrayHeader(out, kFloat32, 4, 4);
        for (glm::vec4 w : a.weights) out.put(w);
    } else {
        writeAbsentArray(out), writeAbsentArray(out);
    }
    out.i32(int32_t(mesh.indexCount()));
    for (uint32_t i = 0; i < mesh.indexCount(); i += 3) {
        uint32_t t[3] = {a.index(i), a.index(i + 1), a.index(i + 2)};
        if (conv.flipWinding) std::swap(t[1], t[2]);
        for (uint32_t v : t) out.i32(int32_t(v));
    }
    out.i32(int32_t(mesh.submeshes.size()));
    for (const Submesh& s : mesh.submeshes) {
        out.string(s.material);
        out.i32(2);
        out.i32(int32_t(s.firstIndex));
        out.i32(int32_t(s.indexCount / 3));
    }
    if (n == 0) lo = hi = glm::vec3(0.0f);
    glm::vec3 centre = (lo + hi) * 0.5f;
    float radius = 0.0f;
    for (glm::vec3 p : a.positions) radius = std::max(radius, glm::length(conv.point(p) - centre));
    out.vec3(centre);
    out.f32(radius);
    out.vec3(lo);
    out.vec3(hi);
    if (mesh.skinned()) {
        const Skin& skin = model.skins[mesh.skin];
        out.i32(int32_t(skin.joints.size()));
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            out.i32(int32_t(skin.joints[j]));
            out.mat4x3(glm::mat4(conv.transform(glm::dmat4(skin.inverseBind[j]))));
        }
    } else {
        out.i32(0);
    }
    out.vec3(glm::vec3(0.0f)); // emissive colour, deprecated
    out.put(uint8_t(1));       // casts shadows
}

Status check(const Model& model, const std::filesystem::path& path) {
    for (const Mesh& mesh : model.meshes) {
        if (mesh.indexCount() % 3 != 0) return Error{path.string() + ": mesh '" + mesh.name + "' is not a triangle list"};
        for (const Submesh& s : mesh.submeshes)
            if (s.indexCount % 3 != 0)
                return Error{path.string() + ": submesh '" + s.material + "' of mesh '" + mesh.name + "' is not whole triangles"};
        if (mesh.vertexCount() > uint32_t(std::numeric_limits<int32_t>::max()) ||
            mesh.indexCount() > uint32_t(std::numeric_limits<int32_t>::max()))
            return Error{path.string() + ": mesh '" + mesh.name + "' is too large for int32 counts"};
        if (mesh.layout().uvSets > 2) return Error{path.string() + ": mesh '" + mesh.name + "' has more uv sets than horde keeps"};
    }
    return Ok{};
}
} // namespace

Status writeModel(const Model& model, const Conversion& conv, const std::filesystem::path& path) {
    if (model.nodes.empty()) return Error{path.string() + ": a Grimrock model needs at least one node"};
    if (Status st = check(model, path); !st) return st;
    Placement placement = place(model);
    Output out;
    out.text("MDL1");
    out.i32(2);
    out.i32(int32_t(model.nodes.size() + placement.extraNodes.size()));
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& node = model.nodes[i];
        out.string(node.name);
        out.mat4x3(glm::mat4(toMatrix(conv.trs(restTrs(node)))));
        out.i32(node.parent);
        int32_t mesh = placement.meshOfNode[i];
        out.i32(mesh < 0 ? -1 : 0);
        if (mesh >= 0) writeMeshEntity(out, model, model.meshes[mesh], conv);
    }
    for (auto [parent, mesh] : placement.extraNodes) {
        std::string name = model.meshes[mesh].name;
        if (name.empty() || findNode(model, name) >= 0) name += "_mesh" + std::to_string(mesh);
        out.string(name);
        out.mat4x3(glm::mat4(1.0f));
        out.i32(int32_t(parent));
        out.i32(0);
        writeMeshEntity(out, model, model.meshes[mesh], conv);
    }
    return out.save(path);
}

Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    Conversion conversion = toFileAxes(model.axes);
    if (Status st = writeModel(model, conversion, path); !st) return st.error();
    Companions written;
    for (const Clip& clip : model.clips) {
        written.anims.push_back(animationPath(path, clip.name));
        if (Status st = writeAnimation(model, clip, conversion, written.anims.back()); !st) return st.error();
    }
    return written;
}

} // namespace horde::grimrock
