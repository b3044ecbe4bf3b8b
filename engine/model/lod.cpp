#include "model/lod.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <span>
#include <utility>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <meshoptimizer.h>

#include "model/cluster.h"
#include "model/coverage.h"
#include "model/surface_distance.h"
#include "model/weld.h"

namespace horde {

namespace {

constexpr uint32_t kNone = ~0u;

// What a level is simplified within, from the strictest: bone regions and creases are given up
// one by one as the chain goes on, never taken up again.
struct Stage {
    bool boneRegions = false; // within (submesh, dominant joint) regions, else within submeshes
    bool creases = false;     // normals split by a crease stay apart (model/weld.h)
};

// One level while the chain is built: each submesh's triangles as source vertex indices.
struct Draft {
    std::vector<std::vector<uint32_t>> submeshes;
    float error = 0.0f;
    Stage stage;
    bool clustered = false;
};

// How a level is made from the one before.
enum class Method {
    collapse, // meshoptimizer's edge collapses, topology kept
    cluster,  // vertex clustering (model/cluster.h), for what collapses cannot reach
};

uint32_t triangleCount(const Draft& draft) {
    size_t n = 0;
    for (const std::vector<uint32_t>& s : draft.submeshes)
        n += s.size();
    return uint32_t(n / 3);
}

Draft sourceLevel(const Mesh& mesh) {
    const MeshArrays& a = mesh.arrays();
    Draft draft;
    for (const Submesh& s : mesh.submeshes) {
        std::vector<uint32_t>& out = draft.submeshes.emplace_back();
        out.reserve(s.indexCount / 3 * 3);
        for (uint32_t i = 0; i < s.indexCount / 3 * 3; ++i)
            out.push_back(a.index(size_t(s.firstIndex) + i));
    }
    return draft;
}

// The joint with the largest weight summed over the triangle's corners; the lower joint wins a tie.
uint32_t dominantJoint(const MeshArrays& a, const uint32_t* corners) {
    uint32_t joints[12];
    float sums[12];
    uint32_t count = 0;
    for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 4; ++k) {
            const float w = a.weights[corners[c]][k];
            if (!(w > 0.0f)) continue;
            const uint32_t j = a.joints[corners[c]][k];
            uint32_t at = 0;
            while (at < count && joints[at] != j)
                ++at;
            if (at == count) {
                joints[count] = j;
                sums[count++] = 0.0f;
            }
            sums[at] += w;
        }
    uint32_t best = count > 0 ? joints[0] : 0;
    float bestSum = count > 0 ? sums[0] : 0.0f;
    for (uint32_t i = 1; i < count; ++i)
        if (sums[i] > bestSum || (sums[i] == bestSum && joints[i] < best)) {
            best = joints[i];
            bestSum = sums[i];
        }
    return best;
}

std::vector<uint32_t> allTriangles(const Draft& draft) {
    std::vector<uint32_t> out;
    out.reserve(size_t(triangleCount(draft)) * 3);
    for (const std::vector<uint32_t>& s : draft.submeshes)
        out.insert(out.end(), s.begin(), s.end());
    return out;
}

// The level's triangles as the simplifier sees them, over welded vertices (model/weld.h): every
// vertex that triangles of different regions share is copied once per region, at the same
// position. Regions then meet the way two sides of a UV seam do: the simplifier moves a seam
// vertex only along the seam and together with its copy, and never moves a vertex where three
// regions meet, so every collapse stays inside one region and the surface stays closed across
// region edges. Clustering keeps them apart the same way (model/cluster.h).
struct SplitMesh {
    std::vector<glm::vec3> positions; // per copy
    std::vector<uint32_t> source;     // per copy: its source vertex
    std::vector<uint32_t> submesh;    // per copy: the submesh of its region
    std::vector<uint64_t> region;     // per copy: its region, (submesh, joint) packed
    std::vector<uint32_t> indices;    // the level's triangles, as copies
    bool finite = true;               // every position used is finite
};

// `weld`: the level's vertices welded (model/weld.h) over the level's own triangles, so that every
// vertex standing for others is one the level uses and coarser levels keep reading a prefix.
SplitMesh splitByRegion(const Mesh& mesh, std::span<const glm::vec3> positions, const Draft& level,
                        bool boneRegions, std::span<const uint32_t> weld) {
    const MeshArrays& a = mesh.arrays();
    // Each vertex's copies form a list from firstCopy; most vertices lie in one region, none in
    // more than a few.
    std::vector<uint32_t> firstCopy(mesh.vertexCount(), kNone);
    SplitMesh split;
    std::vector<uint32_t> nextCopy; // the vertex's next copy, kNone after its last
    split.indices.reserve(size_t(triangleCount(level)) * 3);
    for (auto* perCopy : {&split.source, &split.submesh, &nextCopy})
        perCopy->reserve(mesh.vertexCount());
    split.positions.reserve(mesh.vertexCount());
    split.region.reserve(mesh.vertexCount());
    auto copyOf = [&](uint32_t v, uint64_t region, uint32_t submesh) {
        uint32_t* slot = &firstCopy[v];
        for (; *slot != kNone; slot = &nextCopy[*slot])
            if (split.region[*slot] == region) return *slot;
        const uint32_t copy = uint32_t(split.source.size());
        *slot = copy; // before nextCopy grows: slot may point into it
        split.region.push_back(region);
        nextCopy.push_back(kNone);
        split.positions.push_back(positions[v]);
        split.source.push_back(v);
        split.submesh.push_back(submesh);
        split.finite &=
            std::isfinite(positions[v].x) && std::isfinite(positions[v].y) && std::isfinite(positions[v].z);
        return copy;
    };
    for (uint32_t s = 0; s < level.submeshes.size(); ++s) {
        const std::vector<uint32_t>& tris = level.submeshes[s];
        for (size_t t = 0; t < tris.size(); t += 3) {
            const uint32_t corners[3] = {weld[tris[t]], weld[tris[t + 1]], weld[tris[t + 2]]};
            // Joints are 16-bit, so (submesh, joint) packs into one key.
            const uint64_t region = uint64_t(s) << 16 | (boneRegions ? dominantJoint(a, corners) : 0u);
            for (uint32_t v : corners)
                split.indices.push_back(copyOf(v, region, s));
        }
    }
    return split;
}

// The split mesh's triangles after meshoptimizer's edge collapses towards `targetTriangles`;
// empty when it has no extent.
std::vector<uint32_t> collapse(const SplitMesh& split, uint32_t targetTriangles) {
    const float* positions = &split.positions[0].x;
    // meshoptimizer works relative to the extent; without one there is nothing to simplify.
    const float extent = meshopt_simplifyScale(positions, split.positions.size(), sizeof(glm::vec3));
    if (!(extent > 0.0f) || !std::isfinite(extent)) return {};
    std::vector<uint32_t> kept(split.indices.size());
    // No error limit (1 is the whole extent): the triangle target alone decides. meshoptimizer's
    // own error is not used: its quadrics barely cost a thin tube that collapses along its length
    // or to a line, so it says little of how far a vanished leg is from the level.
    kept.resize(meshopt_simplify(kept.data(), split.indices.data(), split.indices.size(), positions,
                                 split.positions.size(), sizeof(glm::vec3),
                                 std::min<size_t>(size_t(targetTriangles) * 3, split.indices.size()), 1.0f, 0,
                                 nullptr));
    return kept;
}

// The largest triangle of each piece (`pieces`, per source vertex: a part of the source joined to
// nothing else, across regions and seams) that the split mesh has triangles of and `kept` (its
// triangles after simplifying) has no vertex of, with both windings.
std::vector<uint32_t> emptiedPieces(const SplitMesh& split, std::span<const uint32_t> kept,
                                    std::span<const uint32_t> pieces) {
    auto piece = [&](uint32_t copy) { return pieces[split.source[copy]]; };
    std::vector<uint32_t> largest(pieces.size(), kNone);
    std::vector<float> area(pieces.size(), 0.0f);
    for (uint32_t t = 0; t + 3 <= split.indices.size(); t += 3) {
        const glm::vec3 a = split.positions[split.indices[t]], b = split.positions[split.indices[t + 1]],
                        c = split.positions[split.indices[t + 2]];
        const float twice = glm::length(glm::cross(b - a, c - a));
        const uint32_t p = piece(split.indices[t]);
        if (twice > area[p]) {
            area[p] = twice;
            largest[p] = t;
        }
    }
    for (uint32_t copy : kept)
        largest[piece(copy)] = kNone;
    std::vector<uint32_t> out;
    for (uint32_t t : largest)
        if (t != kNone) {
            const uint32_t* c = &split.indices[t];
            out.insert(out.end(), {c[0], c[1], c[2], c[0], c[2], c[1]});
        }
    return out;
}

// A level's error (LodLevel::error).
struct LevelError {
    const SourceSurface& surface;
    std::span<const glm::vec3> normals; // the mesh's own: the rotations and scales that place a mesh keep
                                        // the angles between them
    float turnAngle;                    // radians
    float turnedPixels;
    const SourceCoverage& coverage;
    float coveredPixels;

