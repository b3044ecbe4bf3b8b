#include "model/surface_distance.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/geometric.hpp>

namespace horde {

namespace {

constexpr uint32_t kNone = ~0u;

// A level triangle ready for the distance test. With area, toB and toC give the weights of b
// and c in a point's projection onto the triangle's plane: weight(b) = dot(p - a, toB).
struct Triangle {
    glm::vec3 a, b, c;
    glm::vec3 toB, toC;
    glm::vec3 normal; // unit
    bool area;
};

Triangle triangleOf(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
    const glm::vec3 ab = b - a, ac = c - a, n = glm::cross(ab, ac);
    const float n2 = glm::dot(n, n);
    if (!(n2 > 0.0f)) return {a, b, c, {}, {}, {}, false};
    return {a, b, c, glm::cross(ac, n) / n2, glm::cross(n, ab) / n2, n / std::sqrt(n2), true};
}

float segmentDistance2(glm::vec3 p, glm::vec3 a, glm::vec3 b) {
    const glm::vec3 ab = b - a;
    const float length2 = glm::dot(ab, ab);
    const float t = length2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / length2, 0.0f, 1.0f) : 0.0f;
    const glm::vec3 d = p - (a + t * ab);
    return glm::dot(d, d);
}

// The squared distance to the triangle's plane (with area): no more than that to the triangle.
float planeDistance2(glm::vec3 p, const Triangle& t) {
    const float height = glm::dot(p - t.a, t.normal);
    return height * height;
}

// When p projects inside the triangle, the projection is the nearest point. Otherwise the nearest
// point lies on an edge that has p's projection on its outer side (a corner's nearest point is
// on such an edge too), that is, an edge opposite a corner of negative weight. A triangle without
// area is its edges.
float distance2(glm::vec3 p, const Triangle& t) {
    if (!t.area) {
        return std::min(
            {segmentDistance2(p, t.a, t.b), segmentDistance2(p, t.b, t.c), segmentDistance2(p, t.c, t.a)});
    }
    const glm::vec3 ap = p - t.a;
    const float wb = glm::dot(ap, t.toB), wc = glm::dot(ap, t.toC), wa = 1.0f - wb - wc;
    if (wa >= 0.0f && wb >= 0.0f && wc >= 0.0f) return planeDistance2(p, t);
    float d = std::numeric_limits<float>::infinity();
    if (wc < 0.0f) d = segmentDistance2(p, t.a, t.b);
    if (wa < 0.0f) d = std::min(d, segmentDistance2(p, t.b, t.c));
    if (wb < 0.0f) d = std::min(d, segmentDistance2(p, t.c, t.a));
    return d;
}

// Triangles bucketed in a uniform grid over their bounds: a cell lists every triangle whose
// bounding box overlaps it, so each triangle lies inside the union of its cells and no triangle
// is nearer to a point than the nearest of its cells.
class TriangleGrid {
public:
    explicit TriangleGrid(std::vector<Triangle> triangles);

    struct Hit {
        float distance2;
        uint32_t triangle;
    };
    // The triangle nearest to `p`, or the first found within sqrt(enough2) of it. `hint` (a
    // triangle likely to be near, such as the last query's) is tried first.
    Hit nearest(glm::vec3 p, float enough2, uint32_t hint);
    // Whether triangle t is within sqrt(bound2) of p; the plane's distance rejects most that are not.
    bool within(glm::vec3 p, uint32_t t, float bound2) const {
        const Triangle& triangle = triangles_[t];
        return !(triangle.area && planeDistance2(p, triangle) > bound2) && distance2(p, triangle) <= bound2;
    }
    const Triangle& operator[](uint32_t t) const { return triangles_[t]; }
    // Calls f(t) for each triangle within `radius` of p (some more than once).
    template <class F> void forEachWithin(glm::vec3 p, float radius, F&& f) const {
        const glm::ivec3 from = cellOf(p - radius), to = cellOf(p + radius);
        for (int x = from.x; x <= to.x; ++x)
            for (int y = from.y; y <= to.y; ++y)
                for (int z = from.z; z <= to.z; ++z) {
                    const size_t c = (size_t(x) * dims_.y + y) * dims_.z + z;
                    for (uint32_t i = start_[c]; i < start_[c + 1]; ++i)
                        if (within(p, items_[i], radius * radius)) f(items_[i]);
                }
    }

private:
    glm::ivec3 cellOf(glm::vec3 p) const;
    float cellDistance2(glm::vec3 p, glm::ivec3 cell) const;
    // How far p is from every cell outside the rings 0..ring around cell c (infinity if none).
    float unseenDistance(glm::vec3 p, glm::ivec3 c, int ring) const;
    // Measures the cell's triangles not yet measured by this query; true once `best` is within
    // sqrt(enough2).
    bool scan(glm::vec3 p, glm::ivec3 cell, float enough2, Hit& best);

