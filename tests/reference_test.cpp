// The CPU reference against answers worked out by hand.
#include <cmath>

#include <gtest/gtest.h>

#include "anim/reference.h"

using namespace horde;

namespace {
Channel make(ChannelPath path, Interpolation interpolation, std::vector<float> times, std::vector<glm::vec4> values) {
    return Channel{0, path, interpolation, std::move(times), std::move(values)};
}
Clip clipOf(float duration, ClipEnd end = ClipEnd::Hold, RotationBlend blend = RotationBlend::Slerp) {
    Clip c;
    c.duration = duration;
    c.end = end;
    c.rotationBlend = blend;
    return c;
}
void expectNear(glm::dvec4 a, glm::dvec4 b, double eps = 1e-9) {
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(a[i], b[i], eps) << "component " << i;
}
} // namespace

TEST(ClipTime, LoopsAndClamps) {
    Clip c = clipOf(1.0f);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.5, 2.0, true}, 1.0), 0.5);  // 2.5 wraps to 0.5
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, true}, -0.25), 0.75);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.5, 2.0, false}, 1.0), 1.0);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, false}, -3.0), 0.0);
}

// `--time` equal to the duration shows the last key: the end is inclusive and a loop wraps only
// past it; every later exact end shows the last key too, the start stays the start.
TEST(ClipTime, TheEndIsInclusive) {
    Clip c = clipOf(2.0f);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, true}, 2.0), 2.0);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, true}, 4.0), 2.0);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, true}, 2.5), 0.5);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, true}, 0.0), 0.0);
    EXPECT_DOUBLE_EQ(clipTime(c, Playback{0, 0.0, 1.0, true}, -2.0), 0.0);
    Channel ch = make(ChannelPath::Translation, Interpolation::Linear, {0.0f, 2.0f},
                      {glm::vec4(0), glm::vec4(8, 0, 0, 0)});
    expectNear(sampleChannel(c, ch, clipTime(c, Playback{0, 0.0, 1.0, true}, 2.0)), {8, 0, 0, 0});
}

TEST(SampleChannel, LinearBetweenKeysAndHeldOutside) {
    Clip c = clipOf(2.0f);
    Channel ch = make(ChannelPath::Translation, Interpolation::Linear, {0.5f, 1.5f}, {glm::vec4(0), glm::vec4(2, 4, 6, 0)});
    expectNear(sampleChannel(c, ch, 0.75), {0.5, 1.0, 1.5, 0});
    expectNear(sampleChannel(c, ch, 0.0), {0, 0, 0, 0});
    expectNear(sampleChannel(c, ch, 1.9), {2, 4, 6, 0});
}

TEST(SampleChannel, StepHoldsEachKey) {
    Clip c = clipOf(1.0f);
    Channel ch = make(ChannelPath::Scale, Interpolation::Step, {0.0f, 0.5f}, {glm::vec4(1), glm::vec4(3)});
    expectNear(sampleChannel(c, ch, 0.49), glm::dvec4(1));
    expectNear(sampleChannel(c, ch, 0.5), glm::dvec4(3));
}

TEST(SampleChannel, CubicSplineUsesTangentsScaledByKeySpacing) {
    Clip c = clipOf(2.0f);
    // Keys at 0 and 2 (dt = 2): values 0 -> 1, out-tangent of key 0 is 1, in-tangent of key 1 is 0.
    Channel ch = make(ChannelPath::Translation, Interpolation::CubicSpline, {0.0f, 2.0f},
                      {glm::vec4(0), glm::vec4(0), glm::vec4(1, 0, 0, 0), glm::vec4(0), glm::vec4(1, 0, 0, 0), glm::vec4(0)});
    // u = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125 -> 0.125 * (1 * 2) + 0.5 * 1 = 0.75.
    EXPECT_NEAR(sampleChannel(c, ch, 1.0).x, 0.75, 1e-12);
}

