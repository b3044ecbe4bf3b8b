// splitMesh: a hand-built mesh with hand-computed parts, and the monster cut into small parts
// whose triangles, looked up through each part, replay the source's exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "model/split.h"
#include "monster.h"

using namespace horde;

namespace {

// Ten vertices whose every stream (and dangly constraint) encodes the vertex number v, so that a
// part's copy names its source vertex; vertex 9 is used by no triangle.
Mesh tinyMesh(MeshAllocator& allocator) {
    MeshLayout layout;
    layout.vertexCount = 10;
    layout.indexCount = 18;
    layout.tangents = true;
    layout.uvSets = 2;
    layout.skinned = true;
    layout.morphTargets = 2;
    layout.morphNormals = true;
    Mesh mesh;
    mesh.name = "tiny";
    mesh.node = 3;
    mesh.skin = 0;
    mesh.storage = allocator.allocate(layout, mesh.name);
    MeshArrays& a = mesh.arrays();
    for (uint32_t v = 0; v < 10; ++v) {
        float f = float(v);
        a.positions[v] = glm::vec3(f, 0, 0);
        a.normals[v] = glm::vec3(0, f, 0);
        a.tangents[v] = glm::vec4(0, 0, f, -1);
        a.uv0[v] = glm::vec2(f, 1);
        a.uv1[v] = glm::vec2(2, f);
        a.joints[v] = glm::u16vec4(uint16_t(v), 0, 0, 0);
        a.weights[v] = glm::vec4(1, 0, 0, 0);
        for (uint32_t t = 0; t < 2; ++t) {
            a.morphPositions[t * 10 + v] = glm::vec3(0, 0, 100.0f * float(t + 1) + f);
            a.morphNormals[t * 10 + v] = glm::vec3(0, -f, float(t));
        }
    }
    mesh.morphWeights = {0.5f, 0.25f};
    mesh.morphNames = {"blink", "smile"};
    const uint32_t indices[18] = {0, 1, 2, 0, 2, 3, 3, 2, 4, // submesh "a"
                                  6, 5, 4, 6, 4, 7, 8, 8, 6}; // submesh "b"
    for (uint32_t i = 0; i < 18; ++i) a.setIndex(i, indices[i]);
    mesh.submeshes = {{"a", 0, 9}, {"b", 9, 9}};
    mesh.dangly = Dangly{{}, 0.25f, 3.0f, 1.5f};
    for (uint32_t v = 0; v < 10; ++v) mesh.dangly->constraints.push_back(10.0f * float(v) + 0.5f);
    return mesh;
}

struct ExpectedPart {
    std::vector<uint32_t> sources; // the source vertex of each part vertex
    std::vector<uint32_t> indices;
    std::vector<Submesh> submeshes;
};

// One triangle corner with every stream the monster has, and the material drawing it.
struct Corner {
    glm::vec3 position, normal;
    glm::vec2 uv;
    glm::u16vec4 joints;
    glm::vec4 weights;
    std::string material;
    bool operator==(const Corner&) const = default;
};

std::vector<Corner> corners(const Mesh& mesh) {
    std::vector<Corner> out;
    const MeshArrays& a = mesh.arrays();
    for (const Submesh& s : mesh.submeshes)
        for (uint32_t i = s.firstIndex; i < s.firstIndex + s.indexCount; ++i) {
            uint32_t v = a.index(i);
            out.push_back({a.positions[v], a.normals[v], a.uv0[v], a.joints[v], a.weights[v], s.material});
        }
    return out;
}

} // namespace