    std::vector<Triangle> triangles_;
    glm::vec3 origin_{0.0f};
    float cell_ = 1.0f;
    glm::ivec3 dims_{1};
    std::vector<uint32_t> start_;   // per cell + 1: where its triangles begin in items_
    std::vector<uint32_t> items_;   // triangle indices, cell after cell
    std::vector<uint32_t> visited_; // per triangle: the query that last measured it
    uint32_t query_ = 0;
};

TriangleGrid::TriangleGrid(std::vector<Triangle> triangles) : triangles_(std::move(triangles)) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    double edges = 0.0;
    for (const Triangle& t : triangles_) {
        lo = glm::min(lo, glm::min(t.a, glm::min(t.b, t.c)));
        hi = glm::max(hi, glm::max(t.a, glm::max(t.b, t.c)));
        edges += glm::length(t.b - t.a) + glm::length(t.c - t.b) + glm::length(t.a - t.c);
    }
    origin_ = lo;
    const glm::vec3 extent = hi - lo;
    // Cells about a triangle's size hold a few triangles each (a thin tube's cells hold all its
    // sides, whatever their size); a surface fills few of the cells of its bounds, so their
    // number is capped at a few per triangle by growing them.
    const double maxCells = 4.0 * double(triangles_.size()) + 64.0;
    cell_ = float(std::max(edges / (3.0 * double(triangles_.size())),
                           std::cbrt(double(extent.x) * extent.y * extent.z / maxCells)));
    if (!(cell_ > 0.0f)) cell_ = std::max({extent.x, extent.y, extent.z, 1.0f});
    auto dimsFor = [&](float cell) { return glm::ivec3(glm::min(extent / cell, glm::vec3(1e6f))) + 1; };
    // A surface thin in two axes has cells only along the third.
    while (double(dimsFor(cell_).x) * dimsFor(cell_).y * dimsFor(cell_).z > maxCells) cell_ *= 2.0f;
    dims_ = dimsFor(cell_);

    start_.assign(size_t(dims_.x) * dims_.y * dims_.z + 1, 0);
    auto forEachCell = [&](const Triangle& t, auto&& f) {
        const glm::ivec3 from = cellOf(glm::min(t.a, glm::min(t.b, t.c)));
        const glm::ivec3 to = cellOf(glm::max(t.a, glm::max(t.b, t.c)));
        for (int x = from.x; x <= to.x; ++x)
            for (int y = from.y; y <= to.y; ++y)
                for (int z = from.z; z <= to.z; ++z) f((size_t(x) * dims_.y + y) * dims_.z + z);
    };
    for (const Triangle& t : triangles_) forEachCell(t, [&](size_t c) { ++start_[c + 1]; });
    for (size_t c = 1; c < start_.size(); ++c) start_[c] += start_[c - 1];
    items_.resize(start_.back());
    std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
    for (uint32_t t = 0; t < triangles_.size(); ++t)
        forEachCell(triangles_[t], [&](size_t c) { items_[fill[c]++] = t; });
    visited_.assign(triangles_.size(), 0);
}

glm::ivec3 TriangleGrid::cellOf(glm::vec3 p) const {
    return glm::ivec3(glm::clamp(glm::floor((p - origin_) / cell_), glm::vec3(0.0f), glm::vec3(dims_ - 1)));
}

