#include "lod_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "model/coverage.h"

namespace horde::test {

namespace {

// The exact distance from p to triangle abc, found another way than SourceSurface finds it: the
// nearest point of the triangle's plane (from the 2 x 2 normal equations) when it lies inside,
// else the nearest point of an edge.
double referenceDistance(glm::dvec3 p, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
    auto segment = [&](glm::dvec3 from, glm::dvec3 to) {
        const glm::dvec3 d = to - from;
        const double t =
            glm::dot(d, d) > 0.0 ? std::clamp(glm::dot(p - from, d) / glm::dot(d, d), 0.0, 1.0) : 0.0;
        return glm::length(p - (from + t * d));
    };
    const glm::dvec3 u = b - a, v = c - a, w = p - a;
    const double uu = glm::dot(u, u), uv = glm::dot(u, v), vv = glm::dot(v, v);
    const double det = uu * vv - uv * uv;
    if (det > 1e-12 * uu * vv) {
        const double s = (vv * glm::dot(w, u) - uv * glm::dot(w, v)) / det;
        const double t = (uu * glm::dot(w, v) - uv * glm::dot(w, u)) / det;
        if (s >= 0.0 && t >= 0.0 && s + t <= 1.0) return glm::length(p - (a + s * u + t * v));
    }
    return std::min({segment(a, b), segment(b, c), segment(c, a)});
}

} // namespace

// The same triangle whichever corner comes first (winding kept).
Triangle canonical(Triangle t) {
    std::rotate(t.begin(), std::min_element(t.begin(), t.end()), t.end());
    return t;
}

// One submesh's triangles of a level, as source vertices: canonical and sorted, or as stored.
std::vector<Triangle> levelTriangles(const LodChain& chain, size_t level, size_t submesh, bool sorted) {
    const Submesh& s = chain.levels[level].submeshes[submesh];
    std::vector<Triangle> out;
    for (uint32_t i = 0; i < s.indexCount; i += 3) {
        const uint32_t* at = &chain.indices[s.firstIndex + i];
        const Triangle t{chain.order[at[0]], chain.order[at[1]], chain.order[at[2]]};
        out.push_back(sorted ? canonical(t) : t);
    }
    if (sorted) std::sort(out.begin(), out.end());
    return out;
}

std::vector<Triangle> sourceTriangles(const Mesh& mesh, size_t submesh) {
    const Submesh& s = mesh.submeshes[submesh];
    std::vector<Triangle> out;
    for (uint32_t i = 0; i + 3 <= s.indexCount; i += 3) {
        const size_t at = s.firstIndex + i;
        out.push_back(
            canonical({mesh.arrays().index(at), mesh.arrays().index(at + 1), mesh.arrays().index(at + 2)}));
    }
    std::sort(out.begin(), out.end());
    return out;
}

uint32_t triangles(const LodLevel& level) {
    return level.triangleCount();
}

std::vector<bool> used(const LodChain& chain, size_t level, size_t vertexCount) {
    std::vector<bool> out(vertexCount, false);
    for (size_t s = 0; s < chain.levels[level].submeshes.size(); ++s)
        for (const Triangle& t : levelTriangles(chain, level, s))
            for (uint32_t v : t)
                out[v] = true;
    return out;
}

// Everything the chain promises whatever the mesh.
void expectWellFormed(const Mesh& mesh, const LodChain& chain) {
    ASSERT_FALSE(chain.levels.empty());
    std::vector<uint32_t> sorted = chain.order;
    std::sort(sorted.begin(), sorted.end());
    std::vector<uint32_t> all(mesh.vertexCount());
    std::iota(all.begin(), all.end(), 0u);
    EXPECT_EQ(sorted, all) << "order is a permutation of the vertices";

    EXPECT_EQ(chain.levels[0].vertexCount, mesh.vertexCount());
    EXPECT_EQ(chain.levels[0].error, 0.0f);
    for (size_t s = 0; s < mesh.submeshes.size(); ++s)
        EXPECT_EQ(levelTriangles(chain, 0, s), sourceTriangles(mesh, s))
            << "level 0 is the source, submesh " << s;

    for (size_t k = 0; k < chain.levels.size(); ++k) {
        const LodLevel& level = chain.levels[k];
        ASSERT_EQ(level.submeshes.size(), mesh.submeshes.size()) << "level " << k;
        for (size_t s = 0; s < level.submeshes.size(); ++s) {
            const Submesh& sub = level.submeshes[s];
            EXPECT_EQ(sub.material, mesh.submeshes[s].material);
            EXPECT_EQ(sub.indexCount % 3, 0u);
            ASSERT_LE(uint64_t(sub.firstIndex) + sub.indexCount, chain.indices.size());
            for (uint32_t i = 0; i < sub.indexCount; ++i)
                ASSERT_LT(chain.indices[sub.firstIndex + i], level.vertexCount)
                    << "level " << k << " submesh " << s;
        }
        if (k == 0) continue;
        const LodLevel& finer = chain.levels[k - 1];
        EXPECT_LE(level.vertexCount, finer.vertexCount) << "level " << k;
        EXPECT_LT(triangles(level), triangles(finer)) << "level " << k;
        EXPECT_GE(level.error, finer.error) << "level " << k;
        // The prefix: every vertex a level uses, the level before it uses too.
        std::vector<bool> before = used(chain, k - 1, mesh.vertexCount());
        std::vector<bool> now = used(chain, k, mesh.vertexCount());
        for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
            EXPECT_TRUE(!now[v] || before[v])
                << "level " << k << " uses vertex " << v << " that level " << k - 1 << " does not";
        EXPECT_EQ(std::count(now.begin(), now.end(), true), level.vertexCount)
            << "level " << k << " reads exactly its prefix";
    }
}

// A model holding `mesh` at its root, with a two-joint skin (joint b 4 along z, bending in the
// model's one clip) that skinned meshes use.
Model tube(bool skinned) {
    std::vector<glm::vec3> positions;
    for (uint32_t r = 0; r < kRings; ++r)
        for (uint32_t k = 0; k < kRingVertices; ++k) {
            const float angle = 2.0f * float(M_PI) * float(k % kSides) / float(kSides);
            positions.push_back({std::cos(angle), std::sin(angle), float(r)});
        }
    std::vector<uint32_t> indices;
    for (uint32_t r = 0; r + 1 < kRings; ++r)
        for (uint32_t k = 0; k < kSides; ++k) {
            const uint32_t a = r * kRingVertices + k, b = a + 1, c = a + kRingVertices, d = c + 1;
            indices.insert(indices.end(), {a, b, d, a, d, c});
        }
    Mesh mesh = meshOf(positions, indices, skinned);
    mesh.submeshes = {{"front", 0, 4 * kSides * 6}, {"back", 4 * kSides * 6, 4 * kSides * 6}};
    for (uint32_t v = 0; v < positions.size(); ++v)
        mesh.arrays().uv0[v] =
            glm::vec2(float(v % kRingVertices) / float(kSides), float(v / kRingVertices) / 8.0f);
    if (skinned)
        for (uint32_t v = 0; v < positions.size(); ++v) {
            const uint32_t ring = v / kRingVertices;
            const float toB = ring < 6 ? 0.0f : ring == 6 ? 0.5f : 1.0f;
            mesh.arrays().weights[v] = {1.0f - toB, toB, 0, 0};
        }
    return modelOf(std::move(mesh));
}

Model modelOf(Mesh mesh) {
    Model model;
    model.nodes = {Node{"root"}, Node{"a", 0}, Node{"b", 1, glm::vec3(0, 0, 4)}};
    model.skins.push_back(
        Skin{{1, 2}, {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, -4))}});
    model.meshes.push_back(std::move(mesh));
    // Joint b bends a third of a turn about x over a second.
    Channel bend{2, ChannelPath::Rotation, Interpolation::Linear, {0.0f, 1.0f}};
    const glm::quat third = glm::angleAxis(2.0f, glm::vec3(1, 0, 0));
    bend.values = {glm::vec4(0, 0, 0, 1), glm::vec4(third.x, third.y, third.z, third.w)};
    model.clips.push_back(Clip{"bend", 1.0f, ClipEnd::Hold, RotationBlend::Slerp, 0, "", {bend}});
    finalizeMeshes(model);
    return model;
}

