// The horde CLI as users script it: exit codes, the info JSON shape, pose on GPU and CPU.
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "loader.h"
#include "render/headless.h"
#include "support/morph_triangle.h"
#include "support/shell.h"
#include "support/temp_dir.h"
#include "texture/texture.h"

using nlohmann::json;

namespace {
using CliRun = horde::test::Outcome;

// `withErrors`: stderr joins the output (the messages users act on), else it is dropped.
CliRun runCli(const std::string& args, bool withErrors = false) {
    return horde::test::shell(std::string(HORDE_CLI) + " " + args, withErrors);
}

} // namespace

// The texture an NWN monster's `hide` material names, as an uncompressed true-colour TGA: 2 x 3
// texels of 24 bits, rows bottom-up (image descriptor 0); upper case, found case-insensitively.
void writeHideTga(const std::filesystem::path& folder) {
    std::string tga(18, '\0');
    tga[2] = 2;
    tga[12] = 2;
    tga[14] = 3;
    tga[16] = 24;
    tga += std::string(2 * 3 * 3, '\x40');
    std::ofstream(folder / "HIDE.tga", std::ios::binary) << tga;
}

TEST(Cli, InfoJsonHasTheDocumentedShape) {
    CliRun r = runCli("info monster --json");
    ASSERT_EQ(r.code, 0);
    json j = json::parse(r.out);
    EXPECT_EQ(j["format"], "builtin");
    ASSERT_TRUE(j["nodes"].is_array());
    EXPECT_EQ(j["nodes"][0]["parent"], -1);
    EXPECT_TRUE(j["nodes"][1]["name"].is_string());
    const json& mesh = j["meshes"][0];
    EXPECT_EQ(mesh["name"], "monster");
    EXPECT_GT(mesh["vertices"].get<int>(), 7000);
    EXPECT_EQ(mesh["indices"].get<int>() % 3, 0);
    EXPECT_EQ(mesh["skinned"], true);
    EXPECT_GE(mesh["joints"].get<int>(), 40);
    for (const json& s : mesh["submeshes"]) {
        EXPECT_TRUE(s["material"].is_string());
        EXPECT_TRUE(s["first_index"].is_number_integer());
        EXPECT_TRUE(s["index_count"].is_number_integer());
    }
    EXPECT_EQ(j["clips"][0]["name"], "walk");
    EXPECT_DOUBLE_EQ(j["clips"][0]["duration"].get<double>(), 1.0);
    EXPECT_GT(j["clips"][0]["channels"].get<int>(), 0);
    EXPECT_EQ(mesh["morph_targets"], 0);
    EXPECT_EQ(j["clips"][0]["morph_channels"], 0);
    EXPECT_EQ(j["bounds"]["min"].size(), 3u);
    EXPECT_LT(j["bounds"]["min"][1].get<double>(), j["bounds"]["max"][1].get<double>());
}

// The byte-built triangle with two morph targets and two clips keying only their weights: the
// summary and the JSON count the targets and the weights channels.
TEST(Cli, InfoCountsMorphTargetsAndWeightChannels) {
    horde::test::TempDir dir("horde_cli");
    const std::filesystem::path path = dir.path / "morph.glb";
    const std::vector<std::byte> bytes = horde::test::morphTriangle().bytes();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    CliRun text = runCli("info " + path.string());
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_NE(text.out.find("static, 2 morph targets"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("clip     talk: 2.000 s, 0 channels, 1 morph weight channel, "), std::string::npos)
        << text.out;
    CliRun r = runCli("info " + path.string() + " --json");
    ASSERT_EQ(r.code, 0) << r.out;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["meshes"][0]["morph_targets"], 2);
    EXPECT_EQ(j["clips"][0]["channels"], 0);
    EXPECT_EQ(j["clips"][0]["morph_channels"], 1);
}