float TriangleGrid::cellDistance2(glm::vec3 p, glm::ivec3 cell) const {
    const glm::vec3 lo = origin_ + glm::vec3(cell) * cell_;
    const glm::vec3 d = glm::max(glm::max(lo - p, p - (lo + cell_)), glm::vec3(0.0f));
    return glm::dot(d, d);
}

float TriangleGrid::unseenDistance(glm::vec3 p, glm::ivec3 c, int ring) const {
    float reach = std::numeric_limits<float>::infinity();
    for (int axis = 0; axis < 3; ++axis) {
        // Only faces of the rings' box with cells beyond them count.
        if (c[axis] - ring > 0)
            reach = std::min(reach, p[axis] - (origin_[axis] + float(c[axis] - ring) * cell_));
        if (c[axis] + ring < dims_[axis] - 1)
            reach = std::min(reach, origin_[axis] + float(c[axis] + ring + 1) * cell_ - p[axis]);
    }
    return reach;
}

bool TriangleGrid::scan(glm::vec3 p, glm::ivec3 cell, float enough2, Hit& best) {
    if (cellDistance2(p, cell) >= best.distance2) return false;
    const size_t c = (size_t(cell.x) * dims_.y + cell.y) * dims_.z + cell.z;
    for (uint32_t i = start_[c]; i < start_[c + 1]; ++i) {
        const uint32_t t = items_[i];
        if (visited_[t] == query_) continue;
        visited_[t] = query_;
        const Triangle& triangle = triangles_[t];
        if (triangle.area && planeDistance2(p, triangle) >= best.distance2) continue; // cheaper than exact
        const float d = distance2(p, triangle);
        if (d < best.distance2) best = {d, t};
        if (best.distance2 <= enough2) return true;
    }
    return false;
}

TriangleGrid::Hit TriangleGrid::nearest(glm::vec3 p, float enough2, uint32_t hint) {
    Hit best{distance2(p, triangles_[hint]), hint};
    if (best.distance2 <= enough2) return best;
    if (++query_ == 0) { // wrapped: forget every mark
        std::fill(visited_.begin(), visited_.end(), 0u);
        query_ = 1;
    }
    visited_[hint] = query_;
    // Rings of cells at growing Chebyshev distance from p's cell (p clamped into the grid), until
    // the cells not yet seen all lie farther than the best triangle so far.
    const glm::ivec3 c = cellOf(p);
    for (int ring = 0;; ++ring) {
        for (int x = std::max(c.x - ring, 0); x <= std::min(c.x + ring, dims_.x - 1); ++x)
            for (int y = std::max(c.y - ring, 0); y <= std::min(c.y + ring, dims_.y - 1); ++y) {
                // On the ring's x and y faces every z is on the ring; between them only its two z faces.
                if (std::abs(x - c.x) == ring || std::abs(y - c.y) == ring) {
                    for (int z = std::max(c.z - ring, 0); z <= std::min(c.z + ring, dims_.z - 1); ++z)
                        if (scan(p, {x, y, z}, enough2, best)) return best;
                } else
                    for (int z : {c.z - ring, c.z + ring})
                        if (z >= 0 && z < dims_.z && scan(p, {x, y, z}, enough2, best)) return best;
            }
        const float unseen = unseenDistance(p, c, ring);
        if (unseen * unseen >= best.distance2) return best;
    }
}

// Each vertex's triangles in a level, to tell which source points the level keeps exactly.
class LevelFans {
public:
    LevelFans(size_t vertexCount, std::span<const uint32_t> level)
        : level_(level), start_(vertexCount + 1, 0) {
        for (uint32_t v : level) ++start_[v + 1];
        for (size_t v = 1; v < start_.size(); ++v) start_[v] += start_[v - 1];
        triangles_.resize(level.size());
        std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
        for (size_t i = 0; i < level.size(); ++i) triangles_[fill[level[i]]++] = uint32_t(i / 3);
    }

