// horde validate's texture check (app/validate/validate_textures.*): materials compared slot by slot by a
// hash of their decoded base level, so a BC1 texture and the PNG texels a .glb carries for it are
// the same, and one changed texel is not.
#include <gtest/gtest.h>

#include "texture/texture.h"
#include "validate_textures.h"

using namespace horde;

namespace {

std::shared_ptr<const Texture> texture(PixelFormat format, uint32_t w, uint32_t h, std::vector<uint8_t> bytes) {
    Texture t;
    t.file = "t";
    t.format = format;
    t.width = w;
    t.height = h;
    t.levels.push_back({w, h, 0, bytes.size()});
    copyLevels(t, std::as_bytes(std::span(bytes)));
    return std::make_shared<const Texture>(std::move(t));
}

Model withMaterial(std::shared_ptr<const Texture> base) {
    Model m;
    Material material{.name = "hide"};
    if (base) material.textures.push_back({TextureSlot::Base, "hide.dds", "hide.dds", std::move(base)});
    m.materials.push_back(std::move(material));
    return m;
}

TEST(ValidateTextures, SameTexelsInAnotherEncodingPass) {
    // One BC1 block, all index 0, colour red: sixteen (255, 0, 0, 255) texels.
    auto bc1 = texture(PixelFormat::BC1, 4, 4, {0x00, 0xF8, 0, 0, 0, 0, 0, 0});
    std::vector<uint8_t> red;
    for (int i = 0; i < 16; ++i) red.insert(red.end(), {255, 0, 0, 255});
    auto rgba = texture(PixelFormat::RGBA8, 4, 4, red);
    EXPECT_EQ(textureContentHash(*bc1), textureContentHash(*rgba));
    Check same = compareTextures(withMaterial(bc1), withMaterial(rgba), {});
    EXPECT_TRUE(same.passed) << same.detail;
    EXPECT_EQ(same.detail, "1 texture compared, the same texels");

    red[5 * 4 + 1] = 1; // one texel's green
    Check changed =
        compareTextures(withMaterial(bc1), withMaterial(texture(PixelFormat::RGBA8, 4, 4, red)), {});
    EXPECT_FALSE(changed.passed);
    EXPECT_EQ(changed.detail, "texels differ: hide (base)");

    // The same texels in another shape differ.
    EXPECT_NE(textureContentHash(*texture(PixelFormat::RGBA8, 16, 1, red)), textureContentHash(*texture(PixelFormat::RGBA8, 4, 4, red)));

    Check none = compareTextures(withMaterial(nullptr), withMaterial(nullptr), {});
    EXPECT_TRUE(none.passed);
    EXPECT_EQ(none.verdict(), Verdict::NothingCompared); // not counted as a pass
    EXPECT_EQ(none.detail, "0 textures compared: no base texture on either side");
    EXPECT_EQ(same.verdict(), Verdict::Pass);
}

// A base texture on one side only is a loss (or a gain from nowhere), named by material and
// file, in either direction; so is one B names but does not have. Materials pair through the
// mapping the materials check found.
TEST(ValidateTextures, ABaseTextureOnOneSideOnlyFails) {
    auto bc1 = texture(PixelFormat::BC1, 4, 4, {0x00, 0xF8, 0, 0, 0, 0, 0, 0});
    Check lost = compareTextures(withMaterial(bc1), withMaterial(nullptr), {});
    EXPECT_FALSE(lost.passed);
    EXPECT_EQ(lost.detail, "base textures lost: material 'hide' has base texture 'hide.dds' in A, none in B");
    Check gained = compareTextures(withMaterial(nullptr), withMaterial(bc1), {});
    EXPECT_FALSE(gained.passed);
    EXPECT_EQ(gained.detail,
              "base textures only in B: material 'hide' has base texture 'hide.dds' in B, none in A");

    Model named = withMaterial(nullptr);
    named.materials[0].textures.push_back({TextureSlot::Base, "skin.tga", "", nullptr}); // named, not found
    Model renamed = withMaterial(bc1);
    renamed.materials[0].name = "material0";
    renamed.materials[0].textures[0].file = "b.glb";
    Check notFound = compareTextures(renamed, named, {{"material0", "hide"}});
    EXPECT_FALSE(notFound.passed);
    EXPECT_EQ(notFound.detail,
              "base textures lost: material 'material0' has base texture 'hide.dds' (b.glb) in A, "
              "B's 'skin.tga' was not found");
    // Another slot kept on one side only is noted, not failed: only base textures are drawn.
    Model specular = withMaterial(bc1);
    specular.materials[0].textures.push_back({TextureSlot::Specular, "spec.dds", "spec.dds", bc1});
    Check slots = compareTextures(specular, withMaterial(bc1), {});
    EXPECT_TRUE(slots.passed) << slots.detail;
    EXPECT_EQ(slots.detail,
              "1 texture compared, the same texels; not kept in B (not drawn, not failed): hide (specular)");
}

} // namespace
