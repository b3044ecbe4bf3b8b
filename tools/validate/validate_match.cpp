#include "validate_match.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace horde {

namespace {
// A uniform grid of cells `tolerance` wide: candidates for a point lie in its 27 neighbours.
class PointGrid {
  public:
    PointGrid(const std::vector<glm::dvec3>& points, double cell) : points_(points), cell_(cell) {
        for (size_t i = 0; i < points.size(); ++i)
            cells_[key(cellOf(points[i]))].push_back(int32_t(i));
    }

    template <class F> void near(glm::dvec3 p, double radius, F&& visit) const {
        glm::i64vec3 c = cellOf(p);
        for (int64_t dz = -1; dz <= 1; ++dz)
            for (int64_t dy = -1; dy <= 1; ++dy)
                for (int64_t dx = -1; dx <= 1; ++dx) {
                    auto it = cells_.find(key(c + glm::i64vec3(dx, dy, dz)));
                    if (it == cells_.end()) continue;
                    for (int32_t i : it->second)
                        if (glm::length(points_[i] - p) <= radius) visit(i);
                }
    }

  private:
    // Clamped, so that a far-flung (or broken) vertex lands in an edge cell instead of
    // overflowing the integer conversion.
    glm::i64vec3 cellOf(glm::dvec3 p) const {
        glm::dvec3 c = glm::clamp(glm::floor(p / cell_), glm::dvec3(-1e15), glm::dvec3(1e15));
        return glm::i64vec3(c.x == c.x ? c.x : 0.0, c.y == c.y ? c.y : 0.0, c.z == c.z ? c.z : 0.0);
    }
    static uint64_t key(glm::i64vec3 c) {
        return uint64_t(c.x) * 0x9E3779B97F4A7C15ull ^ uint64_t(c.y) * 0xC2B2AE3D27D4EB4Full ^
               uint64_t(c.z) * 0x165667B19E3779F9ull;
    }
    const std::vector<glm::dvec3>& points_;
    double cell_;
    // Cells that hash alike share a list; the distance test above sorts them out.
    std::unordered_map<uint64_t, std::vector<int32_t>> cells_;
};

// How unlike two vertices at one position are: the UV sets both carry and the normals' angle.
double unlikeness(const Mesh& ma, size_t i, const PosedMesh& pa, const Mesh& mb, size_t j,
                  const PosedMesh& pb) {
    double d = 1.0 - glm::dot(pa.normals[i], pb.normals[j]);
    uint32_t sets = std::min(ma.layout().uvSets, mb.layout().uvSets);
    if (sets >= 1) d += glm::length(glm::dvec2(ma.arrays().uv0[i] - mb.arrays().uv0[j]));
    if (sets >= 2) d += glm::length(glm::dvec2(ma.arrays().uv1[i] - mb.arrays().uv1[j]));
    return std::isfinite(d) ? d : std::numeric_limits<double>::max();
}

// For each vertex of `from`, the most alike vertex of `to` within `tolerance`.
std::vector<int32_t> nearest(const Mesh& from, const PosedMesh& posedFrom, const Mesh& to,
                             const PosedMesh& posedTo, const PointGrid& gridTo, double tolerance,
                             size_t& unmatched) {
    std::vector<int32_t> out(posedFrom.positions.size(), -1);
    for (size_t i = 0; i < out.size(); ++i) {
        double best = std::numeric_limits<double>::infinity();
        gridTo.near(posedFrom.positions[i], tolerance, [&](int32_t j) {
            double d = unlikeness(from, i, posedFrom, to, size_t(j), posedTo);
            if (d < best) best = d, out[i] = j;
        });
        unmatched += out[i] < 0;
    }
    return out;
}
} // namespace

std::vector<std::pair<size_t, size_t>> vertexPairs(const MeshMatch& m) {
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i = 0; i < m.bOfA.size(); ++i)
        if (m.bOfA[i] >= 0) out.emplace_back(i, size_t(m.bOfA[i]));
    if (m.byOrder) return out;
    for (size_t j = 0; j < m.aOfB.size(); ++j)
        if (m.aOfB[j] >= 0) out.emplace_back(size_t(m.aOfB[j]), j);
    return out;
}

std::vector<MeshMatch> matchVertices(const Model& a, const Model& b, const std::vector<PosedMesh>& bindA,
                                     const std::vector<PosedMesh>& bindB, double tolerance) {
    std::vector<MeshMatch> out;
    double cell = std::max(tolerance, 1e-9);
    for (size_t m = 0; m < std::min(a.meshes.size(), b.meshes.size()); ++m) {
        MeshMatch match;
        const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
        if (ma.vertexCount() == mb.vertexCount()) {
            match.byOrder = true;
            match.bOfA.resize(ma.vertexCount());
            for (size_t v = 0; v < match.bOfA.size(); ++v)
                match.bOfA[v] = int32_t(v);
            match.aOfB = match.bOfA;
        } else {
            PointGrid gridA(bindA[m].positions, cell), gridB(bindB[m].positions, cell);
            match.bOfA = nearest(ma, bindA[m], mb, bindB[m], gridB, tolerance, match.unmatchedA);
            match.aOfB = nearest(mb, bindB[m], ma, bindA[m], gridA, tolerance, match.unmatchedB);
        }
        out.push_back(std::move(match));
    }
    return out;
}

} // namespace horde
