#include "validate_pieces.h"

#include <algorithm>
#include <limits>

#include "anim/reference.h"
#include "loader.h"

namespace horde {

namespace {
template <class T> void append(std::span<T> to, std::span<const T> from, size_t at) {
    std::copy(from.begin(), from.end(), to.begin() + std::ptrdiff_t(at));
}

// The joints of the merged mesh: A's joints in A's order, then any others the pieces use in order
// of first use. A skin node's bone table lists only the bones its vertices use, so A's joints
// that no vertex weighs (a source skin may list every node) come back from B's nodes of the same
// name; weighing nothing, they move no vertex.
std::vector<uint32_t> jointOrder(const Model& a, const Mesh* aMesh, const Model& b, const std::vector<const Mesh*>& parts) {
    std::vector<uint32_t> used;
    for (const Mesh* m : parts)
        for (uint32_t j : b.skins[size_t(m->skin)].joints)
            if (std::find(used.begin(), used.end(), j) == used.end()) used.push_back(j);
    std::vector<uint32_t> ordered;
    if (aMesh && aMesh->skinned())
        for (uint32_t ja : a.skins[size_t(aMesh->skin)].joints) {
            const int32_t jb = findNode(b, a.nodes[ja].name);
            if (jb >= 0 && std::find(ordered.begin(), ordered.end(), uint32_t(jb)) == ordered.end())
                ordered.push_back(uint32_t(jb));
        }
    for (uint32_t jb : used)
        if (std::find(ordered.begin(), ordered.end(), jb) == ordered.end()) ordered.push_back(jb);
    return ordered;
}

Mesh merge(const Model& a, const Mesh* aMesh, Model& b, const std::vector<const Mesh*>& parts,
           MeshAllocator& allocator) {
    const Mesh& host = *parts[0];
    MeshLayout layout = host.layout();
    layout.vertexCount = layout.indexCount = 0;
    for (const Mesh* m : parts) {
        layout.vertexCount += m->vertexCount();
        layout.indexCount += m->indexCount();
    }
    layout.index16 = layout.vertexCount <= 0x10000;
    Mesh out;
    out.name = host.name;
    out.node = host.node;
    out.storage = allocator.allocate(layout, out.name);
    MeshArrays& to = out.arrays();
    Skin skin;
    if (host.skinned()) {
        std::vector<glm::dmat4> locals(b.nodes.size()), rest(b.nodes.size());
        sampleLocals(b, nullptr, 0.0, locals);
        localToModel(b, locals, rest);
        skin.joints = jointOrder(a, aMesh, b, parts);
        for (uint32_t node : skin.joints) {
            glm::mat4 inverseBind = glm::mat4(glm::inverse(rest[node])); // for joints no piece uses
            for (const Mesh* m : parts) {
                const Skin& s = b.skins[size_t(m->skin)];
                auto it = std::find(s.joints.begin(), s.joints.end(), node);
                if (it == s.joints.end()) continue;
                inverseBind = s.inverseBind[size_t(it - s.joints.begin())];
                break;
            }
            skin.inverseBind.push_back(inverseBind);
        }
    }
    const bool dangly = std::all_of(parts.begin(), parts.end(), [](const Mesh* m) { return m->dangly.has_value(); });
    if (dangly) out.dangly = Dangly{{}, host.dangly->displacement, host.dangly->tightness, host.dangly->period};
    size_t v0 = 0, i0 = 0;
    out.bounds = {glm::vec3(std::numeric_limits<float>::max()), glm::vec3(std::numeric_limits<float>::lowest())};
    for (const Mesh* m : parts) {
        const MeshArrays& from = m->arrays();
        append<glm::vec3>(to.positions, from.positions, v0);
        append<glm::vec3>(to.normals, from.normals, v0);
        if (layout.tangents) append<glm::vec4>(to.tangents, from.tangents, v0);
        if (layout.uvSets >= 1) append<glm::vec2>(to.uv0, from.uv0, v0);
        if (layout.uvSets >= 2) append<glm::vec2>(to.uv1, from.uv1, v0);
        if (layout.colors) append<glm::vec4>(to.colors, from.colors, v0);
        if (layout.skinned) {
            const Skin& s = b.skins[size_t(m->skin)];
            append<glm::vec4>(to.weights, from.weights, v0);
            for (size_t v = 0; v < m->vertexCount(); ++v)
                for (int k = 0; k < 4; ++k) {
                    uint32_t node = s.joints[from.joints[v][k]];
                    to.joints[v0 + v][k] =
                        uint16_t(std::find(skin.joints.begin(), skin.joints.end(), node) - skin.joints.begin());
                }
        }
        if (dangly) out.dangly->constraints.insert(out.dangly->constraints.end(), m->dangly->constraints.begin(),
                                                   m->dangly->constraints.end());
        for (size_t i = 0; i < m->indexCount(); ++i)
            to.setIndex(i0 + i, uint32_t(v0) + from.index(i));
        for (const Submesh& s : m->submeshes)
            out.submeshes.push_back({s.material, uint32_t(i0) + s.firstIndex, s.indexCount});
        for (glm::vec3 p : from.positions) {
            out.bounds.min = glm::min(out.bounds.min, p);
            out.bounds.max = glm::max(out.bounds.max, p);
        }
        v0 += m->vertexCount();
        i0 += m->indexCount();
    }
    if (host.skinned()) {
        out.skin = int32_t(b.skins.size());
        b.skins.push_back(std::move(skin));
    }
    out.storage->commit();
    return out;
}

bool sameStreams(const Mesh& x, const Mesh& y) {
    const MeshLayout &p = x.layout(), &q = y.layout();
    return x.skinned() == y.skinned() && p.tangents == q.tangents && p.uvSets == q.uvSets && p.colors == q.colors &&
           x.dangly.has_value() == y.dangly.has_value();
}
} // namespace

void mergePieces(const Model& a, Model& b, MeshAllocator& allocator) {
    const AddedNodes c = addedNodes(a, b);
    if (!c.joinPieces) return;
    std::vector<int32_t> meshOf(b.nodes.size(), -1);
    for (size_t m = 0; m < b.meshes.size(); ++m)
        if (meshOf[b.meshes[m].node] < 0) meshOf[b.meshes[m].node] = int32_t(m);
    std::vector<std::vector<const Mesh*>> parts(b.meshes.size());
    std::vector<bool> absorbed(b.meshes.size(), false);
    for (size_t m = 0; m < b.meshes.size(); ++m)
        parts[m].push_back(&b.meshes[m]);
    for (uint32_t p : c.pieces) {
        const int32_t piece = meshOf[p], host = meshOf[size_t(b.nodes[p].parent)];
        if (piece < 0 || host < 0 || !sameStreams(b.meshes[size_t(piece)], b.meshes[size_t(host)])) continue;
        parts[size_t(host)].push_back(&b.meshes[size_t(piece)]);
        absorbed[size_t(piece)] = true;
    }
    std::vector<Mesh> meshes;
    for (size_t m = 0; m < b.meshes.size(); ++m) {
        if (absorbed[m]) continue;
        const size_t place = meshes.size();
        const Mesh* aMesh = place < a.meshes.size() ? &a.meshes[place] : nullptr;
        // Skinned meshes go through merge even alone, for the joint numbering.
        const bool keep = parts[m].size() == 1 && !b.meshes[m].skinned();
        meshes.push_back(keep ? std::move(b.meshes[m]) : merge(a, aMesh, b, parts[m], allocator));
    }
    // Skins no mesh uses any more (the pieces' own) are dropped, the rest renumbered.
    std::vector<int32_t> renumber(b.skins.size(), -1);
    std::vector<Skin> skins;
    for (Mesh& m : meshes)
        if (m.skinned()) {
            int32_t& to = renumber[size_t(m.skin)];
            if (to < 0) {
                to = int32_t(skins.size());
                skins.push_back(std::move(b.skins[size_t(m.skin)]));
            }
            m.skin = to;
        }
    b.meshes = std::move(meshes);
    b.skins = std::move(skins);
}

} // namespace horde