TEST(SampleChannel, WrapToFirstBlendsTheLastKeyIntoTheFirst) {
    Clip c = clipOf(1.0f, ClipEnd::WrapToFirst);
    Channel ch = make(ChannelPath::Translation, Interpolation::Linear, {0.0f, 0.5f}, {glm::vec4(0), glm::vec4(4, 0, 0, 0)});
    EXPECT_NEAR(sampleChannel(c, ch, 0.75).x, 2.0, 1e-12);
    Clip hold = clipOf(1.0f);
    EXPECT_NEAR(sampleChannel(hold, ch, 0.75).x, 4.0, 1e-12);
}

TEST(SampleChannel, RotationsTakeTheShortestArcBySlerpOrNlerp) {
    const double s = std::sin(M_PI / 4), co = std::cos(M_PI / 4); // 90 degrees about Z
    glm::vec4 identity(0, 0, 0, 1), quarter(0, 0, float(s), float(co));
    for (glm::vec4 target : {quarter, -quarter}) { // the negated key is the same rotation
        Channel ch = make(ChannelPath::Rotation, Interpolation::Linear, {0.0f, 1.0f}, {identity, target});
        glm::dvec4 slerp = sampleChannel(clipOf(1.0f), ch, 0.25);
        expectNear(slerp, {0, 0, std::sin(M_PI / 16), std::cos(M_PI / 16)}, 1e-7); // 22.5 degrees
        glm::dvec4 nlerp = sampleChannel(clipOf(1.0f, ClipEnd::Hold, RotationBlend::Nlerp), ch, 0.25);
        glm::dvec4 raw(0, 0, 0.25 * s, 0.75 + 0.25 * co);
        expectNear(nlerp, raw / glm::length(raw), 1e-7);
    }
}

TEST(Hierarchy, ModelIsParentTimesLocal) {
    Model m;
    m.nodes = {Node{"parent", -1, glm::vec3(1, 0, 0)},
               Node{"child", 0, glm::vec3(0, 1, 0), glm::angleAxis(float(M_PI / 2), glm::vec3(0, 0, 1))}};
    std::vector<glm::dmat4> locals(2), models(2);
    sampleLocals(m, nullptr, 0.0, locals);
    localToModel(m, locals, models);
    // (1,0,0) in the child: rotated to (0,1,0), +(0,1,0) -> (0,2,0), +(1,0,0) -> (1,2,0).
    glm::dvec4 p = models[1] * glm::dvec4(1, 0, 0, 1);
    EXPECT_NEAR(p.x, 1.0, 1e-7);
    EXPECT_NEAR(p.y, 2.0, 1e-7);
    EXPECT_NEAR(p.z, 0.0, 1e-7);
}

TEST(Skinning, BlendsPositionsAndKeepsNormalsPerpendicular) {
    HeapMeshAllocator heap;
    Mesh mesh;
    mesh.skin = 0;
    mesh.storage = heap.allocate({1, 0, false, 0, true, false}, "v");
    auto& a = mesh.arrays();
    a.positions[0] = {0, 0, 0};
    a.normals[0] = glm::normalize(glm::vec3(1, 1, 0));
    a.joints[0] = {0, 1, 0, 0};
    a.weights[0] = {0.5f, 0.5f, 0, 0};
    std::vector<glm::dmat4> palette = {glm::translate(glm::dmat4(1.0), glm::dvec3(1, 0, 0)) *
                                           glm::scale(glm::dmat4(1.0), glm::dvec3(3, 1, 1)),
                                       glm::translate(glm::dmat4(1.0), glm::dvec3(0, 2, 0)) *
                                           glm::scale(glm::dmat4(1.0), glm::dvec3(3, 1, 1))};
    std::vector<glm::dvec3> p(1), n(1);
    skinMesh(mesh, palette, p, n);
    EXPECT_NEAR(p[0].x, 0.5, 1e-12);
    EXPECT_NEAR(p[0].y, 1.0, 1e-12);
    // Blended linear part diag(3,1,1): the inverse transpose maps (1,1,0) to (1/3,1,0).
    glm::dvec3 expected = glm::normalize(glm::dvec3(1.0 / 3.0, 1.0, 0.0));
    EXPECT_NEAR(n[0].x, expected.x, 1e-7);
    EXPECT_NEAR(n[0].y, expected.y, 1e-7);
}