    float of(std::span<const uint32_t> level, float atLeast, float enough) const {
        const float distance = surface.farthestFrom(level, atLeast, enough);
        float error = distance;
        if (error > enough) return error;
        if (turnedPixels > 0.0f) {
            const double area = surface.turnedArea(level, normals, distance, turnAngle,
                                                   double(enough) * enough * turnedPixels);
            error = std::max(error, float(std::sqrt(area / turnedPixels)));
            if (error > enough) return error;
        }
        if (coveredPixels > 0.0f) {
            const double change = coverage.largestChange(level, double(enough) * enough * coveredPixels);
            error = std::max(error, float(std::sqrt(change / coveredPixels)));
        }
        return error;
    }
};

// `kept` (triangles of the split mesh) as a level simplified from `from`, its error measured (or,
// once that passes `enough`, some error above it).
Draft draftOf(const SplitMesh& split, std::span<const uint32_t> kept, const Draft& from,
              const LevelError& source, float enough) {
    Draft out;
    out.submeshes.resize(from.submeshes.size());
    // A triangle's corners are copies of one region, so the first names its submesh.
    for (size_t i = 0; i + 3 <= kept.size(); i += 3) {
        std::vector<uint32_t>& to = out.submeshes[split.submesh[kept[i]]];
        for (size_t c = 0; c < 3; ++c)
            to.push_back(split.source[kept[i + c]]);
    }
    // A whole material vanishing would be a visible pop; the previous triangles stay instead.
    for (size_t s = 0; s < out.submeshes.size(); ++s)
        if (out.submeshes[s].empty()) out.submeshes[s] = from.submeshes[s];
    // A level never claims less error than the finer one: the cull pass then picks coarser levels
    // only farther away.
    out.error = source.of(allTriangles(out), from.error, enough);
    return out;
}

// A piece that a level empties keeps its largest triangle where vanishing costs more than
// kPieceCost times the error: meshoptimizer collapses a small closed piece to nothing, and
// clustering drops one narrower than a cell, so that a piece apart from the rest (a horn, a
// bolt, a buckle) costs its distance from the rest, where its triangle would cost about its size.
// Where vanishing loses little (the monster's farthest levels, cards merged with their
// neighbours), the triangles are saved.
constexpr float kPieceCost = 1.5f;

// A level as the simplifier starts from it, with what every attempt from it shares.
struct From {
    const Draft& level;
    std::span<const uint32_t> weld;   // model/weld.h, keeping creases or not as the attempt does
    std::span<const uint32_t> pieces; // per source vertex: its piece of the source (model/cluster.h)
};

// Level `from` simplified towards `targetTriangles` into `out`, its error measured against the
// source surface (once it passes `enough`, some error above that: a level the caller will not
// take); false when it cannot be (no triangles, a position that is not finite, or no extent).
bool simplify(const Mesh& mesh, std::span<const glm::vec3> positions, const LevelError& source,
              const From& start, Stage stage, Method method, uint32_t targetTriangles, float enough, Draft& out) {
    const Draft& from = start.level;
    SplitMesh split = splitByRegion(mesh, positions, from, stage.boneRegions, start.weld);
    if (!split.finite || split.indices.empty()) return false;
    std::vector<uint32_t> kept = method == Method::collapse ? collapse(split, targetTriangles)
                                                            : clusterToTarget(split.positions, split.region,
                                                                              split.indices, targetTriangles);
    if (kept.empty()) return false;
    out = draftOf(split, kept, from, source, enough);
    const std::vector<uint32_t> pieces = emptiedPieces(split, kept, start.pieces);
    if (!pieces.empty()) {
        kept.insert(kept.end(), pieces.begin(), pieces.end());
        Draft keeping = draftOf(split, kept, from, source, std::min(enough, out.error / kPieceCost));
        if (keeping.error * kPieceCost < out.error) out = std::move(keeping);
    }
    out.stage = stage;
    out.clustered = method == Method::cluster;
    return true;
}

// Bone regions keep a level's triangles from bridging bones, which the error (measured in the
// bind pose) does not see; they are given up once simplifying within submeshes alone gives less
// than 1 / kBoneRegionCost of their error.
constexpr float kBoneRegionCost = 1.5f;

// Creases are given up once collapsing across them gives less than 1 / kCreaseCost of the error.
constexpr float kCreaseCost = 1.5f;

// Clustering replaces a level made by collapses only when it has less than 1 / kClusterGain of
// its error: where collapses do about as well, they keep the surface closed everywhere.
constexpr float kClusterGain = 1.5f;
// A chain still above this share of the source's triangles may cluster past
// LodOptions::clusterError: a far crowd's instance should not cost a third of the mesh.
constexpr float kFarShare = 0.1f;

// Half the diagonal of the box around the triangles' corners.
float radiusOf(std::span<const glm::vec3> positions, std::span<const uint32_t> triangles) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (uint32_t v : triangles) {
        lo = glm::min(lo, positions[v]);
        hi = glm::max(hi, positions[v]);
    }
    return triangles.empty() ? 0.0f : 0.5f * glm::length(hi - lo);
}

