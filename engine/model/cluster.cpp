#include "model/cluster.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

namespace horde {

namespace {

constexpr uint32_t kNone = ~0u;

// The squared distance to a set of planes, summed with weights: p'Ap + 2b'p + c.
struct Quadric {
    double a00 = 0, a01 = 0, a02 = 0, a11 = 0, a12 = 0, a22 = 0, b0 = 0, b1 = 0, b2 = 0, c = 0;

    void addPlane(glm::dvec3 n, double d, double weight) {
        a00 += weight * n.x * n.x, a01 += weight * n.x * n.y, a02 += weight * n.x * n.z;
        a11 += weight * n.y * n.y, a12 += weight * n.y * n.z, a22 += weight * n.z * n.z;
        b0 += weight * n.x * d, b1 += weight * n.y * d, b2 += weight * n.z * d, c += weight * d * d;
    }
    double error(glm::dvec3 p) const {
        return p.x * (a00 * p.x + 2.0 * (a01 * p.y + a02 * p.z + b0)) +
               p.y * (a11 * p.y + 2.0 * (a12 * p.z + b1)) + p.z * (a22 * p.z + 2.0 * b2) + c;
    }
};

// Equal positions give equal bits (-0 and +0 alike), and the bits order positions totally.
std::array<uint32_t, 3> bitsOf(glm::vec3 p) {
    return {std::bit_cast<uint32_t>(p.x + 0.0f), std::bit_cast<uint32_t>(p.y + 0.0f),
            std::bit_cast<uint32_t>(p.z + 0.0f)};
}

class UnionFind {
  public:
    explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0u); }
    uint32_t find(uint32_t v) {
        while (parent_[v] != v)
            v = parent_[v] = parent_[parent_[v]];
        return v;
    }
    // The lower root stays: the result does not depend on the order of joins.
    void join(uint32_t a, uint32_t b) {
        a = find(a), b = find(b);
        if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }
    std::vector<uint32_t> roots() {
        std::vector<uint32_t> out(parent_.size());
        for (uint32_t v = 0; v < out.size(); ++v)
            out[v] = find(v);
        return out;
    }

  private:
    std::vector<uint32_t> parent_;
};

// Each vertex's position numbered densely in the order of the positions' bits, so that equal
// positions get one number.
std::vector<uint32_t> positionIds(std::span<const glm::vec3> positions) {
    std::vector<uint32_t> order(positions.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::make_pair(bitsOf(positions[a]), a) < std::make_pair(bitsOf(positions[b]), b);
    });
    std::vector<uint32_t> ids(positions.size());
    uint32_t id = 0;
    for (size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && bitsOf(positions[order[i]]) != bitsOf(positions[order[i - 1]])) ++id;
        ids[order[i]] = id;
    }
    return ids;
}

using Triangle = std::array<uint32_t, 3>;

// One set of triangles clustered at any cell size: what does not depend on the size is found once.
class Clustering {
  public:
    Clustering(std::span<const glm::vec3> positions, std::span<const uint64_t> regions,
               std::span<const uint32_t> triangles);

    float extent() const { return extent_; }
    // The triangles clustering with this cell size leaves, each once.
    std::vector<Triangle> left(float cell) const;
    // About how many: those with corners in three clusters, once per three clusters and winding
    // (two sides of a seam may leave two), without choosing positions, for searching cell sizes.
    size_t count(float cell) const;

  private:
    // Per vertex the triangles name: its cell's packed coordinates.
    std::vector<uint64_t> cellsOf(float cell) const;

    std::span<const glm::vec3> positions_;
    std::span<const uint64_t> regions_;
    std::vector<uint32_t> triangles_; // those with area: one without draws nothing, clustered or not
    std::vector<uint32_t> named_;     // the vertices they name, in order
    std::vector<uint32_t> position_;  // per vertex: positionIds
    glm::vec3 origin_{0.0f};
    float extent_ = 0.0f;
};

