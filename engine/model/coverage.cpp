#include "model/coverage.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include <glm/geometric.hpp>

namespace horde {

namespace {

// The cells of one row whose centres lie in [from, to] (cell units), marked in `row`.
void markSpan(std::span<uint64_t> row, uint32_t columns, double from, double to) {
    const double first = std::max(std::ceil(from - 0.5), 0.0);
    const double last = std::min(std::floor(to - 0.5), double(columns) - 1.0);
    if (!(first <= last)) return;
    const uint32_t a = uint32_t(first), b = uint32_t(last);
    for (uint32_t word = a / 64; word <= b / 64; ++word) {
        const uint32_t lo = word == a / 64 ? a % 64 : 0, hi = word == b / 64 ? b % 64 : 63;
        const uint64_t upTo = hi == 63 ? ~uint64_t(0) : (uint64_t(1) << (hi + 1)) - 1;
        row[word] |= upTo & ~((uint64_t(1) << lo) - 1);
    }
}

} // namespace

const std::array<glm::vec3, SourceCoverage::kDirections>& SourceCoverage::directions() {
    static const std::array<glm::vec3, kDirections> all = [] {
        std::array<glm::vec3, kDirections> d = {glm::vec3(1, 0, 0),  glm::vec3(0, 1, 0),  glm::vec3(0, 0, 1),
                                                glm::vec3(1, 1, 0),  glm::vec3(1, -1, 0), glm::vec3(1, 0, 1),
                                                glm::vec3(1, 0, -1), glm::vec3(0, 1, 1),  glm::vec3(0, 1, -1),
                                                glm::vec3(1, 1, 1),  glm::vec3(1, 1, -1), glm::vec3(1, -1, 1),
                                                glm::vec3(-1, 1, 1)};
        for (glm::vec3& v : d)
            v = glm::normalize(v);
        return d;
    }();
    return all;
}

SourceCoverage::SourceCoverage(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles,
                               std::span<const glm::vec3> along, uint32_t cellsAcross)
    : positions_(positions), grids_(along.size()), sourceAreas_(along.size(), 0.0) {
    const size_t corners = triangles.size() / 3 * 3;
    for (size_t d = 0; d < along.size(); ++d) {
        const glm::vec3 dir = along[d];
        // The axis least along the direction keeps the plane's axes well defined.
        const glm::vec3 away =
            std::abs(dir.x) <= std::abs(dir.y) && std::abs(dir.x) <= std::abs(dir.z)
                ? glm::vec3(1, 0, 0)
                : (std::abs(dir.y) <= std::abs(dir.z) ? glm::vec3(0, 1, 0) : glm::vec3(0, 0, 1));
        Grid& g = grids_[d];
        g.u = glm::normalize(glm::cross(dir, away));
        g.v = glm::cross(dir, g.u);
        float u0 = std::numeric_limits<float>::max(), v0 = u0, u1 = -u0, v1 = -u0;
        for (size_t i = 0; i < corners; ++i) {
            const glm::vec3 p = positions[triangles[i]];
            u0 = std::min(u0, glm::dot(p, g.u));
            u1 = std::max(u1, glm::dot(p, g.u));
            v0 = std::min(v0, glm::dot(p, g.v));
            v1 = std::max(v1, glm::dot(p, g.v));
        }
        // No cells where there is nothing to cover (or a box too small for a cell), or where a
        // position that is not finite leaves the box unbounded.
        const float width = u1 - u0, height = v1 - v0, side = std::max(width, height);
        const float cell = cellsAcross > 0 ? side / float(cellsAcross) : 0.0f;
        if (corners == 0 || !std::isfinite(width) || !std::isfinite(height) || !(cell > 0.0f)) continue;
        g.u0 = u0;
        g.v0 = v0;
        g.cell = cell;
        g.columns = std::clamp(uint32_t(std::ceil(width / g.cell)), 1u, cellsAcross);
        g.rows = std::clamp(uint32_t(std::ceil(height / g.cell)), 1u, cellsAcross);
        sourceAreas_[d] = area(d, triangles.first(corners));
    }
}

double SourceCoverage::area(size_t d, std::span<const uint32_t> triangles) const {
    const Grid& g = grids_[d];
    if (g.rows == 0) return 0.0;
    const uint32_t words = (g.columns + 63) / 64;
    std::vector<uint64_t> marked(size_t(words) * g.rows, 0);
    for (size_t t = 0; t + 3 <= triangles.size(); t += 3) {
        double x[3], y[3];
        for (int c = 0; c < 3; ++c) {
            const glm::vec3 p = positions_[triangles[t + c]];
            x[c] = (double(glm::dot(p, g.u)) - g.u0) / g.cell;
            y[c] = (double(glm::dot(p, g.v)) - g.v0) / g.cell;
        }
        if ((x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]) == 0.0) continue;
        const double first = std::max(std::ceil(std::min({y[0], y[1], y[2]}) - 0.5), 0.0);
        const double last = std::min(std::floor(std::max({y[0], y[1], y[2]}) - 0.5), double(g.rows) - 1.0);
        for (double row = first; row <= last; ++row) {
            const double centre = row + 0.5;
            double from = std::numeric_limits<double>::infinity(), to = -from;
            for (int e = 0; e < 3; ++e) {
                const int f = (e + 1) % 3;
                if (std::min(y[e], y[f]) > centre || std::max(y[e], y[f]) < centre) continue;
                // A level edge on the row holds its corners, which the other edges reach as well.
                const double at =
                    y[e] == y[f] ? x[e] : x[e] + (centre - y[e]) * (x[f] - x[e]) / (y[f] - y[e]);
                from = std::min(from, at);
                to = std::max(to, at);
            }
            markSpan(std::span(marked).subspan(size_t(row) * words, words), g.columns, from, to);
        }
    }
    size_t covered = 0;
    for (uint64_t w : marked)
        covered += size_t(std::popcount(w));
    return double(covered) * g.cell * g.cell;
}

double SourceCoverage::largestChange(std::span<const uint32_t> level, double enough) const {
    double largest = 0.0;
    for (size_t d = 0; d < grids_.size(); ++d) {
        largest = std::max(largest, std::abs(area(d, level) - sourceAreas_[d]));
        if (largest > enough) break;
    }
    return largest;
}

} // namespace horde
