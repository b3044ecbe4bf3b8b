// A clip that nlerps (Grimrock's) written to glTF, whose LINEAR rotations slerp: between keys a
// quarter turn apart the written file is sampled against the nlerp worked out in closed form.
#include <gtest/gtest.h>

#include <cmath>

#include "anim/reference.h"
#include "loader.h"
#include "support/temp_dir.h"

using namespace horde;

namespace {

// One node turning a quarter turn about y in one second, nlerped: at fraction u of the way the
// quaternion is (1-u)(0,0,0,1) + u(0,s,0,s) normalized (s = sqrt(1/2)), a turn of
// 2 atan2(u s, 1 - u + u s) radians; a slerp would turn u pi/2.
Model quarterTurn() {
    Model m;
    m.nodes = {Node{.name = "hinge"}};
    Clip clip;
    clip.name = "swing";
    clip.duration = 1.0f;
    clip.rotationBlend = RotationBlend::Nlerp;
    Channel c;
    c.node = 0;
    c.path = ChannelPath::Rotation;
    c.times = {0.0f, 1.0f};
    const float s = std::sqrt(0.5f);
    c.values = {glm::vec4(0, 0, 0, 1), glm::vec4(0, s, 0, s)};
    clip.channels.push_back(c);
    m.clips.push_back(clip);
    return m;
}

double nlerpTurn(double u) {
    const double s = std::sqrt(0.5);
    return 2.0 * std::atan2(u * s, 1.0 - u + u * s);
}

} // namespace

TEST(GltfNlerp, ASlerpedFileFollowsTheNlerpedClip) {
    const test::TempDir dir("horde_gltf_nlerp");
    const std::filesystem::path path = dir.path / "swing.glb";
    ASSERT_TRUE(gltfFormat().write(quarterTurn(), path));
    HeapMeshAllocator allocator;
    Result<Model> back = loadModel(path, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->clips.size(), 1u);
    const Clip& clip = back->clips[0];
    EXPECT_EQ(clip.rotationBlend, RotationBlend::Slerp);
    ASSERT_EQ(clip.channels.size(), 1u);
    EXPECT_GT(clip.channels[0].times.size(), 2u) << "keys were added between the two";
    double worst = 0.0, slerpAlone = 0.0;
    for (int i = 0; i <= 100; ++i) {
        const double u = i / 100.0;
        const glm::dvec4 q = sampleChannel(clip, clip.channels[0], u);
        // A turn about +y: q = (0, sin(a/2), 0, cos(a/2)).
        EXPECT_NEAR(q.x, 0.0, 1e-7);
        EXPECT_NEAR(q.z, 0.0, 1e-7);
        const double turn = 2.0 * std::atan2(q.y, q.w);
        worst = std::max(worst, std::abs(turn - nlerpTurn(u)));
        slerpAlone = std::max(slerpAlone, std::abs(u * M_PI / 2.0 - nlerpTurn(u)));
    }
    EXPECT_LT(worst, 1e-5);
    EXPECT_GT(slerpAlone, 1e-2) << "without the added keys the file would stray this far";
}