Clustering::Clustering(std::span<const glm::vec3> positions, std::span<const uint64_t> regions,
                       std::span<const uint32_t> triangles)
    : positions_(positions), regions_(regions), position_(positionIds(positions)) {
    for (size_t t = 0; t + 3 <= triangles.size(); t += 3) {
        const glm::vec3 a = positions[triangles[t]], b = positions[triangles[t + 1]],
                        c = positions[triangles[t + 2]];
        if (glm::length(glm::cross(b - a, c - a)) > 0.0f)
            triangles_.insert(triangles_.end(), &triangles[t], &triangles[t] + 3);
    }
    std::vector<bool> isNamed(positions.size(), false);
    for (uint32_t v : triangles_)
        isNamed[v] = true;
    for (uint32_t v = 0; v < positions.size(); ++v)
        if (isNamed[v]) named_.push_back(v);
    glm::vec3 hi(-std::numeric_limits<float>::max());
    origin_ = glm::vec3(std::numeric_limits<float>::max());
    for (uint32_t v : named_) {
        origin_ = glm::min(origin_, positions[v]);
        hi = glm::max(hi, positions[v]);
    }
    extent_ = named_.empty() ? 0.0f : std::max({hi.x - origin_.x, hi.y - origin_.y, hi.z - origin_.z});
}

std::vector<uint64_t> Clustering::cellsOf(float cell) const {
    constexpr double kAxis = double((1u << 21) - 1);
    auto axis = [&](float x, float from) {
        return uint64_t(std::clamp(std::floor(double(x - from) / double(cell)), 0.0, kAxis));
    };
    std::vector<uint64_t> cells(positions_.size(), 0);
    for (uint32_t v : named_) {
        const glm::vec3 p = positions_[v];
        cells[v] = axis(p.x, origin_.x) << 42 | axis(p.y, origin_.y) << 21 | axis(p.z, origin_.z);
    }
    return cells;
}

