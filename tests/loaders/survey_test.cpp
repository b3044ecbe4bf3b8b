// surveyFile on bytes built by hand from the format pages: the kind of each file, the nodes an
// animation keys (items without keys drive nothing), an NWN model's supermodel, and an error
// naming the byte offset and field of a truncated or forged file.
#include <gtest/gtest.h>

#include "support/bytes.h"
#include "survey.h"

using horde::FileKind;
using horde::test::Bytes;

namespace {
Bytes& str(Bytes& b, const std::string& s) {
    return b.i32(int32_t(s.size())).text(s);
}

// Grimrock ANIM (docs/formats/grimrock.md): magic, version, name, fps, frames, items; each item
// a name, a key count and 40 bytes a key.
Bytes grimrockAnimation(int32_t items) {
    Bytes b;
    b.u32(0x4D494E41).i32(1); // "ANIM"
    str(b, "walk").f32(30.0f).i32(2).i32(items);
    str(b, "hips").i32(2);
    for (int k = 0; k < 2 * 10; ++k)
        b.f32(0.0f);       // two keys of ten floats
    str(b, "tail").i32(0); // no keys: drives nothing
    return b;
}

// EMI .animb (docs/formats/emi.md): name (length counting the NUL), duration, entries; each a
// bone name, operation (3 translation, 4 rotation), priority, a spare word, key count, keys of
// 16 (translation) or 20 (rotation) bytes.
Bytes emiAnimation(uint32_t operation) {
    Bytes b;
    b.u32(5).text("walk").u8(0).f32(1.0f).u32(2);
    b.u32(6).text("Spine").u8(0).u32(operation).u32(0).u32(0).u32(1);
    for (int k = 0; k < (operation == 3 ? 4 : 5); ++k)
        b.f32(0.0f); // one key: value and time
    b.u32(5).text("Head").u8(0).u32(4).u32(0).u32(0).u32(0);
    return b;
}
} // namespace

TEST(Survey, GrimrockAnimationNamesTheNodesItKeys) {
    Bytes b = grimrockAnimation(2);
    horde::Result<horde::FileSurvey> s = horde::surveyFile("walk.animation", b.span());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->kind, FileKind::Animation);
    EXPECT_EQ(s->formatId, "grimrock");
    EXPECT_EQ(s->names, std::vector<std::string>{"hips"});
}

TEST(Survey, GrimrockAnimationShortOfAnItemFailsWhereItShouldStart) {
    Bytes b = grimrockAnimation(3); // a third item the file does not hold
    horde::Result<horde::FileSurvey> s = horde::surveyFile("walk.animation", b.span());
    ASSERT_FALSE(s);
    // The third item's name length would sit right after the second item, at 4+4+8+4+4+4 + 8+4+80 + 8+4.
    EXPECT_NE(s.error().message.find("offset 132 (0x84): items[2].node"), std::string::npos)
        << s.error().message;
}

TEST(Survey, EmiAnimationNamesTheBonesItKeys) {
    Bytes b = emiAnimation(3);
    horde::Result<horde::FileSurvey> s = horde::surveyFile("walk.animb", b.span());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->kind, FileKind::Animation);
    EXPECT_EQ(s->names, std::vector<std::string>{"Spine"});
}

TEST(Survey, EmiAnimationWithAnUnknownOperationFailsAtIt) {
    Bytes b = emiAnimation(7);
    horde::Result<horde::FileSurvey> s = horde::surveyFile("walk.animb", b.span());
    ASSERT_FALSE(s);
    // name 4+5, duration 4, count 4, bone name 4+6: the operation at 27.
    EXPECT_NE(s.error().message.find("offset 27 (0x1b): operation"), std::string::npos) << s.error().message;
}

TEST(Survey, NwnAsciiModelNamesItsSupermodel) {
    Bytes b;
    b.text("newmodel child\nsetsupermodel child base_a\nclassification character\nbeginmodelgeom child\n"
           "node dummy child\n  parent NULL\nendnode\nendmodelgeom child\ndonemodel child\n");
    horde::Result<horde::FileSurvey> s = horde::surveyFile("child.mdl", b.span());
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->kind, FileKind::Model);
    EXPECT_EQ(s->formatId, "nwn-ascii");
    EXPECT_EQ(s->names, std::vector<std::string>{"base_a"});
}

TEST(Survey, TexturesAndStrangersByExtensionBrokenClaimsAsErrors) {
    Bytes b;
    b.text("whatever");
    for (auto [name, container] :
         {std::pair{"a.DDS", "dds"}, {"b.tga", "tga"}, {"c.png", "png"}, {"d.jpg", "jpeg"}}) {
        horde::Result<horde::FileSurvey> s = horde::surveyFile(name, b.span());
        ASSERT_TRUE(s);
        EXPECT_EQ(s->kind, FileKind::Texture) << name;
        EXPECT_EQ(s->formatId, container);
    }
    horde::Result<horde::FileSurvey> lua = horde::surveyFile("init.lua", b.span());
    ASSERT_TRUE(lua);
    EXPECT_EQ(lua->kind, FileKind::Other);
    horde::Result<horde::FileSurvey> model = horde::surveyFile("x.model", b.span());
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("offset 0 (0x0): magic"), std::string::npos);
}
