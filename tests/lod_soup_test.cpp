// LOD chains for meshes as game files store them: which corners weld (hand-built vertices), a
// cube written as a triangle soup (hand-known coarsest level, seams kept), clustering on a hand-
// sized grid, and a mesh of many small closed pieces that only clustering reduces.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "lod_checks.h"
#include "model/cluster.h"
#include "model/lod.h"
#include "model/validate.h"
#include "model/weld.h"

using namespace horde;
using namespace horde::test;

namespace {

// Corners of one vertex each, with every stream a file may carry.
Mesh soupOf(size_t vertexCount, size_t indexCount) {
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = uint32_t(vertexCount);
    layout.indexCount = uint32_t(indexCount);
    layout.tangents = true;
    layout.skinned = true;
    Mesh mesh;
    mesh.name = "soup";
    mesh.skin = 0;
    mesh.storage = heap.allocate(layout, mesh.name);
    mesh.submeshes = {{"only", 0, uint32_t(indexCount)}};
    return mesh;
}

glm::vec3 rotatedAboutX(glm::vec3 v, float degrees) {
    const float a = glm::radians(degrees);
    return {v.x, std::cos(a) * v.y - std::sin(a) * v.z, std::sin(a) * v.y + std::cos(a) * v.z};
}

// A cube of side 2 centred on (0, 0, 4) (around modelOf's second joint), each face split into
// n x n squares of two triangles, written as a soup: every triangle owns its three corners.
// Smooth, a corner's attributes follow from its position alone: the normal points away from the
// centre, no texture coordinates, weights on the two joints by height. Faceted, each corner has its
// face's normal and texture coordinates in its face's own tile of a 6 x 1 atlas (apart from the
// others), so corners at one position differ; with a joint per face, the top face (+z) is wholly
// on joint 1 and the others on joint 0, so they differ in skin too.
enum class Cube { smooth, faceted, jointPerFace };

struct CubeFace {
    glm::vec3 normal, u, v; // outward normal and the face's two axes (u x v = normal)
};
constexpr std::array<CubeFace, 6> kFaces = {{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
                                             {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
                                             {{0, 1, 0}, {0, 0, 1}, {1, 0, 0}},
                                             {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
                                             {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},
                                             {{0, 0, -1}, {0, 1, 0}, {1, 0, 0}}}};
const glm::vec3 kCubeCentre(0, 0, 4);

Model cubeSoup(uint32_t n, Cube kind) {
    const size_t triangleCount = 6 * n * n * 2;
    Mesh mesh = soupOf(triangleCount * 3, triangleCount * 3);
    MeshArrays& a = mesh.arrays();
    uint32_t next = 0;
    for (uint32_t f = 0; f < 6; ++f) {
        const CubeFace& face = kFaces[f];
        auto corner = [&](uint32_t i, uint32_t j) {
            const float s = 2.0f * float(i) / float(n) - 1.0f, t = 2.0f * float(j) / float(n) - 1.0f;
            const glm::vec3 p = kCubeCentre + face.normal + s * face.u + t * face.v;
            a.positions[next] = p;
            a.normals[next] = kind == Cube::smooth ? glm::normalize(p - kCubeCentre) : face.normal;
            a.tangents[next] = glm::vec4(face.u, 1.0f);
            if (kind != Cube::smooth)
                a.uv0[next] = glm::vec2((float(f) + 0.1f + 0.4f * (s + 1.0f)) / 6.0f, 0.5f * (t + 1.0f));
            const float up =
                kind == Cube::jointPerFace ? (f == 4 ? 1.0f : 0.0f) : 0.5f * (p.z - kCubeCentre.z + 1.0f);
            a.joints[next] = {0, 1, 0, 0};
            a.weights[next] = {1.0f - up, up, 0, 0};
            a.setIndex(next, next);
            ++next;
        };
        for (uint32_t j = 0; j < n; ++j)
            for (uint32_t i = 0; i < n; ++i) {
                // Counter-clockwise seen from outside: u, then v.
                for (auto [di, dj] : {std::pair{0u, 0u}, {1u, 0u}, {1u, 1u}, {0u, 0u}, {1u, 1u}, {0u, 1u}})
                    corner(i + di, j + dj);
            }
    }
    return modelOf(std::move(mesh));
}

// The face a vertex of cubeSoup belongs to, by its texture coordinates' tile.
uint32_t faceOf(const Mesh& mesh, uint32_t v) {
    return uint32_t(mesh.arrays().uv0[v].x * 6.0f);
}

// The cube soup as an index buffer over distinct corners (equal in every stream, found here by
// comparing their bytes), numbered in order of first use: what welding should hand the
// simplifier. Its chain must be the soup's, level by level, as positions.
Model indexedCopy(const Model& soup) {
    const Mesh& from = soup.meshes[0];
    const MeshArrays& a = from.arrays();
    std::map<std::vector<float>, uint32_t> ids;
    std::vector<uint32_t> firstOf, indices;
    for (uint32_t i = 0; i < from.indexCount(); ++i) {
        const uint32_t v = a.index(i);
        std::vector<float> key = {a.positions[v].x, a.positions[v].y, a.positions[v].z, a.normals[v].x,
                                  a.normals[v].y,   a.normals[v].z,   a.uv0[v].x,       a.uv0[v].y,
                                  a.weights[v].x,   a.weights[v].y};
        auto [it, added] = ids.try_emplace(key, uint32_t(firstOf.size()));
        if (added) firstOf.push_back(v);
        indices.push_back(it->second);
    }
    Mesh mesh = soupOf(firstOf.size(), indices.size());
    MeshArrays& b = mesh.arrays();
    for (uint32_t v = 0; v < firstOf.size(); ++v) {
        b.positions[v] = a.positions[firstOf[v]];
        b.normals[v] = a.normals[firstOf[v]];
        b.tangents[v] = a.tangents[firstOf[v]];
        b.uv0[v] = a.uv0[firstOf[v]];
        b.joints[v] = a.joints[firstOf[v]];
        b.weights[v] = a.weights[firstOf[v]];
    }
    for (size_t i = 0; i < indices.size(); ++i)
        b.setIndex(i, indices[i]);
    return modelOf(std::move(mesh));
}

void expectSameChainAsIndexed(const Model& soup, const LodChain& chain) {
    const Model indexed = indexedCopy(soup);
    ASSERT_LT(indexed.meshes[0].vertexCount(), soup.meshes[0].vertexCount());
    const LodChain expected = buildLodChain(indexed.meshes[0], indexed.meshes[0].arrays().positions);
    ASSERT_EQ(chain.levels.size(), expected.levels.size());
    auto asPositions = [](const Mesh& mesh, const std::vector<Triangle>& level) {
        std::vector<std::array<std::array<float, 3>, 3>> out; // corners from the lowest, winding kept
        for (const Triangle& t : level) {
            std::array<std::array<float, 3>, 3> corners;
            for (int c = 0; c < 3; ++c)
                corners[c] = {mesh.arrays().positions[t[c]].x, mesh.arrays().positions[t[c]].y,
                              mesh.arrays().positions[t[c]].z};
            std::rotate(corners.begin(), std::min_element(corners.begin(), corners.end()), corners.end());
            out.push_back(corners);
        }
        std::sort(out.begin(), out.end());
        return out;
    };
    for (size_t k = 0; k < chain.levels.size(); ++k) {
        EXPECT_EQ(chain.levels[k].error, expected.levels[k].error) << "level " << k;
        EXPECT_EQ(asPositions(soup.meshes[0], levelTriangles(chain, k, 0)),
                  asPositions(indexed.meshes[0], levelTriangles(expected, k, 0)))
            << "level " << k;
    }
}

} // namespace

TEST(Weld, JoinsCornersThatADrawnLevelMayInterchange) {
    Mesh mesh = soupOf(10, 0);
    MeshArrays& a = mesh.arrays();
    for (uint32_t v = 0; v < 10; ++v) {
        a.positions[v] = glm::vec3(1, 2, 3);
        a.normals[v] = glm::vec3(0, 0, 1);
        a.tangents[v] = glm::vec4(1, 0, 0, 1);
        a.uv0[v] = glm::vec2(0.25f, 0.5f);
        a.joints[v] = {0, 1, 0, 0};
        a.weights[v] = {1, 0, 0, 0};
    }
    a.tangents[1] = glm::vec4(0, 1, 0, -1);         // tangents never count
    a.uv0[2].x = 0.75f;                             // a UV seam
    a.normals[3] = rotatedAboutX({0, 0, 1}, 5.0f);  // smooth within kWeldNormalDegrees
    a.normals[4] = rotatedAboutX({0, 0, 1}, 30.0f); // a crease
    a.weights[5] = {0.5f, 0.5f, 0, 0};              // another skin
    a.joints[6] = {0, 7, 0, 0};                     // joint 7 without weight drives nothing
    a.normals[9] = rotatedAboutX({0, 0, 1}, 33.0f); // near the crease's other side, vertex 4
    // Vertex 7 repeats vertex 0 exactly; vertex 8 too, but no triangle names it.
    const std::vector<uint32_t> used = {9, 0, 1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(weldVertices(mesh, used, true), (std::vector<uint32_t>{0, 0, 2, 0, 4, 5, 0, 0, 8, 4}));
    EXPECT_EQ(weldVertices(mesh, used, false), (std::vector<uint32_t>{0, 0, 2, 0, 0, 5, 0, 0, 8, 0}));
    a.positions[0].y = -0.0f;
    a.positions[1].y = 0.0f;
    EXPECT_EQ(weldVertices(mesh, std::vector<uint32_t>{0, 1}, true)[1], 0u) << "-0 and +0 are one position";
}

TEST(Weld, KeepsApartCornersThatMorphTargetsMoveApart) {
    // Three corners alike in every attribute (closed lips); a target opens vertex 1 away from the
    // others, and turns vertex 2's normal where vertex 0's stays.
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = 3;
    layout.morphTargets = 1;
    layout.morphNormals = true;
    Mesh mesh;
    mesh.storage = heap.allocate(layout, "lips");
    mesh.morphWeights = {0.0f};
    MeshArrays& a = mesh.arrays();
    for (uint32_t v = 0; v < 3; ++v) {
        a.positions[v] = glm::vec3(1, 2, 3);
        a.normals[v] = glm::vec3(0, 0, 1);
    }
    a.morphPositions[1] = glm::vec3(0, -0.5f, 0);
    a.morphNormals[2] = glm::vec3(0, 0.3f, 0);
    const std::vector<uint32_t> used = {0, 1, 2};
    EXPECT_EQ(weldVertices(mesh, used, true), (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(weldVertices(mesh, used, false), (std::vector<uint32_t>{0, 1, 0})) << "normals aside without creases";
}

TEST(LodSoup, ACubeWrittenAsATriangleSoupReachesItsTwelveTriangles) {
    // Unwelded, every corner is a vertex of its own and the simplifier finds no edge to collapse:
    // the chain stayed at level 0. Welded, each face is a flat grid whose edges are seams (corners
    // at one position differ in normal and texture coordinates, and with a joint per face in
    // skin) and whose corners are where three faces meet. The coarsest level is the cube itself:
    // two triangles a face, where the source is (no error). Every level draws each face with that
    // face's own vertices.
    for (auto [kind, n] :
         {std::pair{Cube::faceted, 2u}, {Cube::jointPerFace, 2u}, {Cube::jointPerFace, 4u}}) {
        SCOPED_TRACE((kind == Cube::faceted ? "faceted, " : "a joint per face, ") + std::to_string(n) +
                     " squares");
        const Model model = cubeSoup(n, kind);
        ASSERT_TRUE(validateModel(model));
        const Mesh& mesh = model.meshes[0];
        ASSERT_EQ(mesh.vertexCount(), 6u * n * n * 2 * 3);
        const LodChain chain = buildLodChain(mesh, mesh.arrays().positions);
        expectWellFormed(mesh, chain);
        EXPECT_EQ(triangles(chain.levels.back()), 12u);
        for (const LodLevel& level : chain.levels)
            EXPECT_LE(level.error, 1e-5f);
        expectMeasuredErrors(mesh, chain);
        expectSameChainAsIndexed(model, chain);
        const std::vector<uint32_t> weld = welded(mesh);
        for (size_t k = 0; k < chain.levels.size(); ++k) {
            SCOPED_TRACE("level " + std::to_string(k));
            const std::vector<Triangle> level = levelTriangles(chain, k, 0);
            // Collapses keep it closed edge to edge; clustering may leave a vertex of one face on
            // an edge that the face beside it spans whole (no gap: the error is 0).
            if (!chain.levels[k].clustered) {
                EXPECT_TRUE(openEdges({level}, weld).empty());
            }
            for (const Triangle& t : level) {
                const uint32_t face = faceOf(mesh, t[0]);
                const glm::vec3 p0 = mesh.arrays().positions[t[0]];
                const glm::vec3 normal =
                    glm::cross(mesh.arrays().positions[t[1]] - p0, mesh.arrays().positions[t[2]] - p0);
                // Collapses may leave three corners in a line, a triangle that draws nothing.
                if (glm::length(normal) > 0.0f) {
                    EXPECT_GT(glm::dot(glm::normalize(normal), kFaces[face].normal), 0.9999f)
                        << "it faces the way its normal says";
                }
                for (uint32_t v : t) {
                    EXPECT_EQ(faceOf(mesh, v), face);
                    EXPECT_EQ(mesh.arrays().normals[v], kFaces[face].normal);
                    if (kind == Cube::jointPerFace) {
                        EXPECT_EQ(mesh.arrays().weights[v].y, face == 4 ? 1.0f : 0.0f);
                    }
                }
            }
        }
        // Each cube corner is drawn by three vertices, one of each face that meets there.
        std::map<uint32_t, std::set<uint32_t>> facesAt; // welded position -> faces drawn there
        std::map<uint32_t, size_t> verticesAt;
        const LodLevel& coarsest = chain.levels.back();
        for (const Triangle& t : levelTriangles(chain, chain.levels.size() - 1, 0))
            for (uint32_t v : t)
                facesAt[weld[v]].insert(faceOf(mesh, v));
        for (uint32_t i = 0; i < coarsest.vertexCount; ++i)
            ++verticesAt[weld[chain.order[i]]];
        size_t corners = 0;
        for (const auto& [position, faces] : facesAt) {
            EXPECT_EQ(verticesAt[position], faces.size()) << "one vertex per face at each position";
            corners += faces.size() == 3;
        }
        EXPECT_EQ(corners, 8u);
    }
}

TEST(Cluster, AGridInCellsTwoWideIsTwoTriangles) {
    // 4 x 4 vertices a unit apart in the z = 0 plane, two triangles a square; cells 2 wide hold
    // 2 x 2 vertices each. Only the middle square's triangles have corners in three cells; every
    // cell moves to its lowest position (all lie on the triangles' plane: no quadric error).
    auto at = [](uint32_t x, uint32_t y) { return y * 4 + x; };
    std::vector<glm::vec3> positions;
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x)
            positions.push_back(glm::vec3(x, y, 0));
    auto square = [&](std::vector<uint32_t>& out, uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
        out.insert(out.end(), {a, b, d, a, d, c}); // a b / c d, counter-clockwise from +z
    };
    std::vector<uint32_t> grid;
    for (uint32_t y = 0; y < 3; ++y)
        for (uint32_t x = 0; x < 3; ++x)
            square(grid, at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1));
    const std::vector<uint64_t> oneRegion(20, 0);
    EXPECT_EQ(clusterTriangles(positions, oneRegion, grid, 2.0f),
              (std::vector<uint32_t>{at(0, 0), at(2, 0), at(2, 2), at(0, 0), at(2, 2), at(0, 2)}));

    // A UV seam down x = 2: the squares left of it use copies 16 + y of that column. The two
    // sides share the column's positions, so both move to the lowest of them in each cell, each
    // to its own vertex there: the surviving (left) triangles keep the left copies.
    for (uint32_t y = 0; y < 4; ++y)
        positions.push_back(glm::vec3(2, y, 0));
    std::vector<uint32_t> seamed;
    for (uint32_t y = 0; y < 3; ++y)
        for (uint32_t x = 0; x < 3; ++x)
            square(seamed, at(x, y), x == 1 ? 16 + y : at(x + 1, y), at(x, y + 1),
                   x == 1 ? 17 + y : at(x + 1, y + 1));
    EXPECT_EQ(clusterTriangles(positions, oneRegion, seamed, 2.0f),
              (std::vector<uint32_t>{at(0, 0), 16, 18, at(0, 0), 18, at(0, 2)}));
}

// 16 cubes of side 1, 10 apart on a 4 x 4 grid, each face split in 2 x 2 squares (48 triangles a
// cube, 768 in all), as a soup whose every triangle has texture coordinates of its own: every
// position is where three or more unrelated corners meet, so no edge collapses.
constexpr uint32_t kSide = 4, kPerCube = 48;
Model scatteredCubes() {
    const Model one = cubeSoup(2, Cube::faceted);
    const Mesh& cube = one.meshes[0];
    const uint32_t corners = cube.vertexCount();
    Mesh mesh = soupOf(size_t(corners) * kSide * kSide, size_t(corners) * kSide * kSide);
    MeshArrays& a = mesh.arrays();
    for (uint32_t c = 0; c < kSide * kSide; ++c)
        for (uint32_t v = 0; v < corners; ++v) {
            const uint32_t at = c * corners + v;
            // Side 1, its corner nearest the origin at (10 x, 10 y, 0).
            a.positions[at] = 0.5f * (cube.arrays().positions[v] - kCubeCentre + glm::vec3(1)) +
                              glm::vec3(10.0f * float(c % kSide), 10.0f * float(c / kSide), 0.0f);
            a.normals[at] = cube.arrays().normals[v];
            a.uv0[at] = glm::vec2(float(at / 3), float(at % 3));
            a.joints[at] = {0, 1, 0, 0};
            a.weights[at] = {1, 0, 0, 0};
            a.setIndex(at, at);
        }
    return modelOf(std::move(mesh));
}

TEST(LodSoup, ManySmallClosedPiecesReachATenthByClustering) {
    // Clustering merges each cube's corners; a cube whose triangles all vanish keeps its largest,
    // both ways round, since vanishing would cost 10. Each cube thus keeps a triangle of its own,
    // and no point of a cube is farther than its diagonal, sqrt(3), from one.
    const Model model = scatteredCubes();
    ASSERT_TRUE(validateModel(model));
    const Mesh& pieces = model.meshes[0];
    const uint32_t corners = pieces.vertexCount() / (kSide * kSide);
    ASSERT_EQ(pieces.indexCount() / 3, kPerCube * kSide * kSide);
    const LodChain chain = buildLodChain(pieces, pieces.arrays().positions);
    expectWellFormed(pieces, chain);
    ASSERT_GE(chain.levels.size(), 2u);
    EXPECT_TRUE(chain.levels[1].clustered) << "collapses move nothing";
    EXPECT_LE(triangles(chain.levels.back()) * 10, triangles(chain.levels[0]));
    expectMeasuredErrors(pieces, chain);
    for (size_t k = 0; k < chain.levels.size(); ++k) {
        SCOPED_TRACE("level " + std::to_string(k));
        EXPECT_LE(chain.levels[k].error, std::sqrt(3.0f) + 1e-5f);
        std::set<uint32_t> cubesDrawn;
        for (const Triangle& t : levelTriangles(chain, k, 0)) {
            const uint32_t c = t[0] / corners;
            EXPECT_EQ(t[1] / corners, c) << "a triangle stays on its cube";
            EXPECT_EQ(t[2] / corners, c);
            cubesDrawn.insert(c);
        }
        EXPECT_EQ(cubesDrawn.size(), size_t(kSide * kSide));
    }
}

// A chain above a tenth of the source's triangles clusters past LodOptions::clusterError (here 0:
// no clustered level would be allowed at all), since a far crowd's instance should not cost more;
// once at a tenth, the limit holds again and the chain ends there.
TEST(LodSoup, ClusteringPastTheErrorLimitStopsAtATenth) {
    const Model model = scatteredCubes();
    const Mesh& pieces = model.meshes[0];
    LodOptions options;
    options.clusterError = 0.0f;
    const LodChain chain = buildLodChain(pieces, pieces.arrays().positions, options);
    expectWellFormed(pieces, chain);
    expectMeasuredErrors(pieces, chain);
    ASSERT_GE(chain.levels.size(), 2u);
    const uint32_t source = triangles(chain.levels[0]);
    EXPECT_LE(triangles(chain.levels.back()) * 10, source) << "down to a tenth";
    EXPECT_GT(triangles(chain.levels[chain.levels.size() - 2]) * 10, source) << "and no further";
    EXPECT_GT(chain.levels.back().error, 0.0f);
    for (size_t k = 1; k < chain.levels.size(); ++k)
        EXPECT_TRUE(chain.levels[k].clustered) << "level " << k << ": collapses move nothing";
}