// A cross-fade on a two-joint model, worked out by hand. Joint A (the root) and B, 1 above it.
// Clip "a" holds the rest; clip "b" turns A a quarter about +z (its quaternion written negated:
// the same rotation on the longer arc), moves B to 2 above A and scales it twice. At weight w
// toward b: A's rotation is the normalised lerp q = (0, 0, w s, 1 - w + w s), s = sqrt(1/2),
// turning theta = 2 atan2(w s, 1 - w + w s); B stands at (0, 1 + w, 0) in A's frame and scales
// 1 + w. So B's origin is at R(theta) (0, 1 + w, 0) and B's point (1, 0, 0) at
// R(theta) (1 + w, 1 + w, 0). The key holds sqrt(1/2) as a float, so the hand's exact root is
// met within 1e-7.
TEST(Blend, TwoJointCrossFadeByHand) {
    Model model;
    model.nodes = {Node{"A"}, Node{"B", 0, glm::vec3(0, 1, 0)}};
    const float s = std::sqrt(0.5f);
    Clip a = clipOf(1.0f), b = clipOf(1.0f);
    a.name = "a";
    b.name = "b";
    a.channels.push_back(Channel{1, ChannelPath::Translation, Interpolation::Linear, {0.0f}, {glm::vec4(0, 1, 0, 0)}});
    b.channels.push_back(Channel{0, ChannelPath::Rotation, Interpolation::Linear, {0.0f}, {glm::vec4(0, 0, -s, -s)}});
    b.channels.push_back(Channel{1, ChannelPath::Translation, Interpolation::Linear, {0.0f}, {glm::vec4(0, 2, 0, 0)}});
    b.channels.push_back(Channel{1, ChannelPath::Scale, Interpolation::Linear, {0.0f}, {glm::vec4(2, 2, 2, 0)}});
    model.clips = {a, b};
    for (double w : {0.0, 0.25, 0.5, 0.75, 1.0}) {
        SCOPED_TRACE(w);
        std::vector<glm::dmat4> locals(2), models(2);
        sampleBlendedLocals(model, &model.clips[0], 0.5, Blend{1, 0.5, w}, locals);
        localToModel(model, locals, models);
        const double ds = std::sqrt(0.5), theta = 2.0 * std::atan2(w * ds, 1.0 - w + w * ds);
        const double c = std::cos(theta), sn = std::sin(theta), grow = 1.0 + w;
        const glm::dvec3 origin(models[1] * glm::dvec4(0, 0, 0, 1)), point(models[1] * glm::dvec4(1, 0, 0, 1));
        EXPECT_NEAR(origin.x, -grow * sn, 1e-7);
        EXPECT_NEAR(origin.y, grow * c, 1e-7);
        EXPECT_NEAR(point.x, grow * c - grow * sn, 1e-7);
        EXPECT_NEAR(point.y, grow * sn + grow * c, 1e-7);
        EXPECT_NEAR(point.z, 0.0, 1e-7);
    }
    // Weight 0 is clip a alone, 1 clip b alone: the blend meets each clip's own sampling.
    for (double w : {0.0, 1.0}) {
        std::vector<glm::dmat4> blended(2), alone(2);
        sampleBlendedLocals(model, &model.clips[0], 0.5, Blend{1, 0.5, w}, blended);
        sampleLocals(model, &model.clips[w == 0.0 ? 0 : 1], 0.5, alone);
        for (int n = 0; n < 2; ++n)
            for (int col = 0; col < 4; ++col)
                for (int row = 0; row < 4; ++row)
                    EXPECT_NEAR(blended[n][col][row], alone[n][col][row], 1e-7);
    }
}
