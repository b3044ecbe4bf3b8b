// The skinning references against answers worked out by hand: dual quaternions against the
// linear blend where the linear blend collapses, the stretch taken apart from the rotation, and
// eight influences against four.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/dual_quaternion.h"
#include "anim/reference.h"
#include "model/influences.h"

using namespace horde;

namespace {

void expectNear(glm::dvec3 a, glm::dvec3 b, double eps = 1e-12) {
    for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(a[i], b[i], eps) << "component " << i;
}

// One skinned mesh of the given vertices, each with its influences (at most eight).
Mesh meshOf(HeapMeshAllocator& allocator, const std::vector<glm::vec3>& positions,
            const std::vector<std::vector<Influence>>& influences, bool more) {
    Mesh mesh;
    mesh.skin = 0;
    MeshLayout layout{uint32_t(positions.size()), 0, false, 0, true, false, false, more};
    mesh.storage = allocator.allocate(layout, "hand");
    MeshArrays& a = mesh.arrays();
    for (size_t v = 0; v < positions.size(); ++v) {
        a.positions[v] = positions[v];
        a.normals[v] = glm::normalize(positions[v]);
        const EightInfluences eight = strongestEight(influences[v]);
        a.joints[v] = eight.joints;
        a.weights[v] = eight.weights;
        if (more) a.more[v] = eight.more;
    }
    return mesh;
}

glm::dmat4 halfTurnAboutX() {
    return glm::dmat4(glm::dvec4(1, 0, 0, 0), glm::dvec4(0, -1, 0, 0), glm::dvec4(0, 0, -1, 0),
                      glm::dvec4(0, 0, 0, 1));
}

} // namespace

// Two joints half a turn apart about x (the candy wrapper): the linear blend of a vertex a unit
// from the axis, weighted evenly, averages (0, 1, 0) and (0, -1, 0) to the axis itself; dual
// quaternions blend the rotations to a quarter turn and keep the vertex a unit away, at
// (0, 0, 1). Weighted 1/4 and 3/4, (0, 0, 1) goes to (0, 0, -1/2) linearly, and to a turn of
// 2 atan(3) (sine 3/5, cosine -4/5), (0, -3/5, -4/5), with dual quaternions.
TEST(DualQuaternionSkinning, KeepsTheVolumeTheLinearBlendCollapses) {
    HeapMeshAllocator allocator;
    Mesh mesh =
        meshOf(allocator, {{0, 1, 0}, {0, 0, 1}}, {{{0, 0.5f}, {1, 0.5f}}, {{0, 0.25f}, {1, 0.75f}}}, false);
    const std::vector<glm::dmat4> palette = {glm::dmat4(1.0), halfTurnAboutX()};
    std::vector<glm::dvec3> linear(2), linearNormals(2), dual(2), dualNormals(2);
    skinMesh(mesh, palette, linear, linearNormals);
    std::vector<DualQuaternionJoint> joints;
    dualQuaternionPalette(palette, joints);
    skinMeshDualQuaternion(mesh, joints, dual, dualNormals);
    expectNear(linear[0], {0, 0, 0});
    expectNear(dual[0], {0, 0, 1});
    expectNear(dualNormals[0], {0, 0, 1});
    expectNear(linear[1], {0, 0, -0.5});
    expectNear(dual[1], {0, -0.6, -0.8});
    expectNear(dualNormals[1], {0, -0.6, -0.8});
}