Mesh meshOf(const std::vector<glm::vec3>& positions, const std::vector<uint32_t>& indices, bool skinned) {
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = uint32_t(positions.size());
    layout.indexCount = uint32_t(indices.size());
    layout.skinned = skinned;
    Mesh mesh;
    mesh.name = "test";
    mesh.skin = skinned ? 0 : -1;
    mesh.storage = heap.allocate(layout, mesh.name);
    MeshArrays& a = mesh.arrays();
    for (size_t v = 0; v < positions.size(); ++v) {
        a.positions[v] = positions[v];
        a.normals[v] = glm::vec3(0, 0, 1);
        if (skinned) {
            a.joints[v] = {0, 1, 0, 0};
            a.weights[v] = {1, 0, 0, 0};
        }
    }
    for (size_t i = 0; i < indices.size(); ++i)
        a.setIndex(i, indices[i]);
    mesh.submeshes = {{"only", 0, uint32_t(indices.size())}};
    return mesh;
}

// Each vertex's id after welding vertices with identical positions.
std::vector<uint32_t> welded(const Mesh& mesh) {
    std::map<std::array<float, 3>, uint32_t> ids;
    std::vector<uint32_t> out;
    for (glm::vec3 p : mesh.arrays().positions)
        out.push_back(ids.try_emplace({p.x, p.y, p.z}, uint32_t(ids.size())).first->second);
    return out;
}

