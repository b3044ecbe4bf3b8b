#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "anim/reference.h"
#include "model/influences.h"
#include "model/normals.h"
#include "model/validate.h"

using namespace horde;

TEST(Influences, KeepsFourStrongestRenormalized) {
    Influence in[] = {{1, 0.05f}, {2, 0.3f}, {3, 0.1f}, {4, 0.25f}, {5, 0.2f}, {6, 0.1f}};
    FourInfluences four = strongestFour(in);
    // Kept 0.3 + 0.25 + 0.2 + 0.1 (joint 3 wins the tie with joint 6: input order) = 0.85.
    EXPECT_EQ(four.joints, glm::u16vec4(2, 4, 5, 3));
    EXPECT_NEAR(four.weights.x, 0.3f / 0.85f, 1e-6f);
    EXPECT_NEAR(four.weights.y, 0.25f / 0.85f, 1e-6f);
    EXPECT_NEAR(four.weights.z, 0.2f / 0.85f, 1e-6f);
    EXPECT_NEAR(four.weights.w, 0.1f / 0.85f, 1e-6f);
    EXPECT_EQ(four.dropped, 2u);
    EXPECT_NEAR(four.droppedMax, 0.1f, 1e-6f); // of the original total 1.0
}

TEST(Influences, IgnoresZeroNegativeAndNaN) {
    Influence in[] = {{7, 0.0f}, {8, -1.0f}, {9, std::nanf("")}, {3, 2.0f}};
    FourInfluences four = strongestFour(in);
    EXPECT_EQ(four.joints.x, 3);
    EXPECT_FLOAT_EQ(four.weights.x, 1.0f);
    EXPECT_FLOAT_EQ(four.weights.y + four.weights.z + four.weights.w, 0.0f);
    FourInfluences none = strongestFour({});
    EXPECT_EQ(none.weights, glm::vec4(0.0f));
}

// The four-slot form takes a shortcut when the slots are already strongest first; it must
// agree with the general selection bit for bit, whatever the slots hold.
TEST(Influences, FourSlotShortcutMatchesTheGeneralSelection) {
    const float values[] = {0.0f, -0.0f, 0.25f, 0.5f, 1.0f, 0.1f, 1e-30f, -1.0f, std::nanf(""), INFINITY, 3e38f, 0.3333333f};
    std::mt19937 random(7);
    std::uniform_int_distribution<size_t> pick(0, std::size(values) - 1);
    int sortedCases = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        uint16_t joints[4] = {uint16_t(trial % 50), 3, 60000, 11};
        float weights[4];
        for (float& w : weights) w = values[pick(random)];
        if (trial % 2 == 0) std::sort(weights, weights + 4, [](float a, float b) { return a > b; });
        sortedCases += weights[0] >= weights[1] && weights[1] >= weights[2] && weights[2] >= weights[3];
        Influence general[4];
        for (int k = 0; k < 4; ++k) general[k] = Influence{joints[k], weights[k]};
        FourInfluences expected = strongestFour(general);
        glm::u16vec4 fastJoints(joints[0], joints[1], joints[2], joints[3]);
        glm::vec4 fastWeights(weights[0], weights[1], weights[2], weights[3]);
        keepStrongestFour(fastJoints, fastWeights);
        ASSERT_EQ(fastJoints, expected.joints) << trial;
        ASSERT_EQ(std::memcmp(&fastWeights, &expected.weights, sizeof(glm::vec4)), 0)
            << trial << ": " << weights[0] << " " << weights[1] << " " << weights[2] << " " << weights[3];
    }
    EXPECT_GT(sortedCases, 5000) << "the shortcut itself was exercised";
}

// Two triangles of a unit square in z = 0 (counter-clockwise seen from +Z), a third standing in
// x = 0 and sharing vertex 0, a vertex no triangle uses, and a triangle naming a vertex past
// the mesh, which is skipped.
TEST(Normals, FaceNormalsAreAreaWeightedWithAFallback) {
    MeshLayout layout;
    layout.vertexCount = 6;
    layout.indexCount = 12;
    layout.index16 = true;
    HeapMeshAllocator heap;
    auto storage = heap.allocate(layout, "quad");
    MeshArrays& a = storage->arrays;
    const glm::vec3 positions[] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 2}, {5, 5, 5}};
    std::copy(std::begin(positions), std::end(positions), a.positions.begin());
    const uint16_t indices[] = {0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 1, 9};
    std::copy(std::begin(indices), std::end(indices), a.indices16.begin());
    faceNormals(a, glm::vec3(0, 1, 0));
    // Vertex 0: the two square halves (cross products (0,0,1) each, twice their area) plus the
    // standing triangle, cross((0,1,0), (0,0,2)) = (2,0,0): normalize((2,0,2)). Vertex 3: one
    // half and the standing triangle: normalize((2,0,1)).
    EXPECT_NEAR(glm::distance(a.normals[0], glm::normalize(glm::vec3(1, 0, 1))), 0.0f, 1e-6f);
    EXPECT_EQ(a.normals[1], glm::vec3(0, 0, 1));
    EXPECT_EQ(a.normals[2], glm::vec3(0, 0, 1));
    EXPECT_NEAR(glm::distance(a.normals[3], glm::normalize(glm::vec3(1, 0, 0.5f))), 0.0f, 1e-6f);
    EXPECT_EQ(a.normals[4], glm::vec3(1, 0, 0));
    EXPECT_EQ(a.normals[5], glm::vec3(0, 1, 0)); // unused: the fallback
}

