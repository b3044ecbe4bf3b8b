#pragma once
// How much of a picture a surface covers when seen from afar: the area of its orthographic
// projection along each of a fixed set of directions, found by marking the cells of a grid whose
// centres the projected triangles cover. A level that thins a part narrower than its distance
// error (a leg flattened to a ribbon or a line) stays within that error of every source point and
// yet covers less of the picture: each instance drawn with it loses pixels of its colour, and a
// crowd of them comes out darker (or lighter) as a whole. The change of covered area sees that.
#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace horde {

class SourceCoverage {
  public:
    // The 3 axes, the 6 diagonals of the axis planes and the 4 of the cube: a projection along d
    // covers what one along -d does, so these stand for 26 directions around the surface.
    static constexpr size_t kDirections = 13;
    static const std::array<glm::vec3, kDirections>& directions();

    // `triangles`: index triples into `positions` (a trailing partial triple is ignored);
    // `positions` must outlive the object. Positions that are not finite are tolerated (validated
    // models may hold them, and their chains stop at level 0): no cell outside a grid is marked,
    // and a direction whose box they leave unbounded has no cells. Each direction's grid has
    // square cells, `cellsAcross` along the longer side of the box around the source's
    // projection. `along`: unit directions to see the surface along (an impostor's views), or
    // directions() by default.
    SourceCoverage(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles,
                   std::span<const glm::vec3> along = directions(), uint32_t cellsAcross = 256);

    // The area (in squared units of the positions) that `triangles` (index triples into the same
    // positions) cover seen along direction d: the number of cell centres inside the projection of
    // at least one triangle (its edges included), times a cell's area. Triangles without area
    // cover nothing.
    double area(size_t d, std::span<const uint32_t> triangles) const;
    double sourceArea(size_t d) const { return sourceAreas_[d]; }

    // The largest change of covered area, gained or lost, from the source to `level` over the
    // directions seen along; returns as soon as one passes `enough` (a value above it).
    double largestChange(std::span<const uint32_t> level,
                         double enough = std::numeric_limits<double>::infinity()) const;

  private:
    struct Grid {
        glm::vec3 u, v; // the projection plane's axes
        float u0, v0;   // the grid's corner, in those axes
        float cell;     // a cell's side
        uint32_t columns, rows;
    };

    std::span<const glm::vec3> positions_;
    std::vector<Grid> grids_;
    std::vector<double> sourceAreas_;
};

} // namespace horde
