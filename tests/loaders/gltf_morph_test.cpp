// glTF morph targets: a triangle with two targets built byte by byte, its resting weights and
// names, a LINEAR and a CUBICSPLINE `weights` curve, and the CPU reference's pose worked out by
// hand from glTF's definition (the base plus each target's displacement times its weight, then
// the node's transform); files whose weights do not fit their targets fail naming the field.
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "anim/reference.h"
#include "loader.h"
#include "model/validate.h"
#include "support/morph_triangle.h"

using nlohmann::json;

namespace horde {
namespace {

json document() { return test::morphTriangle().doc; }

Result<Model> decode(const json& doc, HeapMeshAllocator& allocator) {
    test::Glb g = test::morphTriangle();
    g.doc = doc;
    const std::vector<std::byte> bytes = g.bytes();
    Result<Model> model = gltfFormat().readModel("morph.glb", bytes, LoadOptions{}, allocator);
    if (!model) return model;
    finalizeMeshes(*model);
    if (Status st = validateModel(*model); !st) return st.error();
    return model;
}

void expectNear(glm::dvec3 a, glm::dvec3 b, const char* what) {
    EXPECT_NEAR(glm::length(a - b), 0.0, 1e-9) << what << ": (" << a.x << ", " << a.y << ", " << a.z << ")";
}

TEST(GltfMorph, TargetsWeightsAndNamesAreRead) {
    HeapMeshAllocator allocator;
    Result<Model> model = decode(document(), allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_TRUE(model->warnings.empty());
    ASSERT_EQ(model->meshes.size(), 1u);
    const Mesh& mesh = model->meshes[0];
    ASSERT_EQ(mesh.morphTargets(), 2u);
    EXPECT_TRUE(mesh.layout().morphNormals);
    EXPECT_EQ(mesh.morphWeights, (std::vector<float>{0.25f, 0.0f}));
    EXPECT_EQ(mesh.morphNames, (std::vector<std::string>{"open", "wide"}));
    const MeshArrays& a = mesh.arrays();
    EXPECT_EQ(a.morphPositions[1], glm::vec3(0, 0, 2));     // target 0, vertex 1
    EXPECT_EQ(a.morphPositions[3 + 2], glm::vec3(0, -1, 0)); // target 1, vertex 2
    EXPECT_EQ(a.morphNormals[0], glm::vec3(0, 1, 0));
    EXPECT_EQ(a.morphNormals[3], glm::vec3(0, 0, 0)); // target 1 has no NORMAL: no displacement

    ASSERT_EQ(model->clips.size(), 2u);
    const Clip& talk = model->clips[0];
    EXPECT_FLOAT_EQ(talk.duration, 2.0f);
    EXPECT_TRUE(talk.channels.empty());
    ASSERT_EQ(talk.morphs.size(), 1u);
    EXPECT_EQ(talk.morphs[0].node, mesh.node);
    EXPECT_EQ(talk.morphs[0].targets, 2u);
    EXPECT_EQ(talk.morphs[0].values, (std::vector<float>{0, 0, 1, 0.5f, 0, 1}));
    EXPECT_EQ(model->clips[1].morphs[0].interpolation, Interpolation::CubicSpline);
}

TEST(GltfMorph, TheReferencePosesTheWeightedTargetsByHand) {
    HeapMeshAllocator allocator;
    Result<Model> model = decode(document(), allocator);
    ASSERT_TRUE(model) << model.error().message;
    const Mesh& mesh = model->meshes[0];
    // Resting weights (0.25, 0): vertex 1 is (1, 0, 0) + 0.25 (0, 0, 2), then up by the node's 1.
    const std::vector<PosedMesh> rest = poseModel(*model, Playback{}, 0.0);
    expectNear(rest[0].positions[1], {1, 1, 0.5}, "rest vertex 1");
    // LINEAR at t = 0.5: weights (0.5, 0.25), halfway from (0, 0) to (1, 0.5).
    EXPECT_EQ(sampleMorphWeights(*model, mesh, &model->clips[0], 0.5), (std::vector<double>{0.5, 0.25}));
    const std::vector<PosedMesh> half = poseModel(*model, Playback{0, 0.5, 1.0, false}, 0.0);
    expectNear(half[0].positions[0], {0.25, 1, 0.5}, "vertex 0"); // 0.5 (0,0,1) + 0.25 (1,0,0)
    expectNear(half[0].positions[1], {1, 1, 1}, "vertex 1");      // (1,0,0) + 0.5 (0,0,2)
    expectNear(half[0].positions[2], {0, 1.75, 0}, "vertex 2");   // (0,1,0) + 0.25 (0,-1,0)
    // Normal (0, 0, 1) + 0.5 (0, 1, 0), normalized.
    expectNear(half[0].normals[0], glm::dvec3(0, 0.5, 1) / std::sqrt(1.25), "normal 0");
    // Between the second and third keys, and held after the last.
    EXPECT_EQ(sampleMorphWeights(*model, mesh, &model->clips[0], 1.5), (std::vector<double>{0.5, 0.75}));
    EXPECT_EQ(sampleMorphWeights(*model, mesh, &model->clips[0], 3.0), (std::vector<double>{0.0, 1.0}));
    // CUBICSPLINE at u = 0.5, dt = 1: target 0 from 0 (out-tangent 2) to 1, h01 + h10 x 2 =
    // 0.5 + 0.125 x 2 = 0.75; target 1 from 0 to 1 with flat tangents, 0.5.
    const std::vector<double> eased = sampleMorphWeights(*model, mesh, &model->clips[1], 0.5);
    EXPECT_NEAR(eased[0], 0.75, 1e-12);
    EXPECT_NEAR(eased[1], 0.5, 1e-12);
    // Dual-quaternion skinning morphs the same vertices first.
    const std::vector<PosedMesh> dqs = poseModel(*model, Playback{0, 0.5, 1.0, false}, 0.0, {.skinning = Skinning::Dqs});
    for (size_t v = 0; v < 3; ++v) expectNear(dqs[0].positions[v], half[0].positions[v], "dual quaternions");
    // A cross-fade lerps the weights: 0.25 of the way from talk's (0.5, 0.25) to ease's.
    const Blend blend{1, 0.5, 0.25};
    const std::vector<double> blended = sampleMorphWeights(*model, mesh, &model->clips[0], 0.5, &blend);
    EXPECT_NEAR(blended[0], 0.5 + 0.25 * (0.75 - 0.5), 1e-12);
    EXPECT_NEAR(blended[1], 0.25 + 0.25 * (0.5 - 0.25), 1e-12);
}

TEST(GltfMorph, WeightsThatDoNotFitTheTargetsFailNamingTheField) {
    HeapMeshAllocator allocator;
    json wrongRest = document();
    wrongRest["meshes"][0]["weights"] = {1.0};
    Result<Model> model = decode(wrongRest, allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("mesh 'triangle' primitive 0: 1 weights for 2 morph targets"),
              std::string::npos)
        << model.error().message;

    json wrongKeys = document();
    wrongKeys["accessors"][7]["count"] = 5; // five weights for three keys of two targets
    model = decode(wrongKeys, allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("animation 0 'talk' channel 0: output has 5 weights for 3 keys of 2 "
                                         "morph targets"),
              std::string::npos)
        << model.error().message;

    json noTargets = document();
    noTargets["meshes"][0]["primitives"][0].erase("targets");
    noTargets["meshes"][0].erase("weights");
    model = decode(noTargets, allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_TRUE(model->clips[0].morphs.empty());
    ASSERT_EQ(model->warnings.size(), 2u);
    EXPECT_EQ(model->warnings[0], "animation 0 'talk' channel 0: keys morph weights of node 'face', whose meshes "
                                  "have no morph targets; skipped");
}

} // namespace
} // namespace horde