// `info --lod`: each mesh's chain as a crowd builds it, in the summary and as `lod` in the JSON.
TEST(Cli, InfoLodListsEachMeshsChain) {
    CliRun r = runCli("info monster --lod --json");
    ASSERT_EQ(r.code, 0);
    json j = json::parse(r.out);
    ASSERT_TRUE(j["lod"].is_array());
    ASSERT_EQ(j["lod"].size(), j["meshes"].size());
    const json& chain = j["lod"][0];
    EXPECT_EQ(chain["mesh"], "monster");
    EXPECT_GT(chain["radius"].get<double>(), 0.0);
    const json& levels = chain["levels"];
    ASSERT_GE(levels.size(), 2u);
    EXPECT_EQ(levels[0]["triangles"].get<int>(), j["meshes"][0]["indices"].get<int>() / 3);
    EXPECT_EQ(levels[0]["error"].get<double>(), 0.0);
    for (size_t k = 1; k < levels.size(); ++k) {
        EXPECT_LT(levels[k]["triangles"].get<int>(), levels[k - 1]["triangles"].get<int>()) << "level " << k;
        EXPECT_GE(levels[k]["error"].get<double>(), levels[k - 1]["error"].get<double>()) << "level " << k;
    }
    EXPECT_FALSE(json::parse(runCli("info monster --json").out).contains("lod"));
    CliRun text = runCli("info monster --lod");
    ASSERT_EQ(text.code, 0);
    EXPECT_NE(text.out.find("lod      monster: radius"), std::string::npos) << text.out;
    horde::test::TempDir dir("horde_cli");
    EXPECT_EQ(runCli("info " + dir.path.string() + " --lod").code, 1) << "a folder has no one chain";
}

// A danglymesh's constraints and settings, and its vertex colours, in `info` and `info --json`.
TEST(Cli, InfoShowsDanglyConstraintsAndColours) {
    horde::test::TempDir dir("horde_cli");
    const std::string model = (dir.path / "cape.mdl").string();
    std::ofstream(model) << "newmodel cape\nsetsupermodel cape NULL\nbeginmodelgeom cape\n"
                            "node dummy cape\n  parent NULL\nendnode\nnode danglymesh flap\n  parent cape\n"
                            "  displacement 0.25\n  tightness 3\n  period 1.5\n  bitmap NULL\n"
                            "  verts 3\n    0 0 0\n    1 0 0\n    0 0 1\n  faces 1\n    0 1 2  1  0 0 0  0\n"
                            "  constraints 3\n    0\n    128\n    255\n"
                            "  colors 3\n    1 0 0\n    0 1 0\n    0 0 1\nendnode\n"
                            "endmodelgeom cape\ndonemodel cape\n";
    CliRun text = runCli("info " + model);
    ASSERT_EQ(text.code, 0) << text.out;
    EXPECT_NE(text.out.find("dangly 3 constraints 0..255, displacement 0.25, tightness 3, period 1.5"),
              std::string::npos)
        << text.out;
    CliRun r = runCli("info " + model + " --json");
    ASSERT_EQ(r.code, 0) << r.out;
    const json mesh = json::parse(r.out)["meshes"][0];
    EXPECT_EQ(mesh["colors"], true);
    EXPECT_EQ(mesh["dangly"]["constraints"], 3);
    EXPECT_EQ(mesh["dangly"]["constraint_min"], 0.0);
    EXPECT_EQ(mesh["dangly"]["constraint_max"], 255.0);
    EXPECT_EQ(mesh["dangly"]["displacement"], 0.25);
    EXPECT_EQ(mesh["dangly"]["tightness"], 3.0);
    EXPECT_EQ(mesh["dangly"]["period"], 1.5);
}

// The materials record of `info --json` (issue #20): the monster written as NWN names one bitmap
// per material; one of them is given as a hand-made 2 x 3 TGA beside the model, the others are
// missing.
TEST(Cli, InfoJsonListsMaterialsAndTheirTextures) {
    horde::test::TempDir dir("horde_cli");
    const std::string model = (dir.path / "beast.mdl").string();
    ASSERT_EQ(runCli("convert monster --to nwn --out " + model).code, 0);
    writeHideTga(dir.path);
    CliRun r = runCli("info " + model + " --json");
    ASSERT_EQ(r.code, 0) << r.out;
    json j = json::parse(r.out);
    std::map<std::string, json> materials;
    for (const json& m : j["materials"])
        materials[m["name"]] = m;
    ASSERT_EQ(materials.size(), 3u) << j["materials"].dump();
    for (const char* name : {"hide", "legs", "bone"}) {
        const json& m = materials[name];
        EXPECT_EQ(m["base_color"].size(), 4u);
        EXPECT_EQ(m["alpha"], "opaque");
        EXPECT_EQ(m["double_sided"], false);
        ASSERT_EQ(m["textures"].size(), 1u) << m.dump();
        const json& t = m["textures"][0];
        EXPECT_EQ(t["slot"], "base");
        EXPECT_EQ(t["path"], name);
        const bool found = std::string(name) == "hide";
        EXPECT_EQ(t["found"], found) << "found case-insensitively as .tga: " << t.dump();
        if (found) {
            EXPECT_EQ(t["width"], 2);
            EXPECT_EQ(t["height"], 3);
            EXPECT_EQ(t["mips"], 1);
            EXPECT_EQ(t["format"], "rgba8") << "stb_image widens 24-bit texels to RGBA";
        } else {
            for (const char* key : {"format", "width", "height", "mips"})
                EXPECT_TRUE(t[key].is_null()) << key;
        }
    }
}