TEST(Split, TinyMeshGivesTheHandComputedParts) {
    HeapMeshAllocator heap;
    Mesh mesh = tinyMesh(heap);
    std::vector<Mesh> parts = splitMesh(mesh, 4, heap);
    // Part 0 takes 0 1 2 and 0 2 3 (four vertices); 3 2 4 would add a fifth. Part 1 takes it;
    // 6 5 4 would add 6 and 5 to its three. Part 2 takes 6 5 4 and 6 4 7 (four); 8 8 6 adds
    // vertex 8 once, a fifth, so part 3 holds 8 and 6 alone. Vertex 9 is in no part.
    const std::vector<ExpectedPart> expected = {
        {{0, 1, 2, 3}, {0, 1, 2, 0, 2, 3}, {{"a", 0, 6}}},
        {{3, 2, 4}, {0, 1, 2}, {{"a", 0, 3}}},
        {{6, 5, 4, 7}, {0, 1, 2, 0, 2, 3}, {{"b", 0, 6}}},
        {{8, 6}, {0, 0, 1}, {{"b", 0, 3}}},
    };
    ASSERT_EQ(parts.size(), expected.size());
    for (size_t k = 0; k < parts.size(); ++k) {
        const Mesh& part = parts[k];
        const ExpectedPart& e = expected[k];
        SCOPED_TRACE(k);
        EXPECT_EQ(part.name, "tiny." + std::to_string(k));
        EXPECT_EQ(part.node, 3u);
        EXPECT_EQ(part.skin, 0);
        EXPECT_TRUE(part.layout().index16);
        EXPECT_TRUE(part.layout().tangents);
        EXPECT_EQ(part.layout().uvSets, 2u);
        ASSERT_EQ(part.vertexCount(), e.sources.size());
        ASSERT_EQ(part.indexCount(), e.indices.size());
        ASSERT_TRUE(part.dangly.has_value());
        const MeshArrays& a = part.arrays();
        for (size_t v = 0; v < e.sources.size(); ++v) {
            float f = float(e.sources[v]);
            EXPECT_EQ(a.positions[v], glm::vec3(f, 0, 0));
            EXPECT_EQ(a.normals[v], glm::vec3(0, f, 0));
            EXPECT_EQ(a.tangents[v], glm::vec4(0, 0, f, -1));
            EXPECT_EQ(a.uv0[v], glm::vec2(f, 1));
            EXPECT_EQ(a.uv1[v], glm::vec2(2, f));
            EXPECT_EQ(a.joints[v], glm::u16vec4(uint16_t(e.sources[v]), 0, 0, 0));
            EXPECT_EQ(a.weights[v], glm::vec4(1, 0, 0, 0));
            EXPECT_EQ(part.dangly->constraints[v], 10.0f * f + 0.5f);
            for (size_t t = 0; t < 2; ++t) {
                EXPECT_EQ(a.morphPositions[t * e.sources.size() + v], glm::vec3(0, 0, 100.0f * float(t + 1) + f));
                EXPECT_EQ(a.morphNormals[t * e.sources.size() + v], glm::vec3(0, -f, float(t)));
            }
        }
        EXPECT_EQ(part.morphWeights, (std::vector<float>{0.5f, 0.25f}));
        EXPECT_EQ(part.morphNames, (std::vector<std::string>{"blink", "smile"}));
        EXPECT_EQ(part.dangly->constraints.size(), e.sources.size());
        EXPECT_EQ(part.dangly->displacement, 0.25f);
        EXPECT_EQ(part.dangly->tightness, 3.0f);
        EXPECT_EQ(part.dangly->period, 1.5f);
        for (size_t i = 0; i < e.indices.size(); ++i) EXPECT_EQ(a.index(i), e.indices[i]) << i;
        ASSERT_EQ(part.submeshes.size(), e.submeshes.size());
        for (size_t s = 0; s < e.submeshes.size(); ++s) {
            EXPECT_EQ(part.submeshes[s].material, e.submeshes[s].material);
            EXPECT_EQ(part.submeshes[s].firstIndex, e.submeshes[s].firstIndex);
            EXPECT_EQ(part.submeshes[s].indexCount, e.submeshes[s].indexCount);
        }
        // Bounds of the part's own positions, which lie on the X axis.
        float lo = float(*std::min_element(e.sources.begin(), e.sources.end()));
        float hi = float(*std::max_element(e.sources.begin(), e.sources.end()));
        EXPECT_EQ(part.bounds.min, glm::vec3(lo, 0, 0));
        EXPECT_EQ(part.bounds.max, glm::vec3(hi, 0, 0));
    }
}

TEST(Split, ASubmeshSpanningPartsIsCutAndStretchesOfTwoSubmeshesShareAPart) {
    HeapMeshAllocator heap;
    Mesh mesh = tinyMesh(heap);
    // Seven vertices: 0 1 2, 0 2 3, 3 2 4 (five), 6 5 4 (seven); 6 4 7 adds an eighth.
    std::vector<Mesh> parts = splitMesh(mesh, 7, heap);
    ASSERT_EQ(parts.size(), 2u);
    ASSERT_EQ(parts[0].vertexCount(), 7u);
    ASSERT_EQ(parts[0].submeshes.size(), 2u);
    EXPECT_EQ(parts[0].submeshes[0].material, "a");
    EXPECT_EQ(parts[0].submeshes[0].firstIndex, 0u);
    EXPECT_EQ(parts[0].submeshes[0].indexCount, 9u);
    EXPECT_EQ(parts[0].submeshes[1].material, "b");
    EXPECT_EQ(parts[0].submeshes[1].firstIndex, 9u);
    EXPECT_EQ(parts[0].submeshes[1].indexCount, 3u);
    // Part 1: 6 4 7 then 8 8 6, vertices 6 4 7 8.
    ASSERT_EQ(parts[1].vertexCount(), 4u);
    ASSERT_EQ(parts[1].submeshes.size(), 1u);
    EXPECT_EQ(parts[1].submeshes[0].indexCount, 6u);
    const std::vector<uint32_t> indices = {0, 1, 2, 3, 3, 0};
    for (size_t i = 0; i < indices.size(); ++i) EXPECT_EQ(parts[1].arrays().index(i), indices[i]) << i;
}

TEST(Split, MonsterPartsReplayTheSourceTriangles) {
    HeapMeshAllocator heap;
    Model monster = buildMonster(heap);
    const Mesh& source = monster.meshes[0];
    std::vector<Mesh> parts = splitMesh(source, 1000, heap);
    // 7908 vertices cannot fit fewer than eight parts of 1000.
    ASSERT_GE(parts.size(), 8u);
    std::vector<Corner> replay;
    for (const Mesh& part : parts) {
        EXPECT_LE(part.vertexCount(), 1000u);
        EXPECT_TRUE(part.layout().index16);
        EXPECT_EQ(part.skin, source.skin);
        EXPECT_EQ(part.node, source.node);
        // Every part vertex is used by one of the part's triangles.
        std::vector<bool> used(part.vertexCount(), false);
        for (uint32_t i = 0; i < part.indexCount(); ++i) used[part.arrays().index(i)] = true;
        EXPECT_EQ(std::count(used.begin(), used.end(), false), 0);
        std::vector<Corner> c = corners(part);
        EXPECT_EQ(c.size(), part.indexCount()); // the submeshes cover the part's indices
        replay.insert(replay.end(), c.begin(), c.end());
    }
    std::vector<Corner> expected = corners(source);
    ASSERT_EQ(replay.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) ASSERT_EQ(replay[i], expected[i]) << "corner " << i;
}