// Directed edges of the welded triangles that no edge the other way pairs, with multiplicity.
std::map<std::pair<uint32_t, uint32_t>, int> openEdges(const std::vector<std::vector<Triangle>>& submeshes,
                                                       const std::vector<uint32_t>& weld) {
    std::map<std::pair<uint32_t, uint32_t>, int> count;
    for (const std::vector<Triangle>& tris : submeshes)
        for (const Triangle& t : tris)
            for (int c = 0; c < 3; ++c)
                ++count[{weld[t[c]], weld[t[(c + 1) % 3]]}];
    std::map<std::pair<uint32_t, uint32_t>, int> open;
    for (auto [edge, n] : count) {
        auto back = count.find({edge.second, edge.first});
        const int unpaired = n - (back == count.end() ? 0 : back->second);
        if (unpaired > 0) open[edge] = unpaired;
    }
    return open;
}

// Poses the model mid-clip with the CPU reference; wherever a level uses two vertices with the
// same bind position, they must land together (within 1e-5 of the model's size). Returns how many
// such pairs there were.
size_t expectNoTears(const Model& model, const LodChain& chain) {
    const Mesh& mesh = model.meshes[0];
    const std::vector<uint32_t> weld = welded(mesh);
    const double tolerance = 1e-5 * double(glm::length(mesh.bounds.max - mesh.bounds.min));
    size_t shared = 0;
    for (double t : {0.1, 0.35, 0.5, 0.8}) {
        const std::vector<glm::dvec3> posed = poseModel(model, Playback{0}, t)[0].positions;
        for (size_t k = 0; k < chain.levels.size(); ++k) {
            std::vector<bool> uses = used(chain, k, mesh.vertexCount());
            std::map<uint32_t, uint32_t> first; // welded position -> first vertex the level uses there
            for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
                if (!uses[v]) continue;
                auto [it, added] = first.try_emplace(weld[v], v);
                if (added) continue;
                ++shared;
                EXPECT_LE(glm::length(posed[v] - posed[it->second]), tolerance)
                    << "level " << k << " vertices " << v << ", " << it->second;
            }
        }
    }
    return shared;
}

// What a level's error measures, by brute force over every pair: the largest distance from a
// point of the source surface (a vertex, an edge's midpoint, a triangle's centroid) to the nearest
// of the level's triangles.
double bruteForceError(const Mesh& mesh, const LodChain& chain, size_t level) {
    std::vector<std::array<glm::dvec3, 3>> targets;
    for (size_t s = 0; s < mesh.submeshes.size(); ++s)
        for (const Triangle& t : levelTriangles(chain, level, s))
            targets.push_back({glm::dvec3(mesh.arrays().positions[t[0]]),
                               glm::dvec3(mesh.arrays().positions[t[1]]),
                               glm::dvec3(mesh.arrays().positions[t[2]])});
    double farthest = 0.0;
    auto measure = [&](glm::dvec3 p) {
        double nearest = std::numeric_limits<double>::infinity();
        // A point with a triangle within the farthest so far cannot change it.
        for (size_t t = 0; t < targets.size() && nearest > farthest; ++t)
            nearest = std::min(nearest, referenceDistance(p, targets[t][0], targets[t][1], targets[t][2]));
        farthest = std::max(farthest, nearest);
    };
    for (size_t s = 0; s < mesh.submeshes.size(); ++s)
        for (const Triangle& t : sourceTriangles(mesh, s)) {
            std::array<glm::dvec3, 3> p;
            for (int c = 0; c < 3; ++c)
                p[c] = glm::dvec3(mesh.arrays().positions[t[c]]);
            for (int c = 0; c < 3; ++c)
                measure(p[c]), measure(0.5 * (p[c] + p[(c + 1) % 3]));
            measure((p[0] + p[1] + p[2]) / 3.0);
        }
    return farthest;
}