// `horde info DIR` lists, under each model, the textures its materials name that were not found
// (issue #20): the same NWN monster and TGA as above, in a folder of their own. The counts on the
// model's line come from loading the file through the library.
TEST(Cli, InfoFolderListsTexturesNotFoundUnderTheModelNamingThem) {
    horde::test::TempDir dir("horde_cli");
    const std::filesystem::path model = dir.path / "beast.mdl";
    ASSERT_EQ(runCli("convert monster --to nwn --out " + model.string()).code, 0);
    writeHideTga(dir.path);

    horde::HeapMeshAllocator allocator;
    horde::Result<horde::Model> loaded = horde::loadModel(model, {}, allocator);
    ASSERT_TRUE(loaded) << loaded.error().message;
    size_t vertices = 0;
    for (const horde::Mesh& m : loaded->meshes)
        vertices += m.vertexCount();
    ASSERT_EQ(loaded->warnings.size(), 2u) << "legs and bone not found";
    const std::string counts =
        std::to_string(loaded->nodes.size()) + " nodes, " + std::to_string(loaded->meshes.size()) +
        " meshes, " + std::to_string(vertices) + " vertices, " + std::to_string(loaded->clips.size()) +
        " clips, 2 load warnings (--json lists them)\n";

    CliRun r = runCli("info " + dir.path.string());
    EXPECT_EQ(r.code, 0);
    EXPECT_EQ(r.out,
              "model      beast.mdl  nwn: " + counts +
                  "  missing    texture 'legs' (material 'legs', base)\n"
                  "  missing    texture 'bone' (material 'bone', base)\n"
                  "2 files: 1 models, 0 meshes, 0 skeletons, 0 animations (0 paired), 1 textures, 0 other; "
                  "0 errors, 2 warnings\n" // the summary counts the load warnings it mentions
                  "2 textures not found, named by 1 model\n");

    r = runCli("info " + dir.path.string() + " --json");
    EXPECT_EQ(r.code, 0);
    std::map<std::string, json> records;
    for (const json& record : json::parse(r.out))
        records[record["path"]] = record;
    ASSERT_EQ(records.size(), 2u) << r.out;
    EXPECT_EQ(records["beast.mdl"]["missing_textures"],
              json::parse(R"([{"path": "legs", "material": "legs", "slot": "base"},
                              {"path": "bone", "material": "bone", "slot": "base"}])"));
    EXPECT_EQ(records["HIDE.tga"]["missing_textures"], json::array());
}

TEST(Cli, BadInputExitsWithItsOwnCode) {
    horde::test::TempDir dir("horde_cli");
    EXPECT_EQ(runCli("info /nonexistent/model.bin").code, 2);
    EXPECT_EQ(runCli("render monster --clip nosuchclip --out " + (dir.path / "x.png").string()).code, 2);
    EXPECT_EQ(runCli("pose monster --clip nosuchclip --cpu --out " + (dir.path / "x.json").string()).code, 2);
    EXPECT_NE(runCli("info").code, 0);
}

// Usage errors leave with the documented 1 (CLI11's own codes are 105 to 114) and CLI11's
// message; asking for help is not an error.
TEST(Cli, UsageErrorsExitOneWithCli11sMessage) {
    const std::pair<const char*, const char*> cases[] = {
        {"info", "model is required"},                         // CLI11: RequiredError, 106
        {"info monster --no-such-option", "was not expected"}, // ExtrasError, 109
        {"info monster --jobs 0", "--jobs"},                   // ValidationError, 105
        {"validate monster monster --pixel-tolerance 300", "--pixel-tolerance"},
        {"info monster --shard 5/4", "--shard takes I/N"},
        {"", "A subcommand is required"}, // RequiredError, 106
    };
    for (auto [args, message] : cases) {
        CliRun r = runCli(args, true);
        EXPECT_EQ(r.code, 1) << args << ": " << r.out;
        EXPECT_NE(r.out.find(message), std::string::npos) << args << ": " << r.out;
    }
    CliRun help = runCli("info --help", true);
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("--search-path"), std::string::npos) << help.out;
}