TEST(MeshStorage, StreamsAreAlignedAndDisjoint) {
    MeshLayout layout{3, 6, true, 2, true, true};
    StreamOffsets o = streamOffsets(layout);
    for (size_t offset :
         {o.positions, o.normals, o.tangents, o.uv0, o.uv1, o.colors, o.joints, o.weights, o.indices})
        EXPECT_EQ(offset % 16, 0u);
    EXPECT_EQ(o.positions, 0u);
    EXPECT_EQ(o.normals, 48u);     // 36 bytes of positions, rounded to 16
    EXPECT_EQ(o.tangents, 96u);    // 36 bytes of normals
    EXPECT_EQ(o.uv0, 144u);        // 48 bytes of tangents
    EXPECT_EQ(o.uv1, 176u);        // 24 bytes of uv0
    EXPECT_EQ(o.joints, 208u);
    EXPECT_EQ(o.weights, 240u);    // 24 bytes of joints
    EXPECT_EQ(o.indices, 288u);    // 48 bytes of weights
    EXPECT_EQ(o.total, 304u);      // 12 bytes of 16-bit indices
    HeapMeshAllocator heap;
    auto storage = heap.allocate(layout, "m");
    EXPECT_EQ(storage->arrays.indices16.size(), 6u);
    EXPECT_TRUE(storage->arrays.indices32.empty());
    EXPECT_EQ(storage->bytes.size(), 304u);
    EXPECT_TRUE(storage->arrays.colors.empty());
    // Colours sit after the UV sets: 48 bytes of RGBA floats move everything behind them.
    layout.colors = true;
    StreamOffsets c = streamOffsets(layout);
    EXPECT_EQ(c.colors, 208u);
    EXPECT_EQ(c.joints, 256u);
    EXPECT_EQ(c.weights, 288u);
    EXPECT_EQ(c.indices, 336u);
    EXPECT_EQ(c.total, 352u);
    EXPECT_EQ(heap.allocate(layout, "c")->arrays.colors.size(), 3u);
}

namespace {
Model triangleModel(HeapMeshAllocator& heap) {
    Model m;
    m.nodes = {Node{"root", -1}, Node{"bone", 0, glm::vec3(1, 2, 3)}};
    Mesh mesh;
    mesh.name = "tri";
    mesh.node = 1;
    mesh.skin = 0;
    mesh.storage = heap.allocate({3, 3, false, 1, true, false}, "tri");
    auto& a = mesh.arrays();
    a.positions[0] = {0, 0, 0};
    a.positions[1] = {1, 0, 0};
    a.positions[2] = {0, 1, 0};
    for (int i = 0; i < 3; ++i) {
        a.normals[i] = {0, 0, 1};
        a.indices32[i] = uint32_t(i);
        a.joints[i] = {0, 0, 0, 0};
        a.weights[i] = {1, 0, 0, 0};
    }
    mesh.submeshes.push_back({"m", 0, 3});
    m.skins.push_back(Skin{{0}, {glm::mat4(1.0f)}});
    m.meshes.push_back(std::move(mesh));
    return m;
}
} // namespace

TEST(Validate, AcceptsAWellFormedModel) {
    HeapMeshAllocator heap;
    Model m = triangleModel(heap);
    EXPECT_TRUE(validateModel(m).ok());
}

TEST(Validate, RejectsEachBrokenInvariant) {
    HeapMeshAllocator heap;
    {
        Model m = triangleModel(heap);
        m.nodes[0].parent = 1;
        EXPECT_FALSE(validateModel(m).ok());
    }
    {
        Model m = triangleModel(heap);
        m.meshes[0].arrays().indices32[2] = 3;
        Status st = validateModel(m);
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.error().message.find("past the vertex count"), std::string::npos);
    }
    {
        Model m = triangleModel(heap);
        m.meshes[0].arrays().weights[1] = {0.5f, 0, 0, 0};
        EXPECT_FALSE(validateModel(m).ok());
    }
    {
        Model m = triangleModel(heap);
        m.meshes[0].submeshes[0].indexCount = 6;
        EXPECT_FALSE(validateModel(m).ok());
    }
    {
        Model m = triangleModel(heap);
        Clip c{"c", 1.0f};
        c.channels.push_back(Channel{1, ChannelPath::Translation, Interpolation::Linear, {0.5f, 0.25f}, {glm::vec4(0), glm::vec4(1)}});
        m.clips.push_back(c);
        EXPECT_FALSE(validateModel(m).ok()); // times go backwards
    }
}

