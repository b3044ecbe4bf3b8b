// Legend of Grimrock 2's ANIM files (version 2, docs/formats/grimrock.md "Animation file"):
// byte-built files from the documented layout, their values worked out by hand; every cut and
// forged count failing cleanly; another version refused by name; and a model whose animation
// cannot be read loading without it, with a warning naming the file.
#include <gtest/gtest.h>

#include <cmath>

#include "anim/reference.h"
#include "grimrock_bytes.h"
#include "loader.h"
#include "support/bytes.h"
#include "support/temp_dir.h"
#include "survey.h"

using namespace horde;
using horde::test::Bytes;
using horde::test::quat;
using horde::test::str;
using horde::test::vec3;

namespace {

// Where the fields the tests patch lie.
struct Offsets {
    size_t numPositions = 0, numRotations = 0, numScales = 0;
};

// Version 2: header as version 1 (name, fps, numFrames, numItems), then per item its node name
// and three arrays, each with its own count: positions (Vec3), rotations (x, y, z, w), scales.
// "lever", 24 fps, 3 frames: "b_lever" moves along x (3 keys), turns once (1 key, (0,0,0,2):
// identity once normalized) and grows (3 keys); "ghost" names a node the model lacks.
Bytes leverV2(Offsets* at = nullptr, int32_t version = 2) {
    Bytes b;
    b.text("ANIM").i32(version);
    str(b, "");
    b.f32(24.0f).i32(3).i32(2);
    str(b, "b_lever");
    if (at) at->numPositions = b.size();
    b.i32(3);
    for (float x : {0.0f, 1.0f, 2.0f})
        vec3(b, {x, 0.5f, 0.0f});
    if (at) at->numRotations = b.size();
    b.i32(1);
    quat(b, {0, 0, 0, 2});
    if (at) at->numScales = b.size();
    b.i32(3);
    for (float s : {1.0f, 2.0f, 3.0f})
        vec3(b, glm::vec3(s));
    str(b, "ghost");
    b.i32(1);
    vec3(b, {0, 0, 0});
    b.i32(1);
    quat(b, {0, 0, 0, 1});
    b.i32(1);
    vec3(b, {1, 1, 1});
    return b;
}

// The lever's nodes, in Grimrock's own axes (so keys bind as they are stored).
Model lever() {
    Model m;
    m.format = "grimrock";
    m.axes = Axes{.up = Axes::Up::Y, .leftHanded = true, .clockwiseFrontFaces = true};
    m.nodes = {Node{.name = "root"}, Node{.name = "b_lever", .parent = 0}};
    return m;
}

const Format& grimrock() {
    return grimrockFormat();
}

const Channel* channelOf(const Clip& clip, ChannelPath path) {
    for (const Channel& c : clip.channels)
        if (c.path == path) return &c;
    return nullptr;
}

bool mentions(const std::vector<std::string>& warnings, const std::string& text) {
    for (const std::string& w : warnings)
        if (w.find(text) != std::string::npos) return true;
    return false;
}

} // namespace

TEST(Grimrock2Animation, EachPathIsATrackOfItsOwnKeysAtOneAFrame) {
    Model target = lever();
    Bytes bytes = leverV2();
    Result<std::vector<Clip>> clips = grimrock().readClips("rc_lever_down.animation", bytes.span(), target);
    ASSERT_TRUE(clips) << clips.error().message;
    ASSERT_EQ(clips->size(), 1u);
    const Clip& clip = (*clips)[0];
    EXPECT_FLOAT_EQ(clip.duration, 3.0f / 24.0f);
    EXPECT_EQ(clip.end, ClipEnd::WrapToFirst);
    ASSERT_EQ(clip.channels.size(), 3u); // "ghost" skipped
    const Channel* t = channelOf(clip, ChannelPath::Translation);
    const Channel* r = channelOf(clip, ChannelPath::Rotation);
    const Channel* s = channelOf(clip, ChannelPath::Scale);
    ASSERT_TRUE(t && r && s);
    for (const Channel* c : {t, r, s})
        EXPECT_EQ(c->node, 1u);
    EXPECT_EQ(t->times, (std::vector<float>{0.0f, float(1.0 / 24.0), float(2.0 / 24.0)}));
    EXPECT_EQ(t->values[2], glm::vec4(2.0f, 0.5f, 0.0f, 0.0f));
    ASSERT_EQ(r->times, std::vector<float>{0.0f}); // one key: held for the whole clip
    EXPECT_EQ(r->values[0], glm::vec4(0, 0, 0, 1));
    EXPECT_EQ(s->values[1], glm::vec4(2.0f, 2.0f, 2.0f, 0.0f));
    // Halfway between keys 1 and 2: x 1.5, scale 2.5; the rotation stays identity.
    const double mid = 1.5 / 24.0;
    EXPECT_NEAR(sampleChannel(clip, *t, mid).x, 1.5, 1e-6);
    EXPECT_NEAR(sampleChannel(clip, *s, mid).y, 2.5, 1e-6);
    EXPECT_NEAR(sampleChannel(clip, *r, mid).w, 1.0, 1e-6);
    // Past the last key the clip blends back into frame 0 over the last frame's span.
    EXPECT_NEAR(sampleChannel(clip, *t, 2.5 / 24.0).x, 1.0, 1e-6);
    EXPECT_TRUE(mentions(target.warnings, "'ghost' names a node the model lacks"));
    EXPECT_FALSE(mentions(target.warnings, "bytes after the last item"));
    // Four bytes more than the layout reads: said (the file may hold something horde does not read).
    Bytes longer = leverV2();
    longer.i32(0);
    Model other = lever();
    ASSERT_TRUE(grimrock().readClips("longer.animation", longer.span(), other));
    EXPECT_TRUE(mentions(other.warnings, "4 bytes after the last item were ignored"));
}

