#pragma once
// How far a simplified surface strays from the surface it was simplified from, measured from the
// source's side: the largest distance from a point of the source surface to the nearest triangle
// of the simplified one. Where a level drops a feature (a leg that shortens, thins to a line or
// vanishes), the feature's own points lie far from every level triangle, so the distance is the
// feature's size, whatever the simplifier's own estimate of its collapses says.
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

namespace horde {

class SourceSurface {
public:
    // `triangles`: index triples into `positions` (a trailing partial triple is ignored). Every
    // position they name must be finite; `positions` must outlive the object.
    SourceSurface(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles);

    // The largest distance from a sample point of the source surface to the nearest of `level`'s
    // triangles (index triples into the same positions, finite where named), or `atLeast` when
    // that is larger: points stop at the first triangle found within it, so a running bound makes
    // the search cheap. Sample points: every vertex a source triangle uses, and each source
    // triangle's centroid and edge midpoints, so a sliver counts by its length, not only by its
    // corners. Exact for these points (point-triangle distances). `atLeast` for an empty source;
    // infinity for an empty level under a non-empty source. Points on what the level keeps (a
    // vertex, an edge, a triangle) cost nothing; the others try the level triangles around their
    // neighbouring vertices, then a uniform grid over the level, so the cost grows with the
    // source's size more than the level's. Once the distance found passes `enough`, it is
    // returned at once (a value above `enough`, not the largest): a caller that only needs to know
    // whether a level beats an error learns it sooner.
    float farthestFrom(std::span<const uint32_t> level, float atLeast = 0.0f,
                       float enough = std::numeric_limits<float>::infinity()) const;

    // How much of the source surface the level shades differently: the summed share (a third of
    // each source triangle around it) of every source vertex the level drops whose own normal
    // (`normals`, one per position) is more than `maxAngle` radians from the level's normal at
    // the vertex. A level vertex keeps its source normal, but inside a level triangle the corners'
    // normals are interpolated (barycentric weights of the vertex's projection, negative ones set
    // to zero, then normalized) where the source had the vertex's own, and the light follows
    // them. Of the level triangles within `within` of the vertex (the level's distance error: any
    // of them may stand for it, as on either side of a thin fold or a crease), or the nearest if
    // none is, the one whose normal is nearest the vertex's counts. A vertex whose normal has no
    // length costs nothing. Exact for these rules; returns as soon as the area passes `enough`.
    // 0 for `normals` of the wrong size; infinity for an empty level under a non-empty source.
    double turnedArea(std::span<const uint32_t> level, std::span<const glm::vec3> normals, float within,
                      float maxAngle, double enough = std::numeric_limits<double>::infinity()) const;

  private:
    std::span<const uint32_t> neighbours(uint32_t v) const;

    std::span<const glm::vec3> positions_;
    std::vector<uint32_t> triangles_; // whole triples only
    std::vector<uint32_t> vertices_;  // each vertex the triangles use, once, in order of first use
    std::vector<uint32_t> edges_;     // each edge of the triangles, once, as a pair of vertices
    std::vector<uint32_t> firstNeighbour_; // per vertex + 1: where its neighbours begin
    std::vector<uint32_t> neighbours_;     // the vertices each shares an edge with, vertex after vertex
    std::vector<double> shares_;           // per vertex: a third of the area of each triangle around it
};

} // namespace horde