std::vector<Draft> draftChain(const Mesh& mesh, std::span<const glm::vec3> positions, const LodOptions& options) {
    std::vector<Draft> chain{sourceLevel(mesh)};
    const std::vector<uint32_t> sourceTriangles = allTriangles(chain[0]);
    const SourceSurface surface(positions, sourceTriangles);
    const SourceCoverage coverage(positions, sourceTriangles);
    const double share = std::clamp(options.share, 0.0, 1.0);
    const LevelError source{surface, mesh.arrays().normals, glm::radians(options.turnAngle),
                            float(double(options.turnedPixels) * share), coverage,
                            float(double(options.coveredPixels) * share)};
    const std::vector<uint32_t> pieces = piecesOf(positions, sourceTriangles);
    const float clusterErrorLimit = options.clusterError * radiusOf(positions, sourceTriangles);
    const float sourceCount = float(triangleCount(chain[0]));
    const float ratio = std::clamp(std::isfinite(options.ratio) ? options.ratio : 0.5f, 0.0f, 1.0f);
    // A level that removes less than this share of its source's triangles (or of what was
    // asked, for ratios near 1) ends the bone-region levels, then the chain.
    const float stall = std::max(0.9f, 0.5f * (1.0f + ratio));
    // Creases are kept only where there are any: otherwise welding across them changes nothing,
    // and trying it would only repeat a level.
    Stage stage{mesh.skinned(),
                weldVertices(mesh, sourceTriangles, true) != weldVertices(mesh, sourceTriangles, false)};
    while (chain.size() < options.maxLevels) {
        const Draft& from = chain.back();
        const uint32_t triangles = triangleCount(from);
        if (triangles < std::max(options.minTriangles, 1u)) break;
        const uint32_t target = uint32_t(float(triangles) * ratio);
        auto reduced = [&](const Draft& d) { return float(triangleCount(d)) <= stall * float(triangles); };
        // A smooth surface's error grows about as its triangle count shrinks (a chord strays from
        // a curve by the square of its length; triangles cover an area), so a level whose error
        // grows faster lost more than curvature: a feature, or what bone regions forbid. Only
        // then is the level also simplified within submeshes, a second simplification being
        // costly. Level 1 has no error to grow from; so close to the source, bone regions rarely
        // bind.
        auto growsFast = [&](const Draft& d) { return from.error > 0.0f && d.error * ratio > from.error; };
        const std::vector<uint32_t> fromTriangles = allTriangles(from);
        std::vector<uint32_t> welds[2]; // without and with creases, found when first needed
        auto weld = [&](bool creases) -> std::span<const uint32_t> {
            if (welds[creases].empty()) welds[creases] = weldVertices(mesh, fromTriangles, creases);
            return welds[creases];
        };
        // The level by one method and weld: collapses within bone regions while they last, else
        // within submeshes; clustering, being costly, within the regions collapses have come to.
        // Only a level whose error is at most `enough` is of use to the caller: no level has less
        // error than the one it is made from, and one found to pass it is not measured on.
        auto attempt = [&](Method method, bool creases, float enough, Draft& next) {
            if (enough < from.error) return false;
            const From start{from, weld(creases), pieces};
            bool ok =
                simplify(mesh, positions, source, start, {stage.boneRegions, creases}, method, target, enough, next) &&
                reduced(next) && next.error <= enough;
            if (stage.boneRegions && method == Method::collapse && (!ok || growsFast(next))) {
                Draft submeshOnly;
                if (simplify(mesh, positions, source, start, {false, creases}, method, target,
                             ok ? next.error / kBoneRegionCost : enough, submeshOnly) &&
                    reduced(submeshOnly) && submeshOnly.error <= enough &&
                    (!ok || submeshOnly.error * kBoneRegionCost < next.error)) {
                    next = std::move(submeshOnly);
                    ok = true;
                }
            }
            return ok;
        };
        // Collapses keep the topology and, on a connected surface, cost the least. They keep
        // creases until that stalls them or costs far more than collapsing across them (a
        // flat-shaded mesh, every corner of which is a crease). Where collapses stall or their
        // error grows fast (a thin part collapsed along its length, pieces they cannot join),
        // clustering is tried as well, being costly, and wins where it costs far less. A clustered
        // level stays within options.clusterError of the radius: past that it would stand for the
        // mesh with a few large triangles, which only instances a few pixels wide could use; but
        // until the chain is down to kFarShare of the source's triangles, those are worth a
        // level too (it is drawn only where its measured error is under the pixel error).
        constexpr float kAny = std::numeric_limits<float>::infinity();
        const float clusterLimit = float(triangles) > kFarShare * sourceCount ? kAny : clusterErrorLimit;
        Draft next;
        bool ok = attempt(Method::collapse, stage.creases, kAny, next);
        if (stage.creases && (!ok || growsFast(next))) {
            Draft welded;
            if (attempt(Method::collapse, false, ok ? next.error / kCreaseCost : kAny, welded) &&
                (!ok || welded.error * kCreaseCost < next.error)) {
                next = std::move(welded);
                ok = true;
            }
        }
        if (!ok || growsFast(next)) {
            Draft clustered;
            if (attempt(Method::cluster, false,
                        ok ? std::min(clusterLimit, next.error / kClusterGain) : clusterLimit, clustered) &&
                clustered.error <= clusterLimit && (!ok || clustered.error * kClusterGain < next.error)) {
                next = std::move(clustered);
                ok = true;
            }
        }
        if (!ok) break;
        stage = next.stage;
        chain.push_back(std::move(next));
    }
    return chain;
}