// One joint, rigid: dual quaternions move a vertex exactly as the matrix does.
TEST(DualQuaternionSkinning, ARigidJointMovesAsItsMatrix) {
    const glm::dmat4 m = glm::translate(glm::dmat4(1.0), glm::dvec3(0.3, -2, 5)) *
                         glm::mat4_cast(glm::angleAxis(2.5, glm::normalize(glm::dvec3(1, -2, 0.5))));
    const DualQuaternionJoint j = dualQuaternionJoint(m);
    EXPECT_GE(j.real.w, 0.0);
    const uint32_t joint[] = {0};
    const double whole[] = {1.0};
    const DualQuaternionBlend b = blendDualQuaternions(std::span(&j, 1), joint, whole);
    for (glm::dvec3 p : {glm::dvec3(1, 2, 3), glm::dvec3(-4, 0.5, 0), glm::dvec3(0)}) {
        expectNear(b.position(p), glm::dvec3(m * glm::dvec4(p, 1.0)), 1e-12);
        expectNear(b.normal(glm::normalize(p + glm::dvec3(0.1))),
                   glm::dmat3(m) * glm::normalize(p + glm::dvec3(0.1)), 1e-12);
    }
}

// A = R S: a known rotation times a known symmetric stretch (scale and shear) comes apart into
// exactly those; a mirroring A keeps a proper rotation and gives the stretch the mirror.
TEST(DualQuaternionSkinning, TheStretchComesApartFromTheRotation) {
    const glm::dquat rotation = glm::angleAxis(1.1, glm::normalize(glm::dvec3(0.2, 1, -0.4)));
    const glm::dmat3 stretch(glm::dvec3(2.0, 0.3, 0.0), glm::dvec3(0.3, 0.5, 0.1), glm::dvec3(0.0, 0.1, 1.5));
    glm::dmat4 m(glm::mat3_cast(rotation) * stretch);
    m[3] = glm::dvec4(1, 2, 3, 1);
    const DualQuaternionJoint j = dualQuaternionJoint(m);
    const glm::dquat expected = rotation.w < 0.0 ? -rotation : rotation;
    for (int i = 0; i < 4; ++i)
        EXPECT_NEAR(j.real[i], expected[i], 1e-12);
    for (int c = 0; c < 3; ++c)
        expectNear(j.stretch[c], stretch[c], 1e-12);
    const uint32_t joint[] = {0};
    const double whole[] = {1.0};
    expectNear(blendDualQuaternions(std::span(&j, 1), joint, whole).position({1, 1, 1}),
               glm::dvec3(m * glm::dvec4(1, 1, 1, 1)), 1e-12);

    glm::dmat4 mirror(glm::mat3_cast(rotation) *
                      glm::dmat3(glm::dvec3(-1, 0, 0), glm::dvec3(0, 1, 0), glm::dvec3(0, 0, 1)));
    const DualQuaternionJoint flipped = dualQuaternionJoint(mirror);
    EXPECT_LT(glm::determinant(flipped.stretch), 0.0);
    const glm::dmat3 rebuilt = glm::mat3_cast(flipped.real) * flipped.stretch;
    for (int c = 0; c < 3; ++c)
        expectNear(rebuilt[c], glm::dmat3(mirror)[c], 1e-12);
    // Scaled to nothing: no rotation, and the vertex goes where the matrix sends it.
    glm::dmat4 nothing(0.0);
    nothing[3] = glm::dvec4(4, 5, 6, 1);
    const DualQuaternionJoint gone = dualQuaternionJoint(nothing);
    expectNear(blendDualQuaternions(std::span(&gone, 1), joint, whole).position({1, 2, 3}), {4, 5, 6});
}

