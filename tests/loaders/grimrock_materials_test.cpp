// Grimrock's defineMaterial blocks read as data from hand-written Lua: comments short and long,
// trailing commas, both quotes, long-bracket strings, blocks and fields that are not material
// data, redefinitions; and the materials a model's submeshes get from them.
#include <gtest/gtest.h>

#include "grimrock/grimrock.h"
#include "support/temp_dir.h"

using namespace horde;

namespace {

const char* kLua = R"LUA(-- Materials for a test mod --
--[[ a long comment with a decoy:
defineMaterial{ name = "commented_out", diffuseMap = "x.tga" }
]]
--[==[ another, with ]] inside ]==]
defineObject{
	name = "ogre",
	class = "Monster",
	model = "assets/models/monsters/ogre.fbx",
	onDie = function(self) defineMaterial{ name = "in_function" } end,
	animations = { idle = "a.fbx", move = "b.fbx", },
}
function later() if true then defineMaterial{ name = "in_function" } end end

defineMaterial{
	name = "stone_wall",
	diffuseMap = "mod_assets/textures/env/stone_dif.tga", -- trailing comment
	specularMap = 'mod_assets/textures/env/stone_spec.tga',
	normalMap = [[mod_assets/textures/env/stone_normal.tga]],
	doubleSided = true,
	lighting = true,
	alphaTest = false,
	blendMode = "Opaque",
	glossiness = 20,
	depthBias = 0,
}

defineMaterial({
	name = 'leaves',
	diffuseMap = "mod_assets/textures/env/leaves_dif.tga";
	alphaTest = true,
	blendMode = "Opaque"
})

defineMaterial{
	name = "glass",
	diffuseMap = "assets/textures/glass_" .. "dif.tga",
	blendMode = "Translucent",
	emissiveMap = "assets/textures/glass_emit.tga",
}

defineMaterial{ diffuseMap = "nameless.tga" }

defineMaterial{
	name = "stone_wall",
	diffuseMap = "mod_assets/textures/env/stone2_dif.tga",
	normalMap = "mod_assets/textures/env/stone_normal.tga",
}
)LUA";

TEST(GrimrockMaterials, ReadsDefineMaterialBlocksAsData) {
    grimrock::MaterialDefinitions d = grimrock::readMaterialDefinitions("materials.lua", kLua);
    ASSERT_EQ(d.materials.size(), 3u);

    const Material& stone = d.materials[0]; // redefined later: the later block wins, whole
    EXPECT_EQ(stone.name, "stone_wall");
    ASSERT_EQ(stone.textures.size(), 2u);
    EXPECT_EQ(stone.textures[0].slot, TextureSlot::Base);
    EXPECT_EQ(stone.textures[0].path, "mod_assets/textures/env/stone2_dif.tga");
    EXPECT_EQ(stone.textures[1].slot, TextureSlot::Normal);
    EXPECT_FALSE(stone.doubleSided);
    EXPECT_EQ(stone.alpha, AlphaMode::Opaque);

    const Material& leaves = d.materials[1];
    EXPECT_EQ(leaves.name, "leaves");
    EXPECT_EQ(leaves.alpha, AlphaMode::Mask);
    ASSERT_EQ(leaves.textures.size(), 1u);
    EXPECT_EQ(leaves.textures[0].path, "mod_assets/textures/env/leaves_dif.tga");

    const Material& glass = d.materials[2];
    EXPECT_EQ(glass.alpha, AlphaMode::Blend);
    ASSERT_EQ(glass.textures.size(), 1u); // the concatenated diffuseMap is an expression: skipped
    EXPECT_EQ(glass.textures[0].slot, TextureSlot::Emissive);

    ASSERT_EQ(d.warnings.size(), 2u);
    EXPECT_EQ(d.warnings[0], "materials.lua:37: 'diffuseMap' is not a literal; skipped");
    EXPECT_EQ(d.warnings[1], "materials.lua:42: defineMaterial without a literal name; skipped");
}