// meshoptimizer's vertex cache optimizer costs time and memory in proportion to the vertex count
// it is given as well as to the indices, so each submesh goes through it over its own vertices,
// numbered densely. Triangle order does not depend on how vertices are numbered, so this is the
// order it would give in the chain's own numbering.
// `scratch` holds kNone for every vertex, and does again on return.
void optimizeVertexCache(std::vector<uint32_t>& indices, std::vector<uint32_t>& scratch) {
    std::vector<uint32_t> vertices, dense(indices.size());
    for (size_t i = 0; i < indices.size(); ++i) {
        uint32_t& local = scratch[indices[i]];
        if (local == kNone) {
            local = uint32_t(vertices.size());
            vertices.push_back(indices[i]);
        }
        dense[i] = local;
    }
    meshopt_optimizeVertexCache(dense.data(), dense.data(), dense.size(), vertices.size());
    for (size_t i = 0; i < indices.size(); ++i)
        indices[i] = vertices[dense[i]];
    for (uint32_t v : vertices)
        scratch[v] = kNone;
}

// Vertex i of the chain is order[i]: the coarsest level's vertices in order of first use, then
// those each finer level adds, then unused ones; every level then reads a prefix.
LodChain assemble(uint32_t vertexCount, std::vector<Draft>& drafts) {
    std::vector<uint32_t> scratch(vertexCount, kNone);
    for (Draft& d : drafts)
        for (std::vector<uint32_t>& s : d.submeshes)
            optimizeVertexCache(s, scratch);
    LodChain chain;
    chain.order.reserve(vertexCount);
    std::vector<uint32_t> position(vertexCount, kNone);
    chain.levels.resize(drafts.size());
    for (size_t k = drafts.size(); k-- > 0;) {
        for (const std::vector<uint32_t>& s : drafts[k].submeshes)
            for (uint32_t v : s)
                if (position[v] == kNone) {
                    position[v] = uint32_t(chain.order.size());
                    chain.order.push_back(v);
                }
        chain.levels[k].vertexCount = uint32_t(chain.order.size());
    }
    for (uint32_t v = 0; v < vertexCount; ++v)
        if (position[v] == kNone) chain.order.push_back(v);
    chain.levels[0].vertexCount = vertexCount;
    for (size_t k = 0; k < drafts.size(); ++k) {
        chain.levels[k].error = drafts[k].error;
        chain.levels[k].boneRegions = drafts[k].stage.boneRegions;
        chain.levels[k].clustered = drafts[k].clustered;
        for (const std::vector<uint32_t>& s : drafts[k].submeshes) {
            chain.levels[k].submeshes.push_back({"", uint32_t(chain.indices.size()), uint32_t(s.size())});
            for (uint32_t v : s)
                chain.indices.push_back(position[v]);
        }
    }
    return chain;
}

} // namespace

