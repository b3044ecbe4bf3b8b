// The finish step every loader runs (loaders/format.h): rotations normalized once at load, and
// clips without names called after the file they came from.
#include <gtest/gtest.h>

#include "format.h"

namespace horde {
namespace {

Model oneNodeModel() {
    Model m;
    m.nodes.push_back(Node{.name = "root"});
    return m;
}

Clip rotationClip(std::string name, Interpolation interpolation, std::vector<glm::vec4> values) {
    Clip clip;
    clip.name = std::move(name);
    clip.duration = 1.0f;
    Channel c;
    c.path = ChannelPath::Rotation;
    c.interpolation = interpolation;
    c.times = interpolation == Interpolation::CubicSpline ? std::vector<float>{0.0f}
                                                          : std::vector<float>{0.0f, 1.0f};
    c.values = std::move(values);
    clip.channels.push_back(std::move(c));
    return clip;
}

// Khronos' BrainStem stores rotations of length 1.0000044: taken as they are before the first
// key, after the last or stepped, a pose would jump by the error.
TEST(Finish, RotationsOffUnitLengthAreNormalizedOnce) {
    Model m = oneNodeModel();
    const float s = 1.0000044f;
    m.nodes[0].rotation = glm::quat(0.6f * s, 0.8f * s, 0.0f, 0.0f);
    m.clips.push_back(rotationClip("step", Interpolation::Step,
                                   {glm::vec4(0, 0, 0, 2), glm::vec4(0, 0.6f * s, 0, 0.8f * s)}));
    // Cubic: the value is normalized, its tangents are rates and stay as stored.
    m.clips.push_back(
        rotationClip("cubic", Interpolation::CubicSpline,
                     {glm::vec4(0.5f, 0, 0, 0), glm::vec4(0, 0, 0, 3), glm::vec4(0, 0.25f, 0, 0)}));
    // Unit within float rounding already: left bit for bit.
    glm::vec4 unit = glm::normalize(glm::vec4(0.1f, 0.2f, 0.3f, 0.9f));
    m.clips.push_back(rotationClip("unit", Interpolation::Linear, {unit, unit}));
    ASSERT_TRUE(finishModel("m.glb", m));
    EXPECT_NEAR(m.nodes[0].rotation.w, 0.6f, 1e-7f);
    EXPECT_NEAR(m.nodes[0].rotation.x, 0.8f, 1e-7f);
    EXPECT_EQ(m.clips[0].channels[0].values[0], glm::vec4(0, 0, 0, 1));
    EXPECT_NEAR(glm::length(m.clips[0].channels[0].values[1]), 1.0f, 1e-7f);
    EXPECT_EQ(m.clips[1].channels[0].values[0], glm::vec4(0.5f, 0, 0, 0));
    EXPECT_EQ(m.clips[1].channels[0].values[1], glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(m.clips[1].channels[0].values[2], glm::vec4(0, 0.25f, 0, 0));
    EXPECT_EQ(m.clips[2].channels[0].values[0], unit);
}

TEST(Finish, UnnamedClipsAreCalledAfterTheirFile) {
    Model m = oneNodeModel();
    glm::vec4 id(0, 0, 0, 1);
    m.clips.push_back(rotationClip("", Interpolation::Linear, {id, id}));
    m.clips.push_back(rotationClip("", Interpolation::Linear, {id, id}));
    m.clips.push_back(rotationClip("", Interpolation::Linear, {id, id}));
    m.clips.back().source = "skeleton_warrior_axe_walk.animation"; // bound from an animation file
    m.clips.push_back(rotationClip("monster", Interpolation::Linear, {id, id})); // a name is kept
    ASSERT_TRUE(finishModel("/some/folder/monster.glb", m));
    EXPECT_EQ(m.clips[0].name, "monster_0"); // the stem is taken by a named clip
    EXPECT_EQ(m.clips[1].name, "monster_1");
    EXPECT_EQ(m.clips[2].name, "skeleton_warrior_axe_walk");
    EXPECT_EQ(m.clips[3].name, "monster");
}

} // namespace
} // namespace horde
