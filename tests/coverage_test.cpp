// SourceCoverage: covered areas worked out by hand (shapes whose edges fall between cell centres,
// so the count is exact), a triangle in general position within its edges' cells, and the change a
// level makes.
#include <cmath>
#include <limits>
#include <vector>

#include <glm/geometric.hpp>
#include <gtest/gtest.h>

#include "model/coverage.h"

namespace horde {
namespace {

constexpr size_t kAlongX = 0, kAlongY = 1, kAlongZ = 2;

// A w x h rectangle in the plane x = x0 from (y0, z0), as two triangles appended to `indices`.
void addCard(std::vector<glm::vec3>& positions, std::vector<uint32_t>& indices, float x0, float y0, float z0,
             float w, float h) {
    const uint32_t first = uint32_t(positions.size());
    positions.insert(positions.end(),
                     {{x0, y0, z0}, {x0, y0 + w, z0}, {x0, y0 + w, z0 + h}, {x0, y0, z0 + h}});
    indices.insert(indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
}

// The unit cube's twelve triangles.
void addCube(std::vector<glm::vec3>& positions, std::vector<uint32_t>& indices) {
    const uint32_t first = uint32_t(positions.size());
    for (int i = 0; i < 8; ++i)
        positions.push_back(glm::vec3(float(i & 1), float(i >> 1 & 1), float(i >> 2 & 1)));
    for (uint32_t i : {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                       2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5})
        indices.push_back(first + i);
}

TEST(Coverage, DirectionsAreUnitAndApart) {
    const auto& directions = SourceCoverage::directions();
    for (size_t d = 0; d < SourceCoverage::kDirections; ++d) {
        EXPECT_NEAR(glm::length(directions[d]), 1.0f, 1e-6f);
        for (size_t e = 0; e < d; ++e)
            EXPECT_LT(std::abs(glm::dot(directions[d], directions[e])), 0.99f)
                << d << " and " << e << " (or their opposites)";
    }
}

TEST(Coverage, ACardCoversItsAreaFaceOnAndNothingEdgeOn) {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> indices;
    addCard(positions, indices, 0.0f, 0.0f, 0.0f, 2.0f, 1.0f);
    const SourceCoverage coverage(positions, indices);
    // Face on: the card is its own box, 256 x 128 cells of side 2/256, every centre inside.
    EXPECT_DOUBLE_EQ(coverage.sourceArea(kAlongX), 2.0);
    EXPECT_DOUBLE_EQ(coverage.area(kAlongX, indices), 2.0);
    EXPECT_EQ(coverage.sourceArea(kAlongY), 0.0) << "edge on";
    EXPECT_EQ(coverage.sourceArea(kAlongZ), 0.0) << "edge on";
    EXPECT_EQ(coverage.area(kAlongX, {}), 0.0);
    // Half of it (one triangle) covers half, within the cells its diagonal crosses (256 of 128 x
    // 2 / 256 units on a side).
    const double cell = 2.0 / 256.0;
    EXPECT_NEAR(coverage.area(kAlongX, std::span(indices).first(3)), 1.0, 256 * cell * cell);
    // The same card listed twice, or its triangles overlapping, covers it once.
    std::vector<uint32_t> twice = indices;
    twice.insert(twice.end(), indices.begin(), indices.end());
    EXPECT_DOUBLE_EQ(coverage.area(kAlongX, twice), 2.0);
}

TEST(Coverage, ATriangleInGeneralPositionCoversItsProjectedArea) {
    // Exact area: half |(b - a) x (c - a) . d|; the count can differ only in cells its edges cross,
    // at most (edge length / cell + 2) a side.
    const std::vector<glm::vec3> positions = {{0.1f, -0.3f, 0.2f}, {1.7f, 0.4f, -0.6f}, {0.5f, 1.3f, 0.9f}};
    const std::vector<uint32_t> indices = {0, 1, 2};
    const SourceCoverage coverage(positions, indices);
    for (size_t d = 0; d < SourceCoverage::kDirections; ++d) {
        const glm::dvec3 dir(SourceCoverage::directions()[d]);
        const glm::dvec3 a(positions[0]), b(positions[1]), c(positions[2]);
        const double exact = 0.5 * std::abs(glm::dot(glm::cross(b - a, c - a), dir));
        double longest = 0.0, perimeter = 0.0;
        for (int e = 0; e < 3; ++e) {
            const glm::dvec3 edge = glm::dvec3(positions[(e + 1) % 3]) - glm::dvec3(positions[e]);
            const double across = glm::length(edge - glm::dot(edge, dir) * dir);
            perimeter += across;
            longest = std::max(longest, across);
        }
        // The box around the projection is at most the longest projected edge on a side; an edge
        // crosses at most (its length x sqrt(2) / cell + 2) cells.
        const double cell = longest / 256.0;
        EXPECT_NEAR(coverage.sourceArea(d), exact, (1.5 * perimeter / cell + 6.0) * cell * cell)
            << "direction " << d;
    }
}

TEST(Coverage, ALevelThatDropsACardLosesItsAreaAlongItsNormal) {
    // A unit cube and a 1 x 1 card in its plane x = 0, beside it along z (z from 3 to 4): seen
    // along x, the cube covers y, z in [0, 1] and the card y in [0, 1], z in [3, 4], a box of 1 x
    // 4 whose cells (4/256 a side) have their edges on both outlines. The level without the card
    // loses exactly 1 there, less along every other direction (its projection shrinks by the
    // cosine, and the cube may hide part of it).
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> indices;
    addCube(positions, indices);
    const std::vector<uint32_t> cube = indices;
    addCard(positions, indices, 0.0f, 0.0f, 3.0f, 1.0f, 1.0f);
    // A level may gain as well: one that bridges cube and card with a 1 x 2 card (its corners
    // placed before the source's positions are handed over).
    std::vector<uint32_t> bridged = indices;
    addCard(positions, bridged, 0.0f, 0.0f, 1.0f, 1.0f, 2.0f);
    const SourceCoverage coverage(positions, indices);
    EXPECT_DOUBLE_EQ(coverage.sourceArea(kAlongX), 2.0);
    EXPECT_DOUBLE_EQ(coverage.area(kAlongX, cube), 1.0);
    EXPECT_DOUBLE_EQ(coverage.largestChange(cube), 1.0);
    EXPECT_EQ(coverage.largestChange(indices), 0.0) << "the source is its own level";
    EXPECT_GT(coverage.largestChange(cube, 0.5), 0.5) << "past enough: some change above it";
    EXPECT_DOUBLE_EQ(coverage.largestChange(bridged), 2.0) << "the bridge covers 2 more along x";
    EXPECT_EQ(SourceCoverage(positions, {}).largestChange(cube), 0.0) << "no source: no cells";
}

TEST(Coverage, ToleratesPositionsThatAreNotFinite) {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (const glm::vec3 odd : {glm::vec3(inf, 0, 0), glm::vec3(0, nan, 0), glm::vec3(nan, nan, nan)}) {
        std::vector<glm::vec3> positions;
        std::vector<uint32_t> indices;
        addCube(positions, indices);
        positions[7] = odd;
        const SourceCoverage coverage(positions, indices);
        for (size_t d = 0; d < SourceCoverage::kDirections; ++d) {
            EXPECT_TRUE(std::isfinite(coverage.sourceArea(d)));
            EXPECT_LE(coverage.sourceArea(d), 2.0) << "no more than the cube's box when bounded";
        }
        EXPECT_TRUE(std::isfinite(coverage.largestChange(std::span(indices).first(6))));
    }
    const std::vector<glm::vec3> tiny = {{0, 0, 0}, {1e-44f, 0, 0}, {0, 1e-44f, 0}};
    EXPECT_EQ(SourceCoverage(tiny, std::vector<uint32_t>{0, 1, 2}).sourceArea(kAlongZ), 0.0)
        << "too small for a cell";
}

} // namespace
} // namespace horde