LodChain buildLodChain(const Mesh& mesh, std::span<const glm::vec3> positions, const LodOptions& options) {
    if (positions.size() != mesh.vertexCount())
        throw std::invalid_argument("buildLodChain: one drawn position per vertex of the mesh");
    std::vector<Draft> drafts = draftChain(mesh, positions, options);
    LodChain chain = assemble(mesh.vertexCount(), drafts);
    for (LodLevel& level : chain.levels)
        for (size_t s = 0; s < level.submeshes.size(); ++s)
            level.submeshes[s].material = mesh.submeshes[s].material;
    return chain;
}

std::vector<LodChain> buildLodChains(const Model& model, std::span<const std::vector<glm::vec3>> positions,
                                     LodOptions options) {
    std::vector<double> areas;
    double total = 0.0;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const MeshArrays& a = model.meshes[m].arrays();
        const std::vector<glm::vec3>& p = positions[m];
        double area = 0.0;
        for (const Submesh& s : model.meshes[m].submeshes)
            for (uint32_t i = 0; i + 3 <= s.indexCount; i += 3) {
                const glm::dvec3 x(p[a.index(s.firstIndex + i)]), y(p[a.index(s.firstIndex + i + 1)]),
                    z(p[a.index(s.firstIndex + i + 2)]);
                area += 0.5 * glm::length(glm::cross(y - x, z - x));
            }
        areas.push_back(std::isfinite(area) ? area : 0.0);
        total += areas.back();
    }
    std::vector<LodChain> chains;
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        options.share = total > 0.0 ? areas[m] / total : 1.0;
        chains.push_back(buildLodChain(model.meshes[m], positions[m], options));
    }
    return chains;
}

} // namespace horde