std::vector<Triangle> Clustering::left(float cell) const {
    const size_t n = positions_.size();
    const std::vector<uint64_t> cells = cellsOf(cell);
    // Sides: vertices of one cell joined by edges inside it.
    UnionFind joined(n);
    for (size_t t = 0; t < triangles_.size(); t += 3)
        for (int e = 0; e < 3; ++e) {
            const uint32_t a = triangles_[t + e], b = triangles_[t + (e + 1) % 3];
            if (cells[a] == cells[b]) joined.join(a, b);
        }
    const std::vector<uint32_t> side = joined.roots();

    // Clusters (a cell and a region) and cells, numbered densely in the order of their keys.
    std::vector<uint32_t> byKey(named_);
    std::sort(byKey.begin(), byKey.end(), [&](uint32_t a, uint32_t b) {
        return std::tie(cells[a], regions_[a], a) < std::tie(cells[b], regions_[b], b);
    });
    std::vector<uint32_t> cluster(n, kNone), cellIndex(n, kNone);
    uint32_t clusters = 0, cellCount = 0;
    for (size_t i = 0; i < byKey.size(); ++i) {
        const uint32_t v = byKey[i], before = i > 0 ? byKey[i - 1] : kNone;
        const bool newCell = i == 0 || cells[v] != cells[before];
        clusters += newCell || regions_[v] != regions_[before];
        cellCount += newCell;
        cluster[v] = clusters - 1;
        cellIndex[v] = cellCount - 1;
    }

    // The planes of the triangles touching each cell, once per cell.
    std::vector<Quadric> quadrics(cellCount);
    for (size_t t = 0; t < triangles_.size(); t += 3) {
        const uint32_t* c = &triangles_[t];
        const glm::dvec3 a(positions_[c[0]]), b(positions_[c[1]]), d(positions_[c[2]]);
        const glm::dvec3 normal = glm::cross(b - a, d - a);
        const double twiceArea = glm::length(normal);
        const glm::dvec3 unit = normal / twiceArea;
        const uint32_t touched[3] = {cellIndex[c[0]], cellIndex[c[1]], cellIndex[c[2]]};
        for (int k = 0; k < 3; ++k)
            if (std::find(touched, touched + k, touched[k]) == touched + k)
                quadrics[touched[k]].addPlane(unit, -glm::dot(unit, a), 0.5 * twiceArea);
    }

    // How many sides hold each position (a position lies in one cell).
    std::vector<std::pair<uint32_t, uint32_t>> held; // (position, side)
    for (uint32_t v : named_)
        held.push_back({position_[v], side[v]});
    std::sort(held.begin(), held.end());
    held.erase(std::unique(held.begin(), held.end()), held.end());
    std::vector<uint32_t> holders(n, 0); // per position
    for (const auto& [p, s] : held)
        ++holders[p];

    // Each cluster's vertex: ranked alike in every cluster of a cell, so that clusters sharing
    // their best position pick it alike.
    auto rank = [&](uint32_t v) {
        return std::make_tuple(~holders[position_[v]],
                               quadrics[cellIndex[v]].error(glm::dvec3(positions_[v])), position_[v], v);
    };
    std::vector<uint32_t> chosen(clusters, kNone);
    for (uint32_t v : named_) {
        uint32_t& best = chosen[cluster[v]];
        if (best == kNone || rank(v) < rank(best)) best = v;
    }
    // Each side's own vertex at its cluster's position, where it has one.
    std::vector<uint32_t> own(n, kNone); // per side
    for (uint32_t v : named_)
        if (position_[v] == position_[chosen[cluster[v]]]) own[side[v]] = std::min(own[side[v]], v);
    auto moved = [&](uint32_t v) { return own[side[v]] != kNone ? own[side[v]] : chosen[cluster[v]]; };

    std::vector<Triangle> out;
    for (size_t t = 0; t < triangles_.size(); t += 3) {
        const uint32_t* c = &triangles_[t];
        if (cluster[c[0]] == cluster[c[1]] || cluster[c[1]] == cluster[c[2]] ||
            cluster[c[2]] == cluster[c[0]])
            continue;
        Triangle m{moved(c[0]), moved(c[1]), moved(c[2])};
        const glm::vec3 a = positions_[m[0]];
        if (!(glm::length(glm::cross(positions_[m[1]] - a, positions_[m[2]] - a)) > 0.0f))
            continue; // in a line
        // The same triangle whichever corner comes first, so that duplicates meet.
        std::rotate(m.begin(), std::min_element(m.begin(), m.end()), m.end());
        out.push_back(m);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

size_t Clustering::count(float cell) const {
    const std::vector<uint64_t> cells = cellsOf(cell);
    using Cluster = std::pair<uint64_t, uint64_t>; // (cell, region)
    std::vector<std::array<Cluster, 3>> keys;
    for (size_t t = 0; t < triangles_.size(); t += 3) {
        std::array<Cluster, 3> k;
        for (int c = 0; c < 3; ++c)
            k[c] = {cells[triangles_[t + c]], regions_[triangles_[t + c]]};
        if (k[0] == k[1] || k[1] == k[2] || k[2] == k[0]) continue;
        std::rotate(k.begin(), std::min_element(k.begin(), k.end()), k.end());
        keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    return size_t(std::unique(keys.begin(), keys.end()) - keys.begin());
}

std::vector<uint32_t> flatten(const std::vector<Triangle>& triangles) {
    std::vector<uint32_t> out;
    out.reserve(triangles.size() * 3);
    for (const Triangle& t : triangles)
        out.insert(out.end(), t.begin(), t.end());
    return out;
}

} // namespace

std::vector<uint32_t> piecesOf(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles) {
    UnionFind pieces(positions.size());
    for (size_t t = 0; t + 3 <= triangles.size(); t += 3) {
        pieces.join(triangles[t], triangles[t + 1]);
        pieces.join(triangles[t], triangles[t + 2]);
    }
    const std::vector<uint32_t> position = positionIds(positions);
    std::vector<uint32_t> first(positions.size(), kNone); // per position: its lowest vertex
    for (uint32_t v = 0; v < positions.size(); ++v) {
        if (first[position[v]] == kNone) first[position[v]] = v;
        pieces.join(v, first[position[v]]);
    }
    return pieces.roots();
}

std::vector<uint32_t> clusterTriangles(std::span<const glm::vec3> positions,
                                       std::span<const uint64_t> regions, std::span<const uint32_t> triangles,
                                       float cell) {
    return flatten(Clustering(positions, regions, triangles).left(cell));
}

std::vector<uint32_t> clusterToTarget(std::span<const glm::vec3> positions, std::span<const uint64_t> regions,
                                      std::span<const uint32_t> triangles, uint32_t targetTriangles) {
    const Clustering clustering(positions, regions, triangles);
    const float extent = clustering.extent();
    if (!(extent > 0.0f) || !std::isfinite(extent)) return {};
    // Cells twice the extent hold everything in one cell, so nothing is left; a 4,096th of it is
    // finer than any level needs. Bisection in octaves between them:
    // the count shrinks with the cell in the large, though not at every step.
    double fine = std::log2(double(extent) / 4096.0), coarse = std::log2(2.0 * double(extent));
    for (int step = 0; step < 8; ++step) {
        const double middle = 0.5 * (fine + coarse);
        (clustering.count(float(std::exp2(middle))) <= targetTriangles ? coarse : fine) = middle;
    }
    return flatten(clustering.left(float(std::exp2(coarse))));
}

} // namespace horde
