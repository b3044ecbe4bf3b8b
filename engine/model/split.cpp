#include "model/split.h"

#include <algorithm>
#include <limits>
#include <string>

namespace horde {

namespace {
constexpr uint32_t kUnused = std::numeric_limits<uint32_t>::max();
constexpr size_t kMaxIndex16Vertices = 65536;

// One triangle of the walk: its submesh, and its place within that submesh.
struct Cursor {
    size_t submesh = 0;
    uint32_t triangle = 0;
    bool operator==(const Cursor&) const = default;
};

// The first triangle at or after c, past submeshes with no whole triangle left.
Cursor settle(const std::vector<Submesh>& submeshes, Cursor c) {
    while (c.submesh < submeshes.size() && c.triangle >= submeshes[c.submesh].indexCount / 3) {
        ++c.submesh;
        c.triangle = 0;
    }
    return c;
}

Cursor next(const std::vector<Submesh>& submeshes, Cursor c) { return settle(submeshes, {c.submesh, c.triangle + 1}); }

uint32_t firstIndex(const std::vector<Submesh>& submeshes, Cursor c) { return submeshes[c.submesh].firstIndex + 3 * c.triangle; }

template <class T> void gather(std::span<T> to, std::span<const T> from, const std::vector<uint32_t>& used) {
    if (to.empty()) return;
    for (size_t i = 0; i < used.size(); ++i) to[i] = from[used[i]];
}

// What the walk found for one part: its triangles [start, end), its vertices in order of first
// use, and where each source vertex went (kUnused for those it does not use).
struct PartPlan {
    Cursor start, end;
    uint32_t triangles = 0;
    const std::vector<uint32_t>& used;
    const std::vector<uint32_t>& remap;
};

Mesh buildPart(const Mesh& mesh, const PartPlan& plan, size_t k, MeshAllocator& allocator) {
    MeshLayout layout = mesh.layout();
    layout.vertexCount = uint32_t(plan.used.size());
    layout.indexCount = plan.triangles * 3;
    layout.index16 = plan.used.size() <= kMaxIndex16Vertices;
    Mesh part;
    part.name = mesh.name + "." + std::to_string(k);
    part.node = mesh.node;
    part.skin = mesh.skin;
    part.storage = allocator.allocate(layout, part.name);

    const MeshArrays& from = mesh.arrays();
    MeshArrays& to = part.arrays();
    gather<glm::vec3>(to.positions, from.positions, plan.used);
    gather<glm::vec3>(to.normals, from.normals, plan.used);
    gather<glm::vec4>(to.tangents, from.tangents, plan.used);
    gather<glm::vec2>(to.uv0, from.uv0, plan.used);
    gather<glm::vec2>(to.uv1, from.uv1, plan.used);
    gather<glm::vec4>(to.colors, from.colors, plan.used);
    gather<glm::u16vec4>(to.joints, from.joints, plan.used);
    gather<glm::vec4>(to.weights, from.weights, plan.used);
    gather<MoreInfluences>(to.more, from.more, plan.used);
    const size_t fromCount = mesh.vertexCount(), toCount = plan.used.size();
    for (size_t t = 0; t < layout.morphTargets; ++t) {
        gather<glm::vec3>(to.morphPositions.subspan(t * toCount, toCount),
                          std::span<const glm::vec3>(from.morphPositions).subspan(t * fromCount, fromCount), plan.used);
        if (layout.morphNormals)
            gather<glm::vec3>(to.morphNormals.subspan(t * toCount, toCount),
                              std::span<const glm::vec3>(from.morphNormals).subspan(t * fromCount, fromCount),
                              plan.used);
    }
    part.morphWeights = mesh.morphWeights;
    part.morphNames = mesh.morphNames;
    if (mesh.dangly) {
        part.dangly = Dangly{{}, mesh.dangly->displacement, mesh.dangly->tightness, mesh.dangly->period};
        for (uint32_t v : plan.used)
            part.dangly->constraints.push_back(mesh.dangly->constraints[v]);
    }
    part.bounds = {glm::vec3(std::numeric_limits<float>::max()), glm::vec3(std::numeric_limits<float>::lowest())};
    for (glm::vec3 p : to.positions) {
        part.bounds.min = glm::min(part.bounds.min, p);
        part.bounds.max = glm::max(part.bounds.max, p);
    }

    const std::vector<Submesh>& submeshes = mesh.submeshes;
    uint32_t at = 0;
    size_t source = submeshes.size(); // the source submesh part.submeshes.back() comes from
    for (Cursor c = plan.start; c != plan.end; c = next(submeshes, c)) {
        if (c.submesh != source) {
            part.submeshes.push_back({submeshes[c.submesh].material, at, 0});
            source = c.submesh;
        }
        const uint32_t first = firstIndex(submeshes, c);
        for (uint32_t i = first; i < first + 3; ++i) to.setIndex(at++, plan.remap[from.index(i)]);
        part.submeshes.back().indexCount += 3;
    }
    part.storage->commit();
    return part;
}
} // namespace

std::vector<Mesh> splitMesh(const Mesh& mesh, uint32_t maxVertices, MeshAllocator& allocator) {
    const uint32_t limit = std::max(maxVertices, 3u);
    const MeshArrays& a = mesh.arrays();
    const std::vector<Submesh>& submeshes = mesh.submeshes;
    std::vector<Mesh> parts;
    std::vector<uint32_t> remap(mesh.vertexCount(), kUnused);
    std::vector<uint32_t> used;
    for (Cursor start = settle(submeshes, {}); start.submesh < submeshes.size();) {
        Cursor end = start;
        uint32_t triangles = 0;
        while (end.submesh < submeshes.size()) {
            const uint32_t first = firstIndex(submeshes, end);
            const uint32_t corner[3] = {a.index(first), a.index(first + 1), a.index(first + 2)};
            size_t fresh = 0; // a corner repeated within the triangle counts once
            for (int k = 0; k < 3; ++k)
                if (remap[corner[k]] == kUnused && std::find(corner, corner + k, corner[k]) == corner + k) ++fresh;
            if (used.size() + fresh > limit) break;
            for (uint32_t v : corner)
                if (remap[v] == kUnused) {
                    remap[v] = uint32_t(used.size());
                    used.push_back(v);
                }
            ++triangles;
            end = next(submeshes, end);
        }
        parts.push_back(buildPart(mesh, PartPlan{start, end, triangles, used, remap}, parts.size(), allocator));
        // Only the entries this part set go back, which keeps the whole split linear.
        for (uint32_t v : used) remap[v] = kUnused;
        used.clear();
        start = end;
    }
    return parts;
}

} // namespace horde