TEST(GrimrockMaterials, FirstDefinitionKeepsEveryField) {
    grimrock::MaterialDefinitions d = grimrock::readMaterialDefinitions(
        "m.lua", "defineMaterial{name=\"a\",diffuseMap=\"d.tga\",specularMap='s.tga',normalMap=\"n.tga\",doubleSided=true,}");
    ASSERT_EQ(d.materials.size(), 1u);
    const Material& a = d.materials[0];
    ASSERT_EQ(a.textures.size(), 3u);
    EXPECT_EQ(a.textures[0].path, "d.tga");
    EXPECT_EQ(a.textures[1].slot, TextureSlot::Normal);
    EXPECT_EQ(a.textures[1].path, "n.tga");
    EXPECT_EQ(a.textures[2].slot, TextureSlot::Specular);
    EXPECT_EQ(a.textures[2].path, "s.tga");
    EXPECT_TRUE(a.doubleSided);
    EXPECT_TRUE(d.warnings.empty());
}

TEST(GrimrockMaterials, HostileTextEndsWithAWarning) {
    const char* cases[] = {"defineMaterial{ name = \"a", "defineMaterial{ name = \"a\", diffuseMap = [[x", "--[[ never closed",
                           "defineMaterial{ name = 'a', x = { {", "defineMaterial", "defineMaterial{", "\"\\", "]]", "}}}}"};
    for (const char* text : cases) {
        grimrock::MaterialDefinitions d = grimrock::readMaterialDefinitions("bad.lua", text);
        EXPECT_TRUE(d.materials.empty()) << text;
        for (const std::string& w : d.warnings) EXPECT_EQ(w.rfind("bad.lua:", 0), 0u) << w;
    }
}

TEST(GrimrockMaterials, SubmeshesGetTheirDefinitions) {
    test::TempDir dir("grimrock_materials");
    test::Bytes lua;
    lua.text(kLua);
    LoadOptions options;
    options.materials = {dir.put("materials.lua", lua)};
    Model model;
    model.meshes.emplace_back();
    model.meshes[0].submeshes = {{"leaves", 0, 0}, {"undefined", 0, 0}, {"leaves", 0, 0}};
    ASSERT_TRUE(grimrock::applyMaterials(model, options));
    // A name no file defines is left for finalizeMeshes to add, undefined.
    ASSERT_EQ(model.materials.size(), 1u);
    EXPECT_EQ(model.materials[0].name, "leaves");
    EXPECT_EQ(model.materials[0].alpha, AlphaMode::Mask);
    EXPECT_EQ(findMaterial(model, "undefined"), -1);

    // Without --materials, the .lua files under the search paths are read.
    Model found;
    found.meshes.emplace_back();
    found.meshes[0].submeshes = {{"stone_wall", 0, 0}};
    LoadOptions search;
    search.searchPaths = {dir.path};
    ASSERT_TRUE(grimrock::applyMaterials(found, search));
    ASSERT_EQ(found.materials.size(), 1u);
    EXPECT_EQ(found.materials[0].textures.at(0).path, "mod_assets/textures/env/stone2_dif.tga");

    // With no definitions read at all, one warning says where they are looked for.
    Model bare;
    bare.meshes.emplace_back();
    bare.meshes[0].submeshes = {{"stone_wall", 0, 0}};
    ASSERT_TRUE(grimrock::applyMaterials(bare, LoadOptions{}));
    EXPECT_TRUE(bare.materials.empty());
    ASSERT_EQ(bare.warnings.size(), 1u);
    EXPECT_NE(
        bare.warnings[0].find("give --materials FILE, or a --search-path holding the mod's .lua scripts"),
        std::string::npos)
        << bare.warnings[0];

    // A file named with --materials that cannot be read fails the load.
    LoadOptions missing;
    missing.materials = {dir.path / "nope.lua"};
    Model none;
    EXPECT_FALSE(grimrock::applyMaterials(none, missing));
}

} // namespace