    bool keeps(uint32_t v) const { return start_[v] != start_[v + 1]; }
    std::span<const uint32_t> of(uint32_t v) const {
        return std::span(triangles_).subspan(start_[v], start_[v + 1] - start_[v]);
    }
    // Whether some level triangle has all of `corners` among its corners.
    bool joins(uint32_t v, std::initializer_list<uint32_t> corners) const {
        for (uint32_t i = start_[v]; i < start_[v + 1]; ++i) {
            const uint32_t* t = &level_[size_t(triangles_[i]) * 3];
            bool all = true;
            for (uint32_t c : corners) all &= t[0] == c || t[1] == c || t[2] == c;
            if (all) return true;
        }
        return false;
    }

private:
    std::span<const uint32_t> level_;
    std::vector<uint32_t> start_;     // per vertex + 1: where its triangles begin in triangles_
    std::vector<uint32_t> triangles_; // triangle indices, vertex after vertex
};

std::vector<Triangle> trianglesOf(std::span<const glm::vec3> positions, std::span<const uint32_t> level) {
    std::vector<Triangle> triangles;
    triangles.reserve(level.size() / 3);
    for (size_t i = 0; i < level.size(); i += 3) {
        const uint32_t* t = &level[i];
        triangles.push_back(triangleOf(positions[t[0]], positions[t[1]], positions[t[2]]));
    }
    return triangles;
}

// The triangle's normal at p: its corners' `normals` weighted by p's barycentric weights, negative
// ones set to zero (equal weights without area); not normalized.
glm::vec3 interpolatedNormal(const Triangle& t, const uint32_t* corners, std::span<const glm::vec3> normals,
                             glm::vec3 p) {
    glm::vec3 w(1.0f);
    if (t.area) {
        const float wb = glm::dot(p - t.a, t.toB), wc = glm::dot(p - t.a, t.toC);
        w = glm::max(glm::vec3(1.0f - wb - wc, wb, wc), glm::vec3(0.0f));
    }
    return w.x * normals[corners[0]] + w.y * normals[corners[1]] + w.z * normals[corners[2]];
}

} // namespace

std::span<const uint32_t> SourceSurface::neighbours(uint32_t v) const {
    return std::span(neighbours_).subspan(firstNeighbour_[v], firstNeighbour_[v + 1] - firstNeighbour_[v]);
}