// What the level's shading loses, by brute force over every pair: the summed share (a third of
// each source triangle's area) of every source vertex no level triangle uses for which no level
// triangle within `within` (or, if none is, no nearest one) has, at the vertex's projection (its
// barycentric weights from the normal equations, negative ones set to zero), an interpolated
// normal within `maxAngle` of the vertex's.
double bruteForceTurnedArea(const Mesh& mesh, const LodChain& chain, size_t level, double within, double maxAngle) {
    const MeshArrays& a = mesh.arrays();
    auto position = [&](uint32_t v) { return glm::dvec3(a.positions[v]); };
    std::vector<Triangle> targets;
    std::vector<bool> kept(mesh.vertexCount(), false);
    for (size_t s = 0; s < mesh.submeshes.size(); ++s)
        for (const Triangle& t : levelTriangles(chain, level, s)) {
            targets.push_back(t);
            for (uint32_t v : t) kept[v] = true;
        }
    std::vector<double> share(mesh.vertexCount(), 0.0);
    std::vector<bool> used(mesh.vertexCount(), false);
    for (size_t s = 0; s < mesh.submeshes.size(); ++s)
        for (const Triangle& t : sourceTriangles(mesh, s)) {
            const double third = glm::length(glm::cross(position(t[1]) - position(t[0]), position(t[2]) - position(t[0]))) / 6.0;
            for (uint32_t v : t) share[v] += third, used[v] = true;
        }
    auto normalAt = [&](const Triangle& t, glm::dvec3 p) {
        const glm::dvec3 u = position(t[1]) - position(t[0]), v = position(t[2]) - position(t[0]), w = p - position(t[0]);
        const double uu = glm::dot(u, u), uv = glm::dot(u, v), vv = glm::dot(v, v), det = uu * vv - uv * uv;
        glm::dvec3 weights(1.0);
        if (det > 0.0) {
            const double s = (vv * glm::dot(w, u) - uv * glm::dot(w, v)) / det;
            const double r = (uu * glm::dot(w, v) - uv * glm::dot(w, u)) / det;
            weights = glm::max(glm::dvec3(1.0 - s - r, s, r), glm::dvec3(0.0));
        }
        return weights.x * glm::dvec3(a.normals[t[0]]) + weights.y * glm::dvec3(a.normals[t[1]]) +
               weights.z * glm::dvec3(a.normals[t[2]]);
    };
    double area = 0.0;
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
        const glm::dvec3 n(a.normals[v]), p = position(v);
        if (!used[v] || kept[v] || !(glm::length(n) > 0.0)) continue;
        std::vector<double> distances;
        for (const Triangle& t : targets)
            distances.push_back(referenceDistance(p, position(t[0]), position(t[1]), position(t[2])));
        const double reach = std::max(within, *std::min_element(distances.begin(), distances.end()));
        bool alike = false;
        for (size_t t = 0; t < targets.size(); ++t) {
            const glm::dvec3 m = normalAt(targets[t], p);
            alike |= distances[t] <= reach && glm::length(m) > 0.0 &&
                     glm::dot(n, m) >= std::cos(maxAngle) * glm::length(n) * glm::length(m);
        }
        if (!alike) area += share[v];
    }
    return area;
}

// Each simplified level's error is the largest of the finer level's, its own brute-force distance,
// the side of the square of `options.turnedPixels` square pixels per square unit that covers
// what its shading loses (measured within the larger of the first two), and that of
// `options.coveredPixels` that covers the most area it gains or loses seen from afar
// (SourceCoverage, tested on its own in coverage_test.cpp).
void expectMeasuredErrors(const Mesh& mesh, const LodChain& chain, size_t fromLevel, const LodOptions& options) {
    const double tolerance = 1e-5 * std::max(1.0, double(glm::length(mesh.bounds.max - mesh.bounds.min)));
    std::vector<uint32_t> source;
    for (size_t s = 0; s < mesh.submeshes.size(); ++s)
        for (const Triangle& t : sourceTriangles(mesh, s))
            source.insert(source.end(), t.begin(), t.end());
    const SourceCoverage coverage(mesh.arrays().positions, source);
    for (size_t k = std::max<size_t>(fromLevel, 1); k < chain.levels.size(); ++k) {
        const double distance = std::max(double(chain.levels[k - 1].error), bruteForceError(mesh, chain, k));
        const double turned = bruteForceTurnedArea(mesh, chain, k, distance, glm::radians(double(options.turnAngle)));
        std::vector<uint32_t> level;
        for (size_t s = 0; s < mesh.submeshes.size(); ++s)
            for (const Triangle& t : levelTriangles(chain, k, s, false))
                level.insert(level.end(), t.begin(), t.end());
        const double covered = options.coveredPixels > 0.0f
                                   ? std::sqrt(coverage.largestChange(level) / options.coveredPixels)
                                   : 0.0;
        EXPECT_NEAR(chain.levels[k].error, std::max({distance, std::sqrt(turned / options.turnedPixels), covered}),
                    tolerance)
            << "level " << k;
    }
}

} // namespace horde::test
