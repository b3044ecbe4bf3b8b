#pragma once
// Levels of detail for one mesh: coarser index buffers over the mesh's own vertices, so that a
// far instance draws (and skins) fewer of them. Each level reads a prefix of one vertex order,
// so a renderer skins vertices [0, level.vertexCount) of the reordered streams and draws the
// level's index range; joints and weights carry through untouched.
#include <cstdint>
#include <span>
#include <vector>

#include "model/model.h"

namespace horde {

struct LodLevel {
    float error = 0.0f;             // in the units the mesh is drawn in: the largest distance from a
                                    // point of the source surface (a vertex, an edge's midpoint, a
                                    // triangle's centroid) to this level's triangles, or the size of the
                                    // surface whose shading it turns (LodOptions::turnedPixels), or of
                                    // the area it covers more or less (LodOptions::coveredPixels), or
                                    // the finer level's error, whichever is largest (0 for level 0);
                                    // so a part that shrinks or vanishes costs its size, a coarser
                                    // shading its area, a thinned part what it stops covering, and
                                    // errors never decrease
    uint32_t vertexCount = 0;       // this level reads only order[0 .. vertexCount)
    bool boneRegions = false;       // simplified within (submesh, dominant joint) regions rather than
                                    // within submeshes only (see buildLodChain); false for level 0
    std::vector<Submesh> submeshes; // one per mesh submesh, same order and material; firstIndex and
                                    // indexCount into LodChain::indices
    bool clustered = false;         // made by vertex clustering rather than edge collapses (see
                                    // buildLodChain); false for level 0

    uint32_t triangleCount() const {
        uint32_t n = 0;
        for (const Submesh& s : submeshes)
            n += s.indexCount / 3;
        return n;
    }
};

struct LodChain {
    std::vector<uint32_t> order;   // order[i] = source vertex shown as vertex i by every level (a
                                   // permutation of all the mesh's vertices)
    std::vector<uint32_t> indices; // every level's triangles, concatenated, as indices into `order`
    std::vector<LodLevel> levels;  // levels[0] = the source mesh (all its triangles, all vertices),
                                   // then coarser
};

struct LodOptions {
    float ratio = 0.5f;         // each level aims at this fraction of the previous level's triangles
    uint32_t maxLevels = 8;     // level 0 included
    uint32_t minTriangles = 16; // no level is simplified from one with fewer triangles than this
    float clusterError = 0.25f; // below a tenth of the source's triangles, a clustered level ends the
                                // chain unless its error is at most this fraction of the mesh's
                                // radius (see buildLodChain)
    // A level's error is also the side of a square that holds, at `turnedPixels` square pixels per
    // square pixel of error, the source surface whose normals the level turns by more than
    // `turnAngle` degrees (0: not counted), so that at the pixel error an instance shades at most
    // about that many pixels differently. A model's meshes share it by area (`share`: this mesh's
    // part of the model's surface; buildLodChains).
    float turnAngle = 10.0f;
    float turnedPixels = 1024.0f;
    // And the side of a square that holds, at `coveredPixels` square pixels per square pixel of
    // error, the most area the level covers more or less than the source seen from afar along any
    // of 13 directions (model/coverage.h; 0: not counted), so that at the pixel error an instance's
    // picture gains or loses at most about that many pixels: a part thinner than the distance error
    // (a leg flattened to a ribbon) costs what it stops covering, which a crowd of such instances
    // shows as a darker or lighter whole. Shared by area as well.
    float coveredPixels = 16.0f;
    double share = 1.0;
};

// Level k+1 is simplified from level k's triangles, so each level uses a subset of the vertices of
// the one before; `order` lists the coarsest level's vertices first, then those each finer level
// adds, then those only level 0 uses, then those no triangle uses.
//
// The simplifier sees welded vertices (model/weld.h): corners equal in position, texture
// coordinates, colour and skin (and, while creases are kept, normal) are one, so a triangle soup
// simplifies like an indexed mesh; corners at one position that differ are seams, kept closed,
// each side drawn with its own source vertices. A level is made by meshoptimizer's edge collapses
// (topology kept) or, where those stall or their error grows fast, by vertex clustering
// (model/cluster.h) if that costs less; once the chain is down to a tenth of the source's triangles,
// only while its error stays within options.clusterError of the mesh's radius. Either way collapses stay inside a region: first
// (submesh, dominant joint of the triangle), so that no triangle spans vertices driven by
// different bones; once that stalls, or costs much more error than simplifying within the
// submesh alone, the submesh alone. Creases (normals tens of degrees apart) stay seams until
// collapses stall on them or cost much more than welding across them. No collapse opens the
// surface along a region's edge or a seam; clustering keeps them closed wherever the two sides
// hold the position their cell picks. Each submesh's triangles are in vertex-cache order. A submesh
// that the simplifier empties keeps the previous level's triangles; a piece (a part joined to
// nothing else) that it empties keeps its largest triangle.
//
// `positions` (one per vertex) are where the mesh is drawn: its rest pose after every node and
// bind transform that places it (anim/reference.h poseModel without a clip), so that the levels
// are simplified, and their errors measured, as they will be seen: a mesh under an armature
// scaled 100 times draws its errors 100 times larger than its own vertices hold them. The mesh
// gives the triangles, skin and attributes.
//
// Safe for any mesh that passes validateModel (non-finite positions, a zero extent or no
// triangles give level 0 alone). Deterministic. A submesh's trailing partial triangle is left out.
LodChain buildLodChain(const Mesh& mesh, std::span<const glm::vec3> positions, const LodOptions& options = {});

// Every mesh's chain, each drawn where `positions` (per mesh) say, sharing the model's turned
// shading by area (LodOptions::share).
std::vector<LodChain> buildLodChains(const Model& model, std::span<const std::vector<glm::vec3>> positions,
                                     LodOptions options = {});

} // namespace horde