SourceSurface::SourceSurface(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles)
    : positions_(positions), triangles_(triangles.begin(), triangles.begin() + triangles.size() / 3 * 3) {
    std::vector<bool> seen(positions.size(), false);
    std::vector<uint64_t> edges;
    edges.reserve(triangles_.size());
    for (size_t i = 0; i < triangles_.size(); ++i) {
        const uint32_t v = triangles_[i], w = triangles_[i % 3 == 2 ? i - 2 : i + 1];
        if (!seen[v]) {
            seen[v] = true;
            vertices_.push_back(v);
        }
        if (v != w) edges.push_back(uint64_t(std::min(v, w)) << 32 | std::max(v, w));
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    edges_.reserve(edges.size() * 2);
    for (uint64_t e : edges) edges_.insert(edges_.end(), {uint32_t(e >> 32), uint32_t(e)});
    firstNeighbour_.assign(positions.size() + 1, 0);
    for (uint32_t v : edges_) ++firstNeighbour_[v + 1];
    for (size_t v = 1; v < firstNeighbour_.size(); ++v) firstNeighbour_[v] += firstNeighbour_[v - 1];
    neighbours_.resize(edges_.size());
    std::vector<uint32_t> fill(firstNeighbour_.begin(), firstNeighbour_.end() - 1);
    for (size_t i = 0; i < edges_.size(); ++i) neighbours_[fill[edges_[i]]++] = edges_[i ^ 1];
    shares_.assign(positions.size(), 0.0);
    for (size_t i = 0; i < triangles_.size(); i += 3) {
        const glm::dvec3 a(positions_[triangles_[i]]), b(positions_[triangles_[i + 1]]), c(positions_[triangles_[i + 2]]);
        const double third = glm::length(glm::cross(b - a, c - a)) / 6.0;
        for (size_t k = 0; k < 3; ++k) shares_[triangles_[i + k]] += third;
    }
}

float SourceSurface::farthestFrom(std::span<const uint32_t> level, float atLeast, float enough) const {
    atLeast = std::max(atLeast, 0.0f);
    if (triangles_.empty()) return atLeast;
    level = level.first(level.size() / 3 * 3);
    if (level.empty()) return std::numeric_limits<float>::infinity();
    TriangleGrid grid(trianglesOf(positions_, level));
    const LevelFans fans(positions_.size(), level);

    float bound2 = atLeast * atLeast;
    // For each vertex the level drops, once measured: a level triangle within the bound of it.
    std::vector<uint32_t> near(positions_.size(), kNone);
    uint32_t hint = 0; // consecutive samples lie near each other, and so do their nearest triangles
    // A point's nearest triangles are most often those around the source vertices next to it:
    // the one found for a vertex the level drops, or the triangles of one it keeps. Those are
    // tried first; the grid searches the rest.
    auto measure = [&](glm::vec3 p, std::span<const uint32_t> around) {
        for (uint32_t v : around)
            if (near[v] != kNone && grid.within(p, near[v], bound2)) return near[v];
        for (uint32_t v : around)
            for (uint32_t t : fans.of(v))
                if (grid.within(p, t, bound2)) return t;
        const TriangleGrid::Hit hit = grid.nearest(p, bound2, hint);
        bound2 = std::max(bound2, hit.distance2);
        return hint = hit.triangle;
    };
    // Points of what the level keeps (a vertex, an edge, a whole triangle) are on it. Vertices
    // first: the farthest points tend to be vertices the level drops, and a large bound early
    // lets the other points stop at the first triangle within it.
    const float enough2 = enough * enough;
    for (uint32_t v : vertices_) {
        if (!fans.keeps(v)) near[v] = measure(positions_[v], neighbours(v));
        if (bound2 > enough2) return std::sqrt(bound2);
    }
    for (size_t i = 0; i < edges_.size(); i += 2) {
        const uint32_t a = edges_[i], b = edges_[i + 1];
        if (!fans.joins(a, {b})) measure(0.5f * (positions_[a] + positions_[b]), std::span(&edges_[i], 2));
        if (bound2 > enough2) return std::sqrt(bound2);
    }
    for (size_t i = 0; i < triangles_.size(); i += 3) {
        const uint32_t a = triangles_[i], b = triangles_[i + 1], c = triangles_[i + 2];
        if (!fans.joins(a, {b, c}))
            measure((positions_[a] + positions_[b] + positions_[c]) / 3.0f, std::span(&triangles_[i], 3));
        if (bound2 > enough2) return std::sqrt(bound2);
    }
    return std::max(atLeast, std::sqrt(bound2));
}

double SourceSurface::turnedArea(std::span<const uint32_t> level, std::span<const glm::vec3> normals, float within,
                                 float maxAngle, double enough) const {
    if (triangles_.empty() || normals.size() != positions_.size()) return 0.0;
    level = level.first(level.size() / 3 * 3);
    if (level.empty()) return std::numeric_limits<double>::infinity();
    TriangleGrid grid(trianglesOf(positions_, level));
    const LevelFans fans(positions_.size(), level);
    const float cosLimit = std::cos(maxAngle);
    double area = 0.0;
    uint32_t hint = 0;
    for (uint32_t v : vertices_) {
        const glm::vec3 p = positions_[v], n = normals[v];
        const float length = glm::length(n);
        if (fans.keeps(v) || shares_[v] == 0.0 || !(length > 0.0f) || !std::isfinite(length)) continue;
        const TriangleGrid::Hit nearest = grid.nearest(p, within * within, hint);
        hint = nearest.triangle;
        auto like = [&](uint32_t t) {
            const glm::vec3 m = interpolatedNormal(grid[t], &level[size_t(t) * 3], normals, p);
            const float mLength = glm::length(m);
            return mLength > 0.0f && glm::dot(n, m) >= cosLimit * length * mLength;
        };
        // The level triangles around the vertex's neighbours most often stand for it; the grid
        // finds the rest.
        const float reach = std::max(std::sqrt(nearest.distance2), within);
        bool alike = like(nearest.triangle);
        for (uint32_t u : neighbours(v))
            for (uint32_t t : fans.of(u))
                alike = alike || (grid.within(p, t, reach * reach) && like(t));
        if (!alike) grid.forEachWithin(p, reach, [&](uint32_t t) { alike = alike || like(t); });
        if (!alike) area += shares_[v];
        if (area > enough) return area;
    }
    return area;
}

} // namespace horde