// The checks over whole streams run four vertices at a time before naming a fault one element
// at a time: every kind of fault, at every position (inside a group of four and in the tail),
// must still be found and named exactly as the element-at-a-time walk names it.
TEST(Validate, NamesEachFaultWhereverItSitsInALongMesh) {
    constexpr uint32_t kVertices = 23;
    HeapMeshAllocator heap;
    auto fan = [&](bool index16) {
        Model m;
        m.nodes = {Node{"root", -1}};
        Mesh mesh;
        mesh.name = "fan";
        mesh.skin = 0;
        mesh.storage = heap.allocate({kVertices, 3 * (kVertices - 2), false, 0, true, index16}, "fan");
        MeshArrays& a = mesh.arrays();
        for (uint32_t v = 0; v < kVertices; ++v) {
            a.joints[v] = {1, 0, 2, 0};
            a.weights[v] = {0.5f, 0.25f, 0.25f, 0.0f};
        }
        for (uint32_t t = 0; t + 2 < kVertices; ++t) {
            a.setIndex(3 * t, 0);
            a.setIndex(3 * t + 1, t + 1);
            a.setIndex(3 * t + 2, t + 2);
        }
        m.skins.push_back(Skin{{0, 0, 0}, std::vector<glm::mat4>(3, glm::mat4(1.0f))});
        m.meshes.push_back(std::move(mesh));
        return m;
    };
    struct Fault {
        const char* says;
        void (*apply)(MeshArrays&, uint32_t);
    };
    const Fault faults[] = {
        {"has a negative or NaN weight", [](MeshArrays& a, uint32_t v) { a.weights[v] = {1.25f, -0.25f, 0, 0}; }},
        {"has a negative or NaN weight", [](MeshArrays& a, uint32_t v) { a.weights[v].z = std::nanf(""); }},
        {"names joint 3 of 3", [](MeshArrays& a, uint32_t v) { a.joints[v].y = 3; }},
        {"weights sum to 0.9", [](MeshArrays& a, uint32_t v) { a.weights[v].z = 0.15f; }},
    };
    for (bool index16 : {false, true}) {
        Model good = fan(index16);
        good.meshes[0].arrays().joints[4].w = 9; // a joint past the skin in a slot without weight
        EXPECT_TRUE(validateModel(good).ok()) << validateModel(good).error().message;
        for (uint32_t v = 0; v < kVertices; ++v) {
            for (const Fault& fault : faults) {
                Model m = fan(index16);
                fault.apply(m.meshes[0].arrays(), v);
                Status st = validateModel(m);
                ASSERT_FALSE(st.ok()) << fault.says << " at vertex " << v;
                EXPECT_NE(st.error().message.find("vertex " + std::to_string(v) + " " + fault.says), std::string::npos)
                    << st.error().message;
            }
            Model m = fan(index16);
            const uint32_t at = 3 * (v % (kVertices - 2)) + 2;
            m.meshes[0].arrays().setIndex(at, kVertices + v);
            Status st = validateModel(m);
            ASSERT_FALSE(st.ok());
            EXPECT_NE(st.error().message.find("index " + std::to_string(at) + " = " + std::to_string(kVertices + v) +
                                              " is past the vertex count"),
                      std::string::npos)
                << st.error().message;
        }
    }
}

TEST(Finalize, BindsUnweightedVerticesRigidlyToTheirNode) {
    HeapMeshAllocator heap;
    Model m = triangleModel(heap);
    m.meshes[0].arrays().weights[2] = glm::vec4(0.0f);
    finalizeMeshes(m);
    ASSERT_TRUE(validateModel(m).ok());
    const auto& a = m.meshes[0].arrays();
    EXPECT_EQ(a.weights[2], glm::vec4(1, 0, 0, 0));
    ASSERT_EQ(m.skins[0].joints.size(), 2u);
    EXPECT_EQ(m.skins[0].joints[a.joints[2].x], 1u); // the mesh's node
    // In the bind pose the vertex stays where the file put it.
    std::vector<PosedMesh> posed = poseModel(m, Playback{}, 0.0);
    EXPECT_NEAR(posed[0].positions[2].y, 1.0, 1e-9);
    EXPECT_EQ(m.meshes[0].bounds.max, glm::vec3(1, 1, 0));
}
