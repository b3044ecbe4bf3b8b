// glTF out carries textures: a monster whose material has a BC1 base texture and a BGRA8 normal
// map is written as .glb and .gltf; the Khronos validator finds nothing wrong, and reading the
// file back gives the material's factors and, decoded from the embedded PNG, the source texels.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "loader.h"
#include "monster.h"
#include "support/bytes.h"
#include "support/temp_dir.h"
#include "texture/texture.h"

using namespace horde;

namespace {

std::shared_ptr<const Texture> bc1Texture() {
    // 8x4: a red block (c0 red, all index 0) beside a block whose c0 (blue) <= c1 (red): three
    // colours and transparent black, texel i taking index i % 4.
    test::Bytes b;
    b.u16(0xF800).u16(0).u32(0);
    b.u16(0x001F).u16(0xF800).u32(0xE4E4E4E4u);
    Texture t;
    t.file = "bc1";
    t.format = PixelFormat::BC1;
    t.width = 8;
    t.height = 4;
    t.levels.push_back({8, 4, 0, 16});
    copyLevels(t, b.span());
    return std::make_shared<const Texture>(std::move(t));
}

std::shared_ptr<const Texture> bgraTexture() {
    Texture t;
    t.file = "bgra";
    t.format = PixelFormat::BGRA8;
    t.width = 2;
    t.height = 1;
    t.levels.push_back({2, 1, 0, 8});
    const uint8_t texels[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    copyLevels(t, std::as_bytes(std::span(texels)));
    return std::make_shared<const Texture>(std::move(t));
}

int runValidator(const std::filesystem::path& file, std::string& out) {
    const std::string command = "node '" + std::string(HORDE_SOURCE_DIR) + "/scripts/gltf-validate.mjs' '" + file.string() + "' 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    const int status = pclose(pipe);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(TextureExport, GlbImagesDecodeBackToTheSourceTexels) {
    test::TempDir dir("texture_export");
    HeapMeshAllocator allocator;
    Model monster = buildMonster(allocator);
    finalizeMeshes(monster);
    const int32_t hide = findMaterial(monster, "hide");
    ASSERT_GE(hide, 0);
    Material& m = monster.materials[size_t(hide)];
    m.baseColor = glm::vec4(0.5f, 0.75f, 1.0f, 1.0f);
    m.alpha = AlphaMode::Mask;
    m.alphaCutoff = 0.25f;
    m.doubleSided = true;
    const auto base = bc1Texture(), normal = bgraTexture();
    m.textures = {{TextureSlot::Base, "hide.dds", "hide.dds", base}, {TextureSlot::Normal, "hide_n.dds", "hide_n.dds", normal}};

    for (const char* name : {"textured.glb", "textured.gltf"}) {
        const std::filesystem::path file = dir.path / name;
        ASSERT_TRUE(gltfFormat().write(monster, file));

        std::string report;
        const int code = runValidator(file, report);
        ASSERT_NE(code, 2) << "the Khronos validator did not run (scripts/setup --test installs it):\n" << report;
        nlohmann::json j = nlohmann::json::parse(report, nullptr, false);
        ASSERT_FALSE(j.is_discarded()) << report;
        EXPECT_EQ(j["issues"]["numErrors"], 0) << name << ":\n" << j["issues"].dump(2).substr(0, 4000);
        // The two horde's exports always have (docs/formats/gltf.md), and a normal map on a mesh
        // stored without tangents, as the monster is.
        const std::set<std::string> explained{"ANIMATION_CHANNEL_TARGET_NODE_SKIN", "NODE_SKINNED_MESH_NON_ROOT",
                                              "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE"};
        for (const nlohmann::json& message : j["issues"]["messages"])
            if (message["severity"] == 1) {
                EXPECT_TRUE(explained.count(message["code"])) << name << ": " << message.dump();
            }

        Result<Model> back = loadModel(file, {}, allocator);
        ASSERT_TRUE(back) << back.error().message;
        const int32_t again = findMaterial(*back, "hide");
        ASSERT_GE(again, 0);
        const Material& b = back->materials[size_t(again)];
        EXPECT_EQ(b.baseColor, m.baseColor);
        EXPECT_EQ(b.alpha, AlphaMode::Mask);
        EXPECT_EQ(b.alphaCutoff, 0.25f);
        EXPECT_TRUE(b.doubleSided);
        ASSERT_EQ(b.textures.size(), 2u);
        const TextureRef* baseBack = b.find(TextureSlot::Base);
        const TextureRef* normalBack = b.find(TextureSlot::Normal);
        ASSERT_TRUE(baseBack && baseBack->texture && normalBack && normalBack->texture);
        Result<std::vector<uint8_t>> baseTexels = decodeRgba8(*baseBack->texture);
        ASSERT_TRUE(baseTexels);
        // Row 0: four red texels, then blue, red, their midpoint ((255 + 0 + 1) / 2) and transparent black.
        const std::vector<uint8_t> row0{255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255,
                                        0,   0, 255, 255, 255, 0, 0, 255, 128, 0, 128, 255, 0, 0, 0, 0};
        ASSERT_EQ(baseTexels->size(), 8u * 4u * 4u);
        EXPECT_EQ(std::vector<uint8_t>(baseTexels->begin(), baseTexels->begin() + 32), row0);
        EXPECT_EQ(*baseTexels, decodeRgba8(*base).value());
        EXPECT_EQ(decodeRgba8(*normalBack->texture).value(), (std::vector<uint8_t>{30, 20, 10, 40, 70, 60, 50, 80}));
    }
}

} // namespace