// Six influences kept as eight slots: the four strongest renormalized in `weights`, the other two
// as shares of all six; eight-influence skinning blends all six by their share of the total,
// four-influence skinning the four strongest alone.
TEST(EightInfluences, BlendEveryKeptInfluenceByItsShare) {
    const std::vector<Influence> six = {{0, 1.0f}, {1, 4.0f}, {2, 2.0f}, {3, 0.5f}, {4, 3.0f}, {5, 1.5f}};
    const EightInfluences eight = strongestEight(six);
    EXPECT_EQ(eight.joints, glm::u16vec4(1, 4, 2, 5));
    const glm::vec4 strongest(4.0f, 3.0f, 2.0f, 1.5f);
    for (int k = 0; k < 4; ++k)
        EXPECT_FLOAT_EQ(eight.weights[k], strongest[k] / 10.5f);
    EXPECT_EQ(eight.more.joints, glm::u16vec4(0, 3, 0, 0));
    EXPECT_FLOAT_EQ(eight.more.weights[0], 1.0f / 12.0f);
    EXPECT_FLOAT_EQ(eight.more.weights[1], 0.5f / 12.0f);
    const FourInfluences four = strongestFour(six);
    EXPECT_EQ(four.joints, eight.joints);
    for (int k = 0; k < 4; ++k)
        EXPECT_FLOAT_EQ(four.weights[k], eight.weights[k]);

    // Joint j moves the vertex by j along x: the blend moves it by the weighted mean of j.
    HeapMeshAllocator allocator;
    Mesh mesh = meshOf(allocator, {{0, 0, 1}}, {six}, true);
    std::vector<glm::dmat4> palette;
    for (int j = 0; j < 6; ++j)
        palette.push_back(glm::translate(glm::dmat4(1.0), glm::dvec3(j, 0, 0)));
    std::vector<glm::dvec3> p(1), n(1);
    skinMesh(mesh, palette, p, n, 8);
    EXPECT_NEAR(p[0].x, (0 * 1.0 + 1 * 4.0 + 2 * 2.0 + 3 * 0.5 + 4 * 3.0 + 5 * 1.5) / 12.0, 1e-6);
    skinMesh(mesh, palette, p, n, 4);
    EXPECT_NEAR(p[0].x, (1 * 4.0 + 2 * 2.0 + 4 * 3.0 + 5 * 1.5) / 10.5, 1e-6);
    // Translations alone: dual quaternions blend them linearly too.
    std::vector<DualQuaternionJoint> joints;
    dualQuaternionPalette(palette, joints);
    skinMeshDualQuaternion(mesh, joints, p, n, 8);
    EXPECT_NEAR(p[0].x, (0 * 1.0 + 1 * 4.0 + 2 * 2.0 + 3 * 0.5 + 4 * 3.0 + 5 * 1.5) / 12.0, 1e-6);
    EXPECT_NEAR(p[0].z, 1.0, 1e-6) << "the float weights sum to one within their rounding";
}

TEST(EightInfluences, PastEightTheWeakestAreDroppedAndCounted) {
    std::vector<Influence> ten;
    for (uint32_t j = 0; j < 10; ++j)
        ten.push_back({j, float(j + 1)});
    const EightInfluences eight = strongestEight(ten);
    EXPECT_EQ(eight.dropped, 2u);
    EXPECT_FLOAT_EQ(eight.droppedMax, 2.0f / 55.0f);
    EXPECT_EQ(eight.joints, glm::u16vec4(9, 8, 7, 6));
    EXPECT_EQ(eight.more.joints, glm::u16vec4(5, 4, 3, 2));
    EXPECT_FLOAT_EQ(eight.more.weights[3], 3.0f / 52.0f);
}

TEST(DualQuaternionSkinning, OnlyScaledSkeletonsNeedTheStretch) {
    Model model;
    model.nodes = {Node{"root"},
                   Node{"arm", 0, glm::vec3(0, 1, 0), glm::angleAxis(0.5f, glm::vec3(0, 0, 1))}};
    model.skins.push_back(
        Skin{{0, 1}, {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), glm::vec3(0, -1, 0))}});
    EXPECT_FALSE(jointsMayStretch(model));
    Clip clip;
    clip.channels.push_back(
        Channel{1, ChannelPath::Scale, Interpolation::Linear, {0.0f}, {glm::vec4(1, 1, 1, 0)}});
    model.clips.push_back(clip);
    EXPECT_FALSE(jointsMayStretch(model)) << "a scale channel that keeps one";
    model.clips[0].channels[0].values[0] = glm::vec4(1, 2, 1, 0);
    EXPECT_TRUE(jointsMayStretch(model));
    model.clips.clear();
    model.skins[0].inverseBind[1] = glm::scale(glm::mat4(1.0f), glm::vec3(0.5f));
    EXPECT_TRUE(jointsMayStretch(model)) << "an inverse bind with scale";
}