TEST(Grimrock2Animation, CountsThatAreNeitherTheFramesNorOneAndEmptyTracksAreSaid) {
    // Two positions for three frames: kept, said. The same file with no rotation at all: the
    // channel is left out (the node keeps its rest rotation), said.
    Bytes two;
    two.text("ANIM").i32(2);
    str(two, "");
    two.f32(24.0f).i32(3).i32(1);
    str(two, "b_lever");
    two.i32(2);
    vec3(two, {0, 0, 0});
    vec3(two, {1, 0, 0});
    two.i32(0);
    two.i32(1);
    vec3(two, {1, 1, 1});
    Model target = lever();
    Result<std::vector<Clip>> clips = grimrock().readClips("two.animation", two.span(), target);
    ASSERT_TRUE(clips) << clips.error().message;
    EXPECT_EQ((*clips)[0].channels.size(), 2u);
    EXPECT_EQ(channelOf((*clips)[0], ChannelPath::Rotation), nullptr);
    EXPECT_TRUE(mentions(target.warnings, "has 2 positions for 3 frames"));
    EXPECT_TRUE(mentions(target.warnings, "has no rotations"));
}

TEST(Grimrock2Animation, AnotherVersionIsRefusedByName) {
    Model target = lever();
    Bytes bytes = leverV2(nullptr, 3);
    Result<std::vector<Clip>> clips = grimrock().readClips("v3.animation", bytes.span(), target);
    ASSERT_FALSE(clips);
    EXPECT_EQ(clips.error().message,
              "v3.animation: offset 4 (0x4): version: version 3 is neither 1 (Legend of Grimrock) nor 2 "
              "(Legend of Grimrock 2)");
    Result<FileSurvey> survey = surveyFile("v3.animation", bytes.span());
    ASSERT_FALSE(survey);
    EXPECT_NE(survey.error().message.find("version 3 is neither"), std::string::npos);
}

TEST(Grimrock2Animation, EveryCutAndForgedCountFailsCleanly) {
    Bytes bytes = leverV2();
    for (const auto& cut : test::truncations(bytes.span())) {
        Model target = lever();
        Result<std::vector<Clip>> clips = grimrock().readClips("cut.animation", cut, target);
        ASSERT_FALSE(clips) << "prefix of " << cut.size() << " bytes loaded";
        EXPECT_EQ(clips.error().message.rfind("cut.animation: offset ", 0), 0u) << clips.error().message;
    }
    Offsets at;
    (void)leverV2(&at);
    struct Forged {
        size_t offset;
        const char *values, *count;
    };
    for (Forged f : {Forged{at.numPositions, "items[0].positions", "items[0].numPositions"},
                     Forged{at.numRotations, "items[0].rotations", "items[0].numRotations"},
                     Forged{at.numScales, "items[0].scales", "items[0].numScales"}}) {
        // Too many to fit what is left, then negative: each names its field, before any allocation.
        for (uint32_t forged : {0x7fffffffu, 0x80000000u}) {
            Bytes b = leverV2();
            b.patch32(f.offset, forged);
            Model target = lever();
            Result<std::vector<Clip>> clips = grimrock().readClips("a.animation", b.span(), target);
            ASSERT_FALSE(clips);
            const std::string expected = forged == 0x80000000u
                                             ? std::string(f.count) + ": count -2147483648 is negative"
                                             : std::string(f.values) + ": ";
            EXPECT_NE(clips.error().message.find(expected), std::string::npos) << clips.error().message;
            if (forged == 0x7fffffffu) {
                EXPECT_NE(clips.error().message.find("does not fit"), std::string::npos)
                    << clips.error().message;
            }
        }
    }
}

TEST(Grimrock2Animation, TheSurveyNamesTheKeyedItems) {
    Bytes bytes = leverV2();
    Result<FileSurvey> survey = surveyFile("rc_lever_down.animation", bytes.span());
    ASSERT_TRUE(survey) << survey.error().message;
    EXPECT_EQ(survey->kind, FileKind::Animation);
    EXPECT_EQ(survey->names, (std::vector<std::string>{"b_lever", "ghost"}));
}

// A minimal MDL1 model: "root" and "b_lever", no mesh.
Bytes leverModel() {
    Bytes b;
    b.text("MDL1").i32(2).i32(2);
    for (const char* name : {"root", "b_lever"}) {
        str(b, name);
        for (glm::vec3 v : {glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(0)})
            vec3(b, v);
        b.i32(std::string(name) == "root" ? -1 : 0).i32(-1);
    }
    return b;
}

TEST(Grimrock2Animation, AModelWhoseAnimationCannotBeReadLoadsWithoutIt) {
    const test::TempDir dir("horde_grimrock2_anim");
    LoadOptions options;
    options.anims = {dir.put("broken.animation", leverV2(nullptr, 3)), dir.put("lever.animation", leverV2())};
    HeapMeshAllocator allocator;
    Result<Model> m = loadModel(dir.put("lever.model", leverModel()), options, allocator);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->clips.size(), 1u);
    EXPECT_EQ(m->clips[0].source, "lever.animation");
    EXPECT_TRUE(mentions(m->warnings, "animation not read, the model is loaded without it: " +
                                          (dir.path / "broken.animation").string() + ": offset 4"));
}