TEST(Cli, PoseOnTheGpuMatchesTheCpuReference) {
    horde::test::TempDir dir("horde_cli");
    auto gpuPath = (dir.path / "gpu.json"), cpuPath = (dir.path / "cpu.json");
    ASSERT_EQ(runCli("pose monster --clip attack --time 2.05 --validation --out " + gpuPath.string()).code,
              0);
    ASSERT_EQ(runCli("pose monster --clip attack --time 2.05 --cpu --out " + cpuPath.string()).code, 0);
    json gpu = json::parse(std::ifstream(gpuPath)), cpu = json::parse(std::ifstream(cpuPath));
    ASSERT_EQ(gpu["meshes"].size(), 1u);
    EXPECT_EQ(gpu["meshes"][0]["name"], "monster");
    const json& a = gpu["meshes"][0]["positions"];
    const json& b = cpu["meshes"][0]["positions"];
    ASSERT_EQ(a.size(), b.size());
    double worst = 0;
    for (size_t v = 0; v < a.size(); ++v)
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(a[v][c].get<double>() - b[v][c].get<double>()));
    EXPECT_LT(worst, 1e-4 * 2.7); // the monster's bounding radius is about 2.7
    // Bind pose (no clip) differs from the attack pose.
    auto bindPath = (dir.path / "bind.json");
    ASSERT_EQ(runCli("pose monster --cpu --out " + bindPath.string()).code, 0);
    json bind = json::parse(std::ifstream(bindPath));
    EXPECT_NE(bind["meshes"][0]["positions"][0], b[0]);
}

// --skinning, --precision and --influences reach both sides: dual quaternions at half precision
// on the GPU against dual quaternions on the CPU, within half precision's stated error.
TEST(Cli, PoseTakesTheSkinningOptions) {
    horde::test::TempDir dir("horde_cli");
    auto gpuPath = (dir.path / "gpu.json"), cpuPath = (dir.path / "cpu.json"), lbsPath = (dir.path / "lbs.json");
    const std::string options = " --clip attack --time 2.05 --skinning dqs --influences 8";
    ASSERT_EQ(runCli("pose monster" + options + " --precision fp16 --validation --out " + gpuPath.string()).code, 0);
    ASSERT_EQ(runCli("pose monster" + options + " --cpu --out " + cpuPath.string()).code, 0);
    ASSERT_EQ(runCli("pose monster --clip attack --time 2.05 --cpu --out " + lbsPath.string()).code, 0);
    json gpu = json::parse(std::ifstream(gpuPath)), cpu = json::parse(std::ifstream(cpuPath)),
         lbs = json::parse(std::ifstream(lbsPath));
    const json& a = gpu["meshes"][0]["positions"];
    const json& b = cpu["meshes"][0]["positions"];
    const json& c = lbs["meshes"][0]["positions"];
    ASSERT_EQ(a.size(), b.size());
    double worst = 0, apart = 0;
    for (size_t v = 0; v < a.size(); ++v)
        for (int k = 0; k < 3; ++k) {
            worst = std::max(worst, std::abs(a[v][k].get<double>() - b[v][k].get<double>()));
            apart = std::max(apart, std::abs(c[v][k].get<double>() - b[v][k].get<double>()));
        }
    EXPECT_LT(worst, 5e-3 * 2.7); // half precision's bound on the monster (radius about 2.7)
    EXPECT_GT(apart, 1e-3) << "dual quaternions bend the monster's joints unlike the linear blend";
    EXPECT_NE(runCli("pose monster --skinning quaternions --cpu --out " + cpuPath.string()).code, 0);
    EXPECT_NE(runCli("pose monster --influences 6 --cpu --out " + cpuPath.string()).code, 0);
}

