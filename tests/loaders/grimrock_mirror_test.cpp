// A Grimrock node whose matrix mirrors (negative determinant, as snake_statue_3.model's does) is
// converted to glTF with its reflection: the node's scale keeps its sign, and the world positions
// and normals of the converted file are the ones worked out by hand from the source's bytes.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "anim/reference.h"
#include "anim/winding.h"
#include "grimrock_bytes.h"
#include "loader.h"
#include "model/axes.h"
#include "support/bytes.h"
#include "support/temp_dir.h"

using namespace horde;
using horde::test::Bytes;
using horde::test::str;
using horde::test::vec3;

namespace {


// "root", then "statue": basis columns (-0.01, 0, 0), (0, 0.01, 0), (0, 0, 0.01), translation
// (1, 2, 3), a mirror in x scaled to centimetres, holding one static triangle (100, 0, 0),
// (0, 100, 0), (0, 0, 100) with the normal of its face, (1, 1, 1) / sqrt(3).
Bytes statue() {
    Bytes b;
    b.text("MDL1").i32(2).i32(2);
    str(b, "root");
    for (glm::vec3 v : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(0)})
        vec3(b, v);
    b.i32(-1).i32(-1);
    str(b, "statue");
    for (glm::vec3 v :
         {glm::vec3(-0.01f, 0, 0), glm::vec3(0, 0.01f, 0), glm::vec3(0, 0, 0.01f), glm::vec3(1, 2, 3)})
        vec3(b, v);
    b.i32(0).i32(0);
    b.text("MESH").i32(2).i32(3);
    b.i32(3).i32(3).i32(12); // position: float32 x3
    for (glm::vec3 p : {glm::vec3(100, 0, 0), glm::vec3(0, 100, 0), glm::vec3(0, 0, 100)})
        vec3(b, p);
    b.i32(3).i32(3).i32(12); // normal
    for (int v = 0; v < 3; ++v)
        vec3(b, glm::vec3(1.0f / std::sqrt(3.0f)));
    for (int slot = 2; slot < 15; ++slot)
        b.i32(0).i32(0).i32(0);
    b.i32(3).i32(0).i32(1).i32(2);
    b.i32(1);
    str(b, "statue_stone");
    b.i32(2).i32(0).i32(1);
    b.zeros(40);                 // bounds
    b.i32(0);                    // no bones
    vec3(b, glm::vec3(0)).u8(0); // emissive colour, shadow
    return b;
}

nlohmann::json glbJson(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    uint32_t length = 0;
    std::memcpy(&length, bytes.data() + 12, 4);
    return nlohmann::json::parse(bytes.begin() + 20, bytes.begin() + 20 + length);
}

void expectNear(glm::dvec3 a, glm::dvec3 b, const std::string& what) {
    EXPECT_LT(glm::length(a - b), 1e-6) << what << ": (" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                        << b.x << ", " << b.y << ", " << b.z << ")";
}

} // namespace

TEST(GrimrockMirror, AMirroredNodeConvertsToGltfWithItsReflection) {
    const test::TempDir dir("horde_grimrock_mirror");
    HeapMeshAllocator allocator;
    Result<Model> source = loadModel(dir.put("statue.model", statue()), {}, allocator);
    ASSERT_TRUE(source) << source.error().message;
    // p' = x baseX + y baseY + z baseZ + t, in Grimrock's axes; horde's world mirrors z.
    const glm::dvec3 file[3] = {{0, 2, 3}, {1, 3, 3}, {1, 2, 4}};
    const glm::dvec3 world[3] = {{0, 2, -3}, {1, 3, -3}, {1, 2, -4}};
    // The normal goes by the inverse transpose, diag(-100, 100, 100): (-1, 1, 1) / sqrt(3) in the
    // file, (-1, 1, -1) / sqrt(3) in the world.
    const glm::dvec3 normal = glm::dvec3(-1, 1, -1) / std::sqrt(3.0);
    const std::vector<PosedMesh> a = poseModel(*source, Playback{}, 0.0);
    const glm::dmat4 toWorld(axesToWorld(source->axes));
    for (size_t v = 0; v < 3; ++v) {
        expectNear(a[0].positions[v], file[v], "source corner " + std::to_string(v));
        expectNear(glm::dvec3(toWorld * glm::dvec4(a[0].normals[v], 0.0)), normal, "source normal");
    }
    EXPECT_EQ(mirroredMeshes(*source), std::vector<bool>{true});

    const std::filesystem::path glb = dir.path / "statue.glb";
    ASSERT_TRUE(gltfFormat().write(*source, glb));
    // The node as written: Grimrock's z mirrored into glTF's frame moves the translation to
    // (1, 2, -3) and leaves the per-axis scale where it was, its sign kept.
    const nlohmann::json doc = glbJson(glb);
    const nlohmann::json* node = nullptr;
    for (const nlohmann::json& n : doc["nodes"])
        if (n.value("name", "") == "statue") node = &n;
    ASSERT_NE(node, nullptr);
    ASSERT_TRUE(node->contains("scale"));
    const std::vector<double> scale = (*node)["scale"].get<std::vector<double>>();
    const std::vector<double> translation = (*node)["translation"].get<std::vector<double>>();
    ASSERT_EQ(scale.size(), 3u);
    EXPECT_NEAR(scale[0], -0.01, 1e-7);
    EXPECT_NEAR(scale[1], 0.01, 1e-7);
    EXPECT_NEAR(scale[2], 0.01, 1e-7);
    EXPECT_EQ(translation, (std::vector<double>{1, 2, -3}));
    EXPECT_FALSE(node->contains("rotation"));

    Result<Model> back = loadModel(glb, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const std::vector<PosedMesh> b = poseModel(*back, Playback{}, 0.0);
    const glm::dmat4 backToWorld(axesToWorld(back->axes));
    ASSERT_EQ(b.size(), 1u);
    for (size_t v = 0; v < 3; ++v) {
        expectNear(glm::dvec3(backToWorld * glm::dvec4(b[0].positions[v], 1.0)), world[v],
                   "converted corner " + std::to_string(v));
        expectNear(glm::dvec3(backToWorld * glm::dvec4(b[0].normals[v], 0.0)), normal, "converted normal");
    }
    EXPECT_EQ(mirroredMeshes(*back), std::vector<bool>{true});
}
