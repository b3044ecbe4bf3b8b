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
    Check same = compareTextures(withMaterial(bc1), withMaterial(rgba));
    EXPECT_TRUE(same.passed) << same.detail;
    EXPECT_EQ(same.detail, "1 textures, the same texels");

    red[5 * 4 + 1] = 1; // one texel's green
    Check changed = compareTextures(withMaterial(bc1), withMaterial(texture(PixelFormat::RGBA8, 4, 4, red)));
    EXPECT_FALSE(changed.passed);
    EXPECT_EQ(changed.detail, "texels differ: hide (base)");

    // The same texels in another shape differ.
    EXPECT_NE(textureContentHash(*texture(PixelFormat::RGBA8, 16, 1, red)), textureContentHash(*texture(PixelFormat::RGBA8, 4, 4, red)));

    Check none = compareTextures(withMaterial(bc1), withMaterial(nullptr));
    EXPECT_TRUE(none.passed);
    EXPECT_EQ(none.detail, "no texture on both sides to compare");
}

} // namespace