TEST(Cli, RenderWritesAPng) {
    horde::test::TempDir dir("horde_cli");
    auto png = dir.path / "render.png";
    ASSERT_EQ(runCli("render monster --clip walk --time 0.4 --width 160 --height 120 --validation --out " +
                     png.string())
                  .code,
              0);
    std::ifstream file(png, std::ios::binary);
    char magic[8] = {};
    file.read(magic, 8);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG");
}

TEST(Cli, ABruteForceCrowdTooBigForTheDeviceIsDeviceTrouble) {
    horde::test::TempDir dir("horde_cli");
    CliRun r = runCli("crowd --headless --lod off --cull off --count 1048576 --frames 1 --validation --out " +
                          (dir.path / "huge.png").string(),
                      true);
    EXPECT_EQ(r.code, 3) << r.out;
    EXPECT_NE(r.out.find("horde: device error: a crowd of 1048576 needs"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists((dir.path / "huge.png")));
}

// The statistics users script against: one record per frame with the GPU's own counts.
TEST(Cli, CrowdStatsJsonHasTheDocumentedShape) {
    horde::test::TempDir dir("horde_cli");
    CliRun r =
        runCli("crowd --headless --count 300 --frames 3 --view street --lod-error 2 --width 320 --height 200 "
               "--validation --out " +
                   (dir.path / "street.png").string() + " --stats " + (dir.path / "stats.json").string(),
               true);
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("visible"), std::string::npos) << "the per-frame line shows visible instances";
    EXPECT_NE(r.out.find("triangles"), std::string::npos) << r.out;
    std::ifstream file((dir.path / "stats.json"));
    json j = json::parse(file);
    ASSERT_TRUE(j["frames"].is_array());
    ASSERT_GE(j["frames"].size(), 1u);
    for (const json& f : j["frames"]) {
        for (const char* pass : {"cull", "sample", "pose", "skin", "draw", "total"})
            EXPECT_TRUE(f["gpu_ms"][pass].is_number());
        EXPECT_EQ(f["instances"], 300);
        EXPECT_GT(f["visible"].get<int>(), 0);
        EXPECT_LT(f["visible"].get<int>(), 300) << "the street view culls part of the crowd";
        int perLevel = 0;
        for (const json& n : f["levels"])
            perLevel += n.get<int>();
        EXPECT_EQ(perLevel + f["impostors"].get<int>() - f["fading"].get<int>(), f["visible"].get<int>())
            << "one mesh: one level per visible instance drawn as a mesh, the rest impostors, those fading "
               "from one to the other both";
        EXPECT_GT(f["triangles"].get<int>(), 0);
        EXPECT_GT(f["skinned_vertices"].get<int>(), 0);
        EXPECT_EQ(f["own_poses"].get<int>() + f["shared_poses"].get<int>(), f["visible"].get<int>());
        int inStates = 0;
        for (const auto& [name, count] : f["behaviour"]["states"].items()) inStates += count.get<int>();
        EXPECT_EQ(inStates, 300) << "wander, the default: every monster in one of its states";
        EXPECT_EQ(f["behaviour"]["states"]["idle"], 0) << "the monster has no idle clip";
        EXPECT_LE(f["behaviour"]["blending"].get<int>(), 300);
        EXPECT_TRUE(f["behaviour"]["transitions"].is_number_integer());
        const int moved = f["behaviour"]["moved"].get<int>();
        if (&f == &j["frames"].front())
            EXPECT_EQ(moved, 0) << "nothing moves before the first step";
        else
            EXPECT_GT(moved, 100) << "a third walk and a third turn as they walk";
        EXPECT_LE(moved, 300);
    }
    EXPECT_TRUE(j["median"]["gpu_ms"]["total"].is_number());
}

namespace {

// The positions of a pose JSON, the monster's one mesh.
std::vector<std::array<double, 3>> posePositions(const std::filesystem::path& file) {
    const json j = json::parse(std::ifstream(file));
    std::vector<std::array<double, 3>> out;
    for (const json& p : j["meshes"][0]["positions"])
        out.push_back({p[0].get<double>(), p[1].get<double>(), p[2].get<double>()});
    return out;
}

double largestApart(const std::vector<std::array<double, 3>>& a, const std::vector<std::array<double, 3>>& b) {
    EXPECT_EQ(a.size(), b.size());
    double worst = 0;
    for (size_t v = 0; v < std::min(a.size(), b.size()); ++v)
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(a[v][c] - b[v][c]));
    return worst;
}

} // namespace

