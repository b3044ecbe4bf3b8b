// ASCII mesh nodes: positions and texture vertices are indexed separately by the faces, so
// vertices are built here from the distinct corners, the way the compiler turns a text model
// into the one-index-per-vertex binary layout.
#include "nwn/nwn.h"

#include <algorithm>
#include <cstdint>

#include "model/influences.h"

namespace horde::nwn {

namespace {
// The corners' vertices: one per distinct (position, texture vertex, smoothing group), ordered by
// position index and then by first use. Most positions have one vertex, so only the extra ones
// go through a hash map.
struct Corners {
    std::vector<uint32_t> vertexOfCorner;           // final vertex of each corner
    std::vector<uint32_t> position, texture, group; // per final vertex
};

struct Key {
    uint32_t position, texture, group;
    bool operator==(const Key&) const = default;
};
struct KeyHash {
    size_t operator()(const Key& k) const {
        return size_t(k.position) * 0x9E3779B97F4A7C15ull ^ size_t(k.texture) * 0xC2B2AE3D27D4EB4Full ^
               k.group;
    }
};

Corners buildCorners(const AsciiMesh& m, bool textured) {
    const size_t positions = m.verts.size();
    constexpr uint32_t kUnused = 0xFFFFFFFFu;
    std::vector<uint32_t> firstTexture(positions, kUnused), firstGroup(positions, 0), extras(positions, 0);
    std::unordered_map<Key, uint32_t, KeyHash> extraIndex;
    std::vector<Key> extraKeys;
    std::vector<uint32_t> code(m.faces.size() * 3); // 0: the position's first vertex; e + 1: extra e
    for (size_t f = 0; f < m.faces.size(); ++f)
        for (size_t k = 0; k < 3; ++k) {
            const Key key{m.faces[f].v[k], textured ? m.faces[f].t[k] : 0, m.faces[f].group};
            if (firstTexture[key.position] == kUnused) {
                firstTexture[key.position] = key.texture;
                firstGroup[key.position] = key.group;
            } else if (firstTexture[key.position] != key.texture || firstGroup[key.position] != key.group) {
                auto [it, added] = extraIndex.emplace(key, uint32_t(extraKeys.size()));
                if (added) extraKeys.push_back(key);
                code[3 * f + k] = it->second + 1;
            }
        }
    // Each extra's place after its position's first vertex, in order of first use.
    std::vector<uint32_t> extraRank(extraKeys.size());
    for (size_t e = 0; e < extraKeys.size(); ++e)
        extraRank[e] = ++extras[extraKeys[e].position];
    std::vector<uint32_t> base(positions + 1, 0);
    for (size_t p = 0; p < positions; ++p)
        base[p + 1] = base[p] + (firstTexture[p] == kUnused ? 0 : 1 + extras[p]);
    Corners c;
    const uint32_t vertices = base[positions];
    c.position.resize(vertices);
    c.texture.resize(vertices);
    c.group.resize(vertices);
    for (size_t p = 0; p < positions; ++p)
        if (firstTexture[p] != kUnused) {
            c.position[base[p]] = uint32_t(p);
            c.texture[base[p]] = firstTexture[p];
            c.group[base[p]] = firstGroup[p];
        }
    for (size_t e = 0; e < extraKeys.size(); ++e) {
        const uint32_t v = base[extraKeys[e].position] + extraRank[e];
        c.position[v] = extraKeys[e].position;
        c.texture[v] = extraKeys[e].texture;
        c.group[v] = extraKeys[e].group;
    }
    c.vertexOfCorner.resize(code.size());
    for (size_t i = 0; i < code.size(); ++i) {
        const uint32_t p = m.faces[i / 3].v[i % 3];
        c.vertexOfCorner[i] = base[p] + (code[i] == 0 ? 0 : extraRank[code[i] - 1]);
    }
    return c;
}
} // namespace

namespace {
bool checkMesh(Text& t, const AsciiNode& node, const AsciiMesh& m, bool textured) {
    const size_t n = m.verts.size();
    const std::string who = "node '" + Text::quote(node.name) + "': ";
    if (m.faces.size() > UINT32_MAX / 3) return t.failAt(m.facesAt, "faces", who + "more than 2^32 indices");
    for (size_t f = 0; f < m.faces.size(); ++f)
        for (size_t k = 0; k < 3; ++k) {
            if (m.faces[f].v[k] >= n)
                return t.failAt(m.facesAt, "faces",
                                who + "face " + std::to_string(f) + " uses position " +
                                    std::to_string(m.faces[f].v[k]) + " of " + std::to_string(n) + " verts");
            if (textured && m.faces[f].t[k] >= m.tverts[0].size())
                return t.failAt(m.facesAt, "faces",
                                who + "face " + std::to_string(f) + " uses texture vertex " +
                                    std::to_string(m.faces[f].t[k]) + " of " +
                                    std::to_string(m.tverts[0].size()) + " tverts");
        }
    if (!m.tverts[1].empty() && m.tverts[1].size() != m.tverts[0].size())
        return t.failAt(m.facesAt, "tverts1",
                        who + std::to_string(m.tverts[1].size()) + " rows for " +
                            std::to_string(m.tverts[0].size()) + " tverts");
    if (!m.normals.empty() && m.normals.size() != n)
        return t.failAt(m.normalsAt, "normals",
                        who + std::to_string(m.normals.size()) + " rows for " + std::to_string(n) + " verts");
    if (!m.colors.empty() && m.colors.size() != n)
        return t.failAt(m.colorsAt, "colors",
                        who + std::to_string(m.colors.size()) + " rows for " + std::to_string(n) + " verts");
    if ((node.flags & kHasSkin) && m.weights.size() != n)
        return t.failAt(m.weightsAt, "weights",
                        who + std::to_string(m.weights.size()) + " rows for " + std::to_string(n) + " verts");
    if ((node.flags & kHasDangly) && !m.constraints.empty() && m.constraints.size() != n)
        return t.failAt(m.constraintsAt, "constraints",
                        who + std::to_string(m.constraints.size()) + " rows for " + std::to_string(n) +
                            " verts");
    return true;
}

// Area-weighted normals over the faces that share a vertex's position and smoothing group.
void smoothNormals(const AsciiMesh& m, const Corners& c, MeshArrays& a) {
    std::vector<glm::vec3> sum(a.positions.size(), glm::vec3(0.0f));
    for (size_t f = 0; f < m.faces.size(); ++f) {
        const uint32_t i0 = c.vertexOfCorner[3 * f], i1 = c.vertexOfCorner[3 * f + 1],
                       i2 = c.vertexOfCorner[3 * f + 2];
        glm::vec3 n = glm::cross(a.positions[i1] - a.positions[i0], a.positions[i2] - a.positions[i0]);
        sum[i0] += n, sum[i1] += n, sum[i2] += n;
    }
    // A position's vertices are contiguous; those of one smoothing group share their sums.
    std::vector<std::pair<uint32_t, uint32_t>> run; // (group, vertex)
    for (size_t begin = 0, end = 0; begin < sum.size(); begin = end) {
        for (end = begin + 1; end < sum.size() && c.position[end] == c.position[begin];)
            ++end;
        if (end - begin > 1) {
            run.clear();
            for (size_t v = begin; v < end; ++v)
                run.emplace_back(c.group[v], uint32_t(v));
            std::sort(run.begin(), run.end());
            for (size_t i = 0, j = 0; i < run.size(); i = j) {
                glm::vec3 total(0.0f);
                for (j = i; j < run.size() && run[j].first == run[i].first; ++j)
                    total += sum[run[j].second];
                for (size_t k = i; k < j; ++k)
                    sum[run[k].second] = total;
            }
        }
    }
    for (size_t v = 0; v < sum.size(); ++v) {
        float length = glm::length(sum[v]);
        a.normals[v] = length > 0.0f ? sum[v] / length : glm::vec3(0, 0, 1); // NWN is Z-up
    }
}

bool decodeWeights(Text& t, const AsciiNode& node, const Corners& c, const std::vector<glm::mat4>& restModel,
                   const Model& model, MeshArrays& a, Skin& skin) {
    const AsciiMesh& m = *node.mesh;
    std::unordered_map<std::string, uint32_t> byName;
    for (uint32_t n = 0; n < model.nodes.size(); ++n)
        byName.emplace(asciiLower(model.nodes[n].name), n);
    // Bone names -> joints, in order of first use.
    std::vector<uint32_t> jointOfBone(m.bones.size());
    std::vector<int32_t> jointOfNode(model.nodes.size(), -1);
    for (size_t b = 0; b < m.bones.size(); ++b) {
        auto found = byName.find(m.bones[b]);
        if (found == byName.end())
            return t.failAt(m.weightsAt, "weights",
                            "node '" + Text::quote(node.name) + "': bone '" + Text::quote(m.bones[b]) +
                                "' names no node of the model");
        int32_t& joint = jointOfNode[found->second];
        if (joint < 0) {
            joint = int32_t(skin.joints.size());
            skin.joints.push_back(found->second);
            skin.inverseBind.push_back(glm::inverse(restModel[found->second]));
        }
        jointOfBone[b] = uint32_t(joint);
    }
    for (size_t v = 0; v < c.position.size(); ++v) {
        const AsciiWeights& w = m.weights[c.position[v]];
        Influence influences[4];
        for (uint32_t k = 0; k < w.count; ++k)
            influences[k] = {jointOfBone[w.bone[k]], w.weight[int(k)]};
        FourInfluences four = strongestFour(std::span<const Influence>(influences, w.count));
        a.joints[v] = four.joints;
        a.weights[v] = four.weights;
    }
    return true;
}

std::string describeDangly(const AsciiMesh& m) {
    char text[160];
    std::snprintf(text, sizeof text,
                  "danglymesh drawn rigid (no dangle physics); %zu constraints, displacement %g, tightness "
                  "%g, period %g",
                  m.constraints.size(), m.dangle[0], m.dangle[1], m.dangle[2]);
    return text;
}
} // namespace

bool decodeAsciiMesh(Text& t, const AsciiNode& node, uint32_t index, const std::vector<glm::mat4>& restModel,
                     Model& model, MeshAllocator& allocator) {
    const AsciiMesh& m = *node.mesh;
    const bool textured = !m.tverts[0].empty();
    if (!checkMesh(t, node, m, textured)) return false;
    if (node.flags & kHasDangly) model.extras.push_back({"dangly", node.name, describeDangly(m)});
    if (node.flags & kHasAABB) {
        model.extras.push_back({"walkmesh", node.name,
                                std::to_string(m.faces.size()) + " faces, " + std::to_string(m.verts.size()) +
                                    " vertices (AABB tree, not drawn)"});
        return true;
    }
    if (!m.render) {
        model.extras.push_back({"hidden mesh", node.name, "render 0: not drawn by the game"});
        return true;
    }
    if (m.faces.empty()) return true;

    const Corners c = buildCorners(m, textured);
    const bool skinned = (node.flags & kHasSkin) != 0;
    MeshLayout layout;
    layout.vertexCount = uint32_t(c.position.size());
    layout.indexCount = uint32_t(m.faces.size() * 3);
    layout.uvSets = !textured ? 0 : m.tverts[1].empty() ? 1 : 2;
    layout.skinned = skinned;
    layout.colors = !m.colors.empty();
    NodeMesh started = startMesh(node.name, index, layout, restModel, allocator);
    Mesh& mesh = started.mesh;
    MeshArrays& a = mesh.arrays();
    for (size_t v = 0; v < c.position.size(); ++v) {
        a.positions[v] = started.position(m.verts[c.position[v]]);
        if (layout.uvSets >= 1) a.uv0[v] = m.tverts[0][c.texture[v]];
        if (layout.uvSets >= 2) a.uv1[v] = m.tverts[1][c.texture[v]];
        // The asset model's colours are 0..1 (glTF COLOR_0); NWN's are floats meant in that range.
        if (layout.colors) a.colors[v] = glm::vec4(glm::clamp(m.colors[c.position[v]], 0.0f, 1.0f), 1.0f);
    }
    for (size_t i = 0; i < c.vertexOfCorner.size(); ++i)
        a.setIndex(i, c.vertexOfCorner[i]);
    if (!m.normals.empty()) {
        for (size_t v = 0; v < c.position.size(); ++v)
            a.normals[v] = started.normal(m.normals[c.position[v]]);
    } else {
        smoothNormals(m, c, a);
    }
    if (skinned) {
        Skin skin;
        if (!decodeWeights(t, node, c, restModel, model, a, skin)) return false;
        mesh.skin = int32_t(model.skins.size());
        model.skins.push_back(std::move(skin));
    }
    if (node.flags & kHasDangly) {
        // One constraint per built vertex, from its position, as the compiler rebuilds the array;
        // a danglymesh without constraints has every vertex fixed (0).
        mesh.dangly = Dangly{std::vector<float>(c.position.size(), 0.0f), m.dangle[0], m.dangle[1], m.dangle[2]};
        if (!m.constraints.empty())
            for (size_t v = 0; v < c.position.size(); ++v) mesh.dangly->constraints[v] = m.constraints[c.position[v]];
    }
    mesh.submeshes.push_back({m.bitmap, 0, layout.indexCount});
    addMaterial(model, m.bitmap, m.diffuse, m.alpha);
    model.meshes.push_back(std::move(mesh));
    return true;
}

} // namespace horde::nwn