// `pose --blend B@u:w`: the GPU's cross-fade against the reference's; at weight 0 the clip alone,
// at weight 1 B alone at u, each posed without a blend.
TEST(Cli, PoseBlendsASecondClipOnTheGpuAsTheReferenceDoes) {
    horde::test::TempDir dir("horde_cli");
    const auto path = [&](const char* name) { return dir.path / name; };
    const std::string walk = "pose monster --clip walk --time 0.3";
    ASSERT_EQ(runCli(walk + " --blend attack@1.1:0.4 --validation --out " + path("gpu.json").string()).code, 0);
    ASSERT_EQ(runCli(walk + " --blend attack@1.1:0.4 --cpu --out " + path("cpu.json").string()).code, 0);
    ASSERT_EQ(runCli(walk + " --blend attack@1.1:0 --cpu --out " + path("w0.json").string()).code, 0);
    ASSERT_EQ(runCli(walk + " --blend attack@1.1:1 --cpu --out " + path("w1.json").string()).code, 0);
    ASSERT_EQ(runCli(walk + " --cpu --out " + path("walk.json").string()).code, 0);
    ASSERT_EQ(runCli("pose monster --clip attack --time 1.1 --cpu --out " + path("attack.json").string()).code, 0);
    const auto gpu = posePositions(path("gpu.json")), cpu = posePositions(path("cpu.json"));
    EXPECT_LT(largestApart(gpu, cpu), 1e-4 * 2.7); // the monster's bounding radius is about 2.7
    // The JSON's numbers are single precision.
    EXPECT_LT(largestApart(posePositions(path("w0.json")), posePositions(path("walk.json"))), 1e-6);
    EXPECT_LT(largestApart(posePositions(path("w1.json")), posePositions(path("attack.json"))), 1e-6);
    EXPECT_GT(largestApart(cpu, posePositions(path("walk.json"))), 1e-3);
    EXPECT_GT(largestApart(cpu, posePositions(path("attack.json"))), 1e-3);

    CliRun noClip = runCli(walk + " --blend nothing@1:0.5 --cpu --out " + path("x.json").string(), true);
    EXPECT_EQ(noClip.code, 2) << noClip.out;
    EXPECT_NE(noClip.out.find("no clip named 'nothing' (--blend)"), std::string::npos) << noClip.out;
    EXPECT_NE(runCli(walk + " --blend attack --cpu --out " + path("x.json").string()).code, 0);
    EXPECT_NE(runCli(walk + " --blend attack@1:1.5 --cpu --out " + path("x.json").string()).code, 0);
}

// Each clip's role and motion in `info --json`: the monster's walk plays in place (no root motion)
// and walks at the speed its stride gives, one stride a cycle of its one-second clip.
TEST(Cli, InfoJsonGivesEachClipsRoleAndMotion) {
    CliRun r = runCli("info monster --json");
    ASSERT_EQ(r.code, 0);
    const json clips = json::parse(r.out)["clips"];
    ASSERT_EQ(clips.size(), 2u);
    const json& walk = clips[0];
    EXPECT_EQ(walk["role"], "walk");
    EXPECT_EQ(walk["root_motion"]["distance"].get<double>(), 0.0);
    EXPECT_DOUBLE_EQ(walk["root_motion"]["duration"].get<double>(), 1.0);
    EXPECT_GT(walk["speed"].get<double>(), 0.0);
    EXPECT_NEAR(walk["stride"].get<double>(), walk["speed"].get<double>() * 1.0, 1e-6);
    EXPECT_GE(walk["planted_drift"].get<double>(), 0.0);
    const json& attack = clips[1];
    EXPECT_EQ(attack["role"], "other");
    EXPECT_FALSE(attack.contains("speed")) << "only walks and runs have a speed";
}

// `crowd --video`: an animated WebP (RIFF, a VP8X header with the animation flag, an ANIM chunk),
// one ANMF frame per frame drawn, the first the whole picture, each a thirtieth of a second long.
TEST(Cli, CrowdVideoIsAnAnimatedWebpOfEveryFrame) {
    horde::test::TempDir dir("horde_cli");
    const auto video = dir.path / "crowd.webp";
    CliRun r = runCli("crowd --headless --count 64 --frames 3 --width 320 --height 200 --validation --out " +
                          (dir.path / "crowd.png").string() + " --video " + video.string(),
                      true);
    ASSERT_EQ(r.code, 0) << r.out;
    std::ifstream file(video, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ASSERT_GE(bytes.size(), 30u);
    const auto le = [&](size_t at, int n) {
        uint32_t v = 0;
        for (int k = 0; k < n; ++k) v |= uint32_t(uint8_t(bytes[at + k])) << (8 * k);
        return v;
    };
    EXPECT_EQ(bytes.substr(0, 4), "RIFF");
    EXPECT_EQ(le(4, 4) + 8, bytes.size());
    EXPECT_EQ(bytes.substr(8, 4), "WEBP");
    int frames = 0;
    bool anim = false;
    for (size_t at = 12; at + 8 <= bytes.size();) {
        const std::string fourcc = bytes.substr(at, 4);
        const uint32_t size = le(at + 4, 4);
        ASSERT_LE(at + 8 + size, bytes.size()) << fourcc;
        if (fourcc == "VP8X") {
            EXPECT_NE(bytes[at + 8] & 0x02, 0) << "the animation flag";
            EXPECT_EQ(le(at + 12, 3) + 1, 320u);
            EXPECT_EQ(le(at + 15, 3) + 1, 200u);
        }
        anim = anim || fourcc == "ANIM";
        if (fourcc == "ANMF") {
            ++frames;
            // Later frames may be cut to the rectangle that changed, always within the picture.
            const uint32_t x = 2 * le(at + 8, 3), y = 2 * le(at + 11, 3);
            const uint32_t width = le(at + 14, 3) + 1, height = le(at + 17, 3) + 1;
            EXPECT_LE(x + width, 320u) << "frame " << frames;
            EXPECT_LE(y + height, 200u) << "frame " << frames;
            if (frames == 1) {
                EXPECT_EQ(width * height, 320u * 200u);
            }
            EXPECT_EQ(le(at + 20, 3), 33u) << "frame " << frames;
        }
        at += 8 + size + (size & 1u);
    }
    EXPECT_TRUE(anim);
    EXPECT_EQ(frames, 3);
}

// `--clips`: the crowd plays what the patterns pick (the monster's attack alone: every monster in
// wander's `act`, none walking); patterns that pick nothing of a model are refused, naming it.
TEST(Cli, CrowdClipsChoosesWhatTheCrowdPlays) {
    horde::test::TempDir dir("horde_cli");
    const std::string common = "crowd --headless --count 64 --frames 2 --width 160 --height 100 --validation --out " +
                               (dir.path / "c.png").string();
    CliRun r = runCli(common + " --clips attack --stats " + (dir.path / "s.json").string(), true);
    ASSERT_EQ(r.code, 0) << r.out;
    const json stats = json::parse(std::ifstream(dir.path / "s.json"));
    for (const json& f : stats["frames"]) {
        EXPECT_EQ(f["behaviour"]["states"]["act"], 64);
        EXPECT_EQ(f["behaviour"]["moved"], 0);
    }
    CliRun none = runCli(common + " --clips 'run*,@idle'", true);
    EXPECT_EQ(none.code, 2) << none.out;
    EXPECT_NE(none.out.find("monster: --clips run*,@idle matches none of its 2 clips (walk, attack)"), std::string::npos)
        << none.out;
}

// A clip keying nodes the model lacks is summed up in one warning for the model; --verbose adds
// the clip and the nodes, one line a clip.
TEST(Cli, VerboseListsEachClipKeyingAbsentNodes) {
    horde::test::TempDir dir("horde_cli");
    std::string clips;
    for (const auto& [name, node] : {std::pair<std::string, std::string>{"kick", "rhand"}, {"wave", "lhand"},
                                     {"nod", "head"}})
        clips += "newanim " + name + " bob\n  length 1\n  animroot bob\n  node dummy " + node +
                 "\n    parent bob\n    positionkey 1\n      0 0 0 1\n  endnode\ndoneanim " + name + " bob\n";
    std::ofstream(dir.path / "bob.mdl") << "newmodel bob\nsetsupermodel bob NULL\nbeginmodelgeom bob\n"
                                           "node dummy bob\n  parent NULL\nendnode\n"
                                           "node trimesh head\n  parent bob\n  bitmap NULL\n  verts 3\n"
                                           "    0 0 0\n    1 0 0\n    0 1 0\n  faces 1\n    0 1 2  1  0 0 0  0\n"
                                           "endnode\nendmodelgeom bob\n"
                                        << clips << "donemodel bob\n";
    const std::string convert = "convert " + (dir.path / "bob.mdl").string() + " --to gltf --out " +
                                (dir.path / "bob.glb").string();
    const std::string summary = "horde: warning: 2 of 3 clips key nodes the model lacks (rhand, lhand); those keys "
                                "are not read (`--verbose` or `horde info` lists them by clip)\n";
    CliRun quiet = runCli(convert, true);
    ASSERT_EQ(quiet.code, 0) << quiet.out;
    EXPECT_NE(quiet.out.find(summary), std::string::npos) << quiet.out;
    EXPECT_EQ(quiet.out.find("clip kick"), std::string::npos) << quiet.out;
    CliRun verbose = runCli(convert + " --verbose", true);
    ASSERT_EQ(verbose.code, 0) << verbose.out;
    EXPECT_NE(verbose.out.find(summary + "horde: warning: clip kick keys nodes the model lacks: rhand\n"
                                         "horde: warning: clip wave keys nodes the model lacks: lhand\n"),
              std::string::npos)
        << verbose.out;
    EXPECT_EQ(verbose.out.find("clip nod"), std::string::npos) << verbose.out;
}

namespace {
// A PNG horde wrote, as RGBA8 rows top-down.
horde::Image8 readPng(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    horde::HeapTextureAllocator allocator;
    horde::Result<horde::Texture> t = horde::readImage(
        path.string(), std::as_bytes(std::span(bytes.data(), bytes.size())), allocator);
    EXPECT_TRUE(t) << path;
    if (!t) return {};
    horde::Result<std::vector<uint8_t>> rgba = horde::decodeRgba8(*t);
    EXPECT_TRUE(rgba);
    return {t->width, t->height, rgba ? *rgba : std::vector<uint8_t>{}};
}

double srgbToLinear(double c) {
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double linearToSrgb(double l) {
    return l <= 0.0031308 ? 12.92 * l : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}
} // namespace

// --supersample 2 is the frame drawn at twice the width and height with each 2 x 2 block
// averaged in linear light: recomputed here in double precision from the larger frame itself.
TEST(Cli, SupersampleAveragesTheLargerFrameInLinearLight) {
    horde::test::TempDir dir("horde_cli");
    const std::string common = "crowd --headless --count 16 --frames 1 --lod off --cull off --validation";
    CliRun small = runCli(common + " --width 160 --height 100 --supersample 2 --out " + (dir.path / "s.png").string(),
                          true);
    ASSERT_EQ(small.code, 0) << small.out;
    CliRun large = runCli(common + " --width 320 --height 200 --out " + (dir.path / "l.png").string(), true);
    ASSERT_EQ(large.code, 0) << large.out;
    const horde::Image8 s = readPng(dir.path / "s.png"), l = readPng(dir.path / "l.png");
    ASSERT_EQ(s.width, 160u);
    ASSERT_EQ(s.height, 100u);
    ASSERT_EQ(l.width, 320u);
    int largest = 0;
    size_t mixed = 0; // pixels whose block holds more than one colour: where averaging shows
    for (uint32_t y = 0; y < s.height; ++y)
        for (uint32_t x = 0; x < s.width; ++x) {
            bool differs = false;
            for (size_t c = 0; c < 4; ++c) {
                double sum = 0.0;
                for (uint32_t by = 0; by < 2; ++by)
                    for (uint32_t bx = 0; bx < 2; ++bx) {
                        const uint8_t v = l.rgba[((size_t(2 * y + by) * l.width) + 2 * x + bx) * 4 + c];
                        sum += c < 3 ? srgbToLinear(v / 255.0) : double(v);
                        differs = differs || v != l.rgba[((size_t(2 * y) * l.width) + 2 * x) * 4 + c];
                    }
                const double want = c < 3 ? 255.0 * linearToSrgb(sum / 4.0) : sum / 4.0;
                largest = std::max(largest, int(std::lround(std::abs(want - s.rgba[(size_t(y) * s.width + x) * 4 + c]))));
            }
            mixed += differs;
        }
    EXPECT_LE(largest, 1);
    EXPECT_GT(mixed, 100u); // the crowd's edges: the test compares averages, not copies
}
