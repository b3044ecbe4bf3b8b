// The folder commands on a folder built here from the writers' output: a Grimrock model with its
// animations in another folder, an animation of another creature that fits nothing, a SWTOR mesh
// and its skeleton, an NWN model whose supermodel sits in another folder, a glTF, a broken file,
// a texture and a stray file. Pairing, the JSON records, shards, a conversion mirroring the tree,
// a validation report with one corrupted output, and that report in headless Chromium.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "anim/reference.h"
#include "core/png.h"
#include "loader.h"
#include "monster.h"
#include "support/glb.h"
#include "support/shell.h"
#include "support/temp_dir.h"

using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using CliRun = horde::test::Outcome;

CliRun runCli(const std::string& args) {
    return horde::test::shell(std::string(HORDE_CLI) + " " + args, false);
}

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

void writeModel(const horde::Model& model, const char* format, const fs::path& path) {
    fs::create_directories(path.parent_path());
    ASSERT_TRUE(horde::findFormat(format)->write(model, path)) << path;
}

// The files every test here starts from (see the file comment); `monsterVertices` for the counts.
class Folder : public ::testing::Test {
  protected:
    void SetUp() override {
        horde::HeapMeshAllocator allocator;
        horde::Model monster = horde::buildMonster(allocator);
        vertices = monster.meshes[0].vertexCount();
        nodes = monster.nodes.size();
        std::set<uint32_t> walked;
        for (const horde::Channel& c : monster.clips[0].channels)
            walked.insert(c.node);
        walkedNodes = walked.size();
        const fs::path src = dir.path / "src";
        // Grimrock: the animations moved into a sibling folder, as mods keep them.
        writeModel(monster, "grimrock", src / "grimrock/models/beast.model");
        fs::create_directories(src / "grimrock/animations");
        for (const char* clip : {"walk", "attack"})
            fs::rename(src / "grimrock/models" / (std::string("beast_") + clip + ".animation"),
                       src / "grimrock/animations" / (std::string("beast_") + clip + ".animation"));
        // Another creature's animation: the same motion on nodes named otherwise.
        horde::Model other = horde::buildMonster(allocator);
        for (horde::Node& n : other.nodes)
            n.name = "other_" + n.name;
        other.clips.resize(1);
        writeModel(other, "grimrock", dir.path / "scratch/other.model");
        fs::rename(dir.path / "scratch/other_walk.animation",
                   src / "grimrock/animations/other_walk.animation");
        // SWTOR: a mesh and its skeleton.
        writeModel(monster, "swtor", src / "swtor/body.gr2");
        // EMI: a mesh, its skeleton and animations in a subfolder; a copy of the mesh beside a
        // copy of the skeleton, so two skeletons fit it and neither is named after it.
        writeModel(monster, "emi", src / "emi/mk.meshb");
        fs::create_directories(src / "emi/anims");
        for (const char* clip : {"walk", "attack"})
            fs::rename(src / "emi" / (std::string("mk_") + clip + ".animb"),
                       src / "emi/anims" / (std::string("mk_") + clip + ".animb"));
        fs::create_directories(src / "emi/alt");
        fs::copy_file(src / "emi/mk.meshb", src / "emi/alt/thing.meshb");
        fs::copy_file(src / "emi/mk.sklb", src / "emi/alt/rig.sklb");
        // NWN: a model naming a supermodel that lives in another folder.
        writeModel(monster, "nwn-ascii", src / "nwn/lib/beast_base.mdl");
        horde::Model child = horde::buildMonster(allocator);
        child.clips.clear();
        writeModel(child, "nwn-ascii", src / "nwn/beast_child.mdl");
        std::string text = read(src / "nwn/beast_child.mdl");
        const std::string from = "setsupermodel beast_child NULL";
        ASSERT_NE(text.find(from), std::string::npos);
        text.replace(text.find(from), from.size(), "setsupermodel beast_child beast_base");
        write(src / "nwn/beast_child.mdl", text);
        // glTF, a broken Grimrock model (cut after its header), a texture and a stray file.
        writeModel(monster, "gltf", src / "gltf/beast.glb");
        write(src / "broken/cut.model", read(src / "grimrock/models/beast.model").substr(0, 40));
        std::vector<uint8_t> pixels(4 * 4 * 4, 200);
        fs::create_directories(src / "textures");
        ASSERT_TRUE(horde::writePng(src / "textures/stone.png", 4, 4, pixels));
        write(src / "readme.txt", "not an asset\n");
        source = src.string();
    }

    json records(const std::string& extra = "") {
        CliRun r = runCli("info " + source + " --json" + extra);
        EXPECT_EQ(r.code, 2) << "the broken file is an error";
        return json::parse(r.out);
    }

    static const json& at(const json& records, const std::string& path) {
        for (const json& r : records)
            if (r["path"] == path) return r;
        static const json none;
        ADD_FAILURE() << "no record for " << path;
        return none;
    }

    static std::set<std::string> pairs(const json& record) {
        std::set<std::string> out;
        for (const json& p : record["pairs"])
            out.insert(p["kind"].get<std::string>() + " " + p["path"].get<std::string>());
        return out;
    }

    horde::test::TempDir dir{"horde_folder"};
    std::string source;
    size_t vertices = 0, nodes = 0, walkedNodes = 0;
};

TEST_F(Folder, InfoPairsEveryKindAndReportsWhatFitsNothing) {
    json r = records();
    ASSERT_TRUE(r.is_array());
    EXPECT_EQ(r.size(), 18u);

    const json& beast = at(r, "grimrock/models/beast.model");
    EXPECT_EQ(beast["kind"], "model");
    EXPECT_EQ(beast["format"], "grimrock");
    EXPECT_EQ(pairs(beast), (std::set<std::string>{"animation grimrock/animations/beast_attack.animation",
                                                   "animation grimrock/animations/beast_walk.animation"}));
    EXPECT_EQ(beast["counts"]["vertices"], vertices);
    EXPECT_EQ(beast["counts"]["nodes"], nodes);
    EXPECT_EQ(beast["counts"]["clips"], 2);
    EXPECT_TRUE(beast["error"].is_null());

    const json& walk = at(r, "grimrock/animations/beast_walk.animation");
    EXPECT_EQ(walk["kind"], "animation");
    EXPECT_EQ(pairs(walk), std::set<std::string>{"model grimrock/models/beast.model"});
    EXPECT_EQ(walk["counts"]["keyed_nodes"], walkedNodes);

    const json& stray = at(r, "grimrock/animations/other_walk.animation");
    EXPECT_TRUE(stray["error"].is_null()) << "an animation no model fits is a warning";
    EXPECT_TRUE(stray["pairs"].empty());
    ASSERT_EQ(stray["warnings"].size(), 1u);
    EXPECT_NE(stray["warnings"][0].get<std::string>().find("fits no model"), std::string::npos);

    const json& body = at(r, "swtor/body.gr2");
    EXPECT_EQ(body["kind"], "mesh");
    EXPECT_EQ(pairs(body), std::set<std::string>{"skeleton swtor/body_skeleton.gr2"});
    EXPECT_EQ(body["counts"]["vertices"], vertices);
    EXPECT_EQ(at(r, "swtor/body_skeleton.gr2")["kind"], "skeleton");
    EXPECT_EQ(pairs(at(r, "swtor/body_skeleton.gr2")), std::set<std::string>{"mesh swtor/body.gr2"});

    const json& mk = at(r, "emi/mk.meshb");
    EXPECT_EQ(mk["kind"], "mesh");
    EXPECT_EQ(pairs(mk), (std::set<std::string>{"skeleton emi/mk.sklb", "animation emi/anims/mk_attack.animb",
                                                "animation emi/anims/mk_walk.animb"}));
    EXPECT_EQ(mk["counts"]["clips"], 2);
    const json& thing = at(r, "emi/alt/thing.meshb");
    EXPECT_TRUE(thing["pairs"].empty()) << "two skeletons fit: ambiguous, so neither is guessed";
    ASSERT_FALSE(thing["warnings"].empty());
    EXPECT_NE(thing["warnings"][0].get<std::string>().find(
                  "several skeletons fit it: emi/alt/rig.sklb, emi/mk.sklb"),
              std::string::npos)
        << thing["warnings"][0];
    EXPECT_EQ(thing["counts"]["clips"], 0);
    EXPECT_NE(at(r, "emi/alt/rig.sklb")["warnings"][0].get<std::string>().find("no mesh"), std::string::npos);

    const json& child = at(r, "nwn/beast_child.mdl");
    EXPECT_EQ(child["format"], "nwn-ascii");
    EXPECT_EQ(pairs(child), std::set<std::string>{"supermodel nwn/lib/beast_base.mdl"});
    EXPECT_EQ(child["counts"]["clips"], 2) << "both clips come from the supermodel in the other folder";

    const json& cut = at(r, "broken/cut.model");
    EXPECT_EQ(cut["kind"], "model");
    ASSERT_TRUE(cut["error"].is_string());
    EXPECT_NE(cut["error"].get<std::string>().find("offset "), std::string::npos) << cut["error"];

    EXPECT_EQ(at(r, "textures/stone.png")["kind"], "texture");
    EXPECT_EQ(at(r, "textures/stone.png")["format"], "png");
    EXPECT_EQ(at(r, "readme.txt")["kind"], "other");
    EXPECT_TRUE(at(r, "readme.txt")["format"].is_null());
}

TEST_F(Folder, InfoTextListsAnimationsUnderTheirModelAndSums) {
    CliRun r = runCli("info " + source);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.out.find("model      grimrock/models/beast.model  grimrock: " + std::to_string(nodes) +
                         " nodes, 1 mesh, " + std::to_string(vertices) +
                         " vertices, 2 clips, 4 load warnings (--json lists them)\n"
                         "  animation  grimrock/animations/beast_attack.animation\n"
                         "  animation  grimrock/animations/beast_walk.animation\n"
                         "  undefined  material 'hide' (drawn as the missing-texture checker)\n"
                         "  undefined  material 'legs' (drawn as the missing-texture checker)\n"
                         "  undefined  material 'bone' (drawn as the missing-texture checker)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("warning    grimrock/animations/other_walk.animation: fits no model"),
              std::string::npos);
    EXPECT_NE(r.out.find("error      "), std::string::npos);
    // The warnings counted are every one listed: the pairing's 3 and the load warnings of the six
    // files with any (4 + 3 + 4 + 3 + 3 + 3).
    EXPECT_NE(r.out.find("18 files: 5 models, 3 meshes, 3 skeletons, 5 animations (4 paired), 1 textures, 1 "
                         "other; 1 error, 23 warnings\n"),
              std::string::npos)
        << r.out;
}

TEST_F(Folder, ShardsCoverTheFolderExactlyOnce) {
    std::multiset<std::string> seen;
    for (int i = 1; i <= 3; ++i) {
        CliRun r = runCli("info " + source + " --json --jobs 2 --shard " + std::to_string(i) + "/3");
        for (const json& record : json::parse(r.out))
            seen.insert(record["path"].get<std::string>());
    }
    std::multiset<std::string> all;
    for (const json& record : records())
        all.insert(record["path"].get<std::string>());
    EXPECT_EQ(seen, all);
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), seen.size());
    EXPECT_NE(runCli("info " + source + " --shard 4/3").code, 0);
    EXPECT_EQ(runCli("info " + source + " --json --jobs 1").out,
              runCli("info " + source + " --json --jobs 3").out)
        << "threads change nothing but the time";
}

TEST_F(Folder, ConvertMirrorsTheTreeAndKeepsGoingPastBadFiles) {
    const fs::path out = dir.path / "out";
    CliRun r = runCli("convert " + source + " --to gltf --out " + out.string() + " --jobs 2");
    EXPECT_EQ(r.code, 2) << "one model failed";
    for (const char* written :
         {"grimrock/models/beast.glb", "swtor/body.glb", "nwn/beast_child.glb", "nwn/lib/beast_base.glb",
          "gltf/beast.glb", "emi/mk.glb", "emi/alt/thing.glb"})
        EXPECT_TRUE(fs::is_regular_file(out / written)) << written;
    EXPECT_FALSE(fs::exists(out / "broken/cut.glb"));
    json manifest = json::parse(read(out / "manifest.json"));
    EXPECT_EQ(manifest["to"], "gltf");
    EXPECT_EQ(manifest["converted"], 7);
    EXPECT_EQ(manifest["failed"], 1);
    std::map<std::string, json> bySource;
    for (const json& m : manifest["models"])
        bySource[m["source"]] = m;
    EXPECT_EQ(bySource["swtor/body.gr2"]["pairs"], json::array({"swtor/body_skeleton.gr2"}));
    EXPECT_EQ(bySource["swtor/body.gr2"]["written"], json::array({"swtor/body.glb"}));
    EXPECT_TRUE(bySource["broken/cut.model"]["error"].is_string());
    // What was written holds the pairs: the Grimrock model's two animations, the NWN supermodel's clips.
    for (const char* written : {"grimrock/models/beast.glb", "nwn/beast_child.glb", "emi/mk.glb"}) {
        horde::HeapMeshAllocator allocator;
        horde::Result<horde::Model> model = horde::loadModel(out / written, {}, allocator);
        ASSERT_TRUE(model) << model.error().message;
        EXPECT_EQ(model->clips.size(), 2u) << written;
    }
}

TEST_F(Folder, ValidateReportsTheCorruptedModelAndOpensInChromium) {
    const fs::path out = dir.path / "out", report = dir.path / "report";
    ASSERT_EQ(runCli("convert " + source + " --to gltf --out " + out.string()).code, 2);
    {
        // Corrupt one output: the glTF copy's root moved away.
        horde::HeapMeshAllocator allocator;
        horde::Result<horde::Model> model = horde::loadModel(out / "gltf/beast.glb", {}, allocator);
        ASSERT_TRUE(model);
        model->nodes[0].translation += glm::vec3(0.5f, 0.0f, 0.0f);
        ASSERT_TRUE(horde::findFormat("gltf")->write(*model, out / "gltf/beast.glb"));
    }
    const std::string options = " --width 96 --height 72 --times 0.3 --jobs 2";
    CliRun r = runCli("validate " + source + " " + out.string() + " --report " + report.string() + options);
    EXPECT_EQ(r.code, 4) << r.out;
    json j = json::parse(read(report / "report.json"));
    EXPECT_EQ(j["passed"], false);
    std::map<std::string, json> rows;
    for (const json& m : j["models"])
        rows[m["source"]] = m;
    ASSERT_EQ(rows.size(), 8u);
    EXPECT_EQ(rows["gltf/beast.glb"]["status"], "fail");
    EXPECT_GT(rows["gltf/beast.glb"]["max_position_error"].get<double>(), 0.1);
    EXPECT_EQ(rows["broken/cut.model"]["status"], "error");
    EXPECT_NE(rows["broken/cut.model"]["error"].get<std::string>().find("offset "), std::string::npos)
        << "the source's own error, with its offset";
    for (const char* good : {"grimrock/models/beast.model", "swtor/body.gr2", "nwn/beast_child.mdl",
                             "nwn/lib/beast_base.mdl", "emi/mk.meshb", "emi/alt/thing.meshb"}) {
        EXPECT_EQ(rows[good]["status"], "pass") << good << ": " << rows[good].dump();
        EXPECT_TRUE(fs::is_regular_file(report / rows[good]["report"].get<std::string>())) << good;
        for (const json& t : rows[good]["thumbnails"])
            EXPECT_TRUE(fs::is_regular_file(report / t.get<std::string>()));
    }
    const std::string page = read(report / "index.html");
    EXPECT_NE(page.find("failures only"), std::string::npos);
    EXPECT_NE(page.find("<option value=worst>worst figure</option>"), std::string::npos);

    // Two shards and their merge: the same rows.
    for (int i = 1; i <= 2; ++i)
        runCli("validate " + source + " " + out.string() + " --report " +
               (dir.path / ("shard" + std::to_string(i))).string() + options + " --shard " +
               std::to_string(i) + "/2");
    const fs::path merged = dir.path / "merged";
    EXPECT_EQ(runCli("validate " + source + " " + out.string() + " --report " + merged.string() +
                     " --merge " + (dir.path / "shard1").string() + " " + (dir.path / "shard2").string())
                  .code,
              4);
    json m = json::parse(read(merged / "report.json"));
    ASSERT_EQ(m["models"].size(), 8u);
    for (const json& row : m["models"])
        EXPECT_EQ(row["status"], rows[row["source"]]["status"]) << row["source"];
    EXPECT_TRUE(fs::is_regular_file(merged / rows["swtor/body.gr2"]["report"].get<std::string>()));

    // The pages in a real browser: no console errors, every image loaded, the filter and the sort.
    fs::create_directories(HORDE_TEST_ARTIFACTS);
    const std::string browser = std::string("node ") + HORDE_REPORT_CHECK + " " +
                                (report / "index.html").string() + " " +
                                (report / rows["swtor/body.gr2"]["report"].get<std::string>()).string() +
                                " " + HORDE_TEST_ARTIFACTS + " 2>&1";
    FILE* pipe = popen(browser.c_str(), "r");
    std::string said;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe))
        said.append(buffer, n);
    int status = pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << said;
    EXPECT_TRUE(fs::is_regular_file(fs::path(HORDE_TEST_ARTIFACTS) / "folder_report.png")) << said;
}

// Formats that keep skeletons and animations in files of their own: validate gives the per-model
// command the companions the writer wrote, so a faithful conversion passes with its clips.
TEST_F(Folder, ValidatePassesConversionsWhoseCompanionsAreFilesOfTheirOwn) {
    const fs::path out = dir.path / "out_grimrock", report = dir.path / "report_grimrock";
    ASSERT_EQ(runCli("convert " + source + " --to grimrock --out " + out.string()).code, 2);
    CliRun r = runCli("validate " + source + " " + out.string() + " --report " + report.string() +
                      " --width 64 --height 48 --times 0.3 --jobs 2");
    EXPECT_EQ(r.code, 4) << "the broken source is an error row";
    json j = json::parse(read(report / "report.json"));
    size_t passed = 0;
    for (const json& m : j["models"]) {
        if (m["source"] == "broken/cut.model") continue;
        EXPECT_EQ(m["status"], "pass") << m.dump();
        passed += m["status"] == "pass";
    }
    EXPECT_EQ(passed, 7u) << "every model but the broken one, the SWTOR body (decimetres) among them";
    const std::string log = read(report / "models/grimrock/models/beast.model/log.txt");
    EXPECT_NE(log.find("walk"), std::string::npos) << "the clips came through: " << log;
}

TEST_F(Folder, CrowdTakesEveryAnimatedModelAndSizesAMixedCrowdAlike) {
    const std::string png = (dir.path / "crowd.png").string();
    const std::string common = " --headless --count 4 --frames 1 --width 64 --height 48 --out " + png;
    CliRun one = runCli("crowd --model " + source + "/grimrock" + common);
    EXPECT_EQ(one.code, 0);
    EXPECT_NE(one.out.find("crowd model models/beast.model: 2 paired animations"), std::string::npos)
        << one.out;
    EXPECT_EQ(one.out.find("scale "), std::string::npos) << "one model keeps its file units";

    // The monster's height in the world, from its bind bounds: both copies scale by 2 / height.
    horde::HeapMeshAllocator allocator;
    horde::Model monster = horde::buildMonster(allocator);
    const horde::Bounds b = horde::bindPoseBounds(monster);
    const double factor = 2.0 / double(b.max.y - b.min.y);
    CliRun mixed = runCli("crowd --model " + source + "/grimrock " + source + "/gltf/beast.glb" + common);
    EXPECT_EQ(mixed.code, 0);
    size_t found = 0;
    for (size_t at = mixed.out.find(" x "); at != std::string::npos;
         at = mixed.out.find(" x ", at + 1), ++found)
        EXPECT_NEAR(std::stod(mixed.out.substr(at + 3)), factor, 1e-3 * factor) << mixed.out;
    EXPECT_EQ(found, 2u) << mixed.out;
    CliRun file =
        runCli("crowd --model " + source + "/grimrock " + source + "/gltf/beast.glb --units file" + common);
    EXPECT_EQ(file.code, 0);
    EXPECT_EQ(file.out.find("scale "), std::string::npos);
    EXPECT_NE(runCli("crowd --model " + source + "/textures" + common).code, 0) << "no animated model";
}

// A flat thing stood 2 tall would cover the ground (an NWN folder's 5 mm GUI button grew 400
// times): the monster squashed to a thousandth of its height spans 20 units across instead, its
// widest bind-pose extent (along Z, the same as the monster's) times the factor.
TEST_F(Folder, AFlatModelSpansTwentyAcrossInsteadOfStandingTwoTall) {
    horde::HeapMeshAllocator allocator;
    horde::Model flat = horde::buildMonster(allocator);
    const horde::Bounds b = horde::bindPoseBounds(flat);
    const float middle = 0.5f * (b.min.y + b.max.y);
    for (glm::vec3& p : flat.meshes[0].arrays().positions)
        p.y = middle + (p.y - middle) * 1e-3f;
    writeModel(flat, "gltf", dir.path / "flat/flat.glb");
    const double across = std::max(double(b.max.x - b.min.x), double(b.max.z - b.min.z));
    CliRun r = runCli("crowd --model monster --model " + (dir.path / "flat/flat.glb").string() +
                      " --headless --count 4 --frames 1 --width 64 --height 48 --out " +
                      (dir.path / "crowd.png").string());
    ASSERT_EQ(r.code, 0) << r.out;
    const size_t monster = r.out.find(" x ", r.out.find("scale monster")),
                 squashed = r.out.find(" x ", r.out.find("scale " + (dir.path / "flat").string()));
    ASSERT_NE(monster, std::string::npos) << r.out;
    ASSERT_NE(squashed, std::string::npos) << r.out;
    EXPECT_NEAR(std::stod(r.out.substr(monster + 3)), 2.0 / double(b.max.y - b.min.y), 1e-3) << r.out;
    EXPECT_NEAR(std::stod(r.out.substr(squashed + 3)), 20.0 / across, 1e-3 * 20.0 / across) << r.out;
    EXPECT_NE(r.out.find("to span 20 across"), std::string::npos) << r.out;
}

// `crowd --model DIR` on a folder of each format, binary and ASCII NWN among them, and on all of
// them at once: each model is named by its own file. The crowd of an NWN folder used the name
// typed for the folder for every model it found, printed `warning (null)` and crashed; the
// sanitizer suite runs this under AddressSanitizer.
TEST_F(Folder, CrowdRunsOnAFolderOfEachFormat) {
    horde::HeapMeshAllocator allocator;
    writeModel(horde::buildMonster(allocator), "nwn", dir.path / "src/nwn_binary/beast_bin.mdl");
    const std::string common =
        " --headless --count 16 --frames 1 --width 64 --height 48 --out " + (dir.path / "crowd.png").string();
    std::string all;
    for (const char* folder : {"grimrock", "emi", "nwn", "nwn_binary", "gltf"}) {
        SCOPED_TRACE(folder);
        const std::string path = source + "/" + folder;
        all += " --model " + path;
        CliRun r = runCli("crowd --model " + path + common);
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_EQ(r.out.find("(null)"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("crowd: 16 instances"), std::string::npos) << r.out;
    }
    CliRun r = runCli("crowd" + all + common);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(r.out.find("(null)"), std::string::npos) << r.out;
}

// A glTF that requires an extension horde does not read is refused by its name in the folder
// commands too: `info DIR` shows it as the file's error, and `crowd --model DIR` leaves the file
// out saying why, on stderr (it said "no clips, left out").
TEST_F(Folder, AnUnreadRequiredExtensionIsNamedByTheFolderCommands) {
    const fs::path folder = dir.path / "src/gltf";
    horde::test::Glb glb = horde::test::Glb::read(folder / "beast.glb");
    glb.doc["extensionsUsed"] = {"KHR_texture_basisu"};
    glb.doc["extensionsRequired"] = {"KHR_texture_basisu"};
    glb.write(folder / "basisu.glb");
    const std::string why = (folder / "basisu.glb").string() +
                            ": requires glTF extension KHR_texture_basisu, which horde does not read";
    CliRun info = runCli("info " + folder.string());
    EXPECT_NE(info.out.find("error      " + why), std::string::npos) << info.out;
    CliRun crowd = horde::test::shell(std::string(HORDE_CLI) + " crowd --model " + folder.string() +
                                      " --headless --count 4 --frames 1 --width 64 --height 48 --out " +
                                      (dir.path / "crowd.png").string());
    EXPECT_EQ(crowd.code, 0) << crowd.out;
    EXPECT_NE(crowd.out.find("horde: basisu.glb: " + why + ", left out"), std::string::npos) << crowd.out;
    EXPECT_NE(crowd.out.find("crowd model beast.glb"), std::string::npos) << crowd.out;
}

// --anim after a --model completes that model alone; before any --model, every model.
TEST_F(Folder, CompanionsBelongToTheModelTheyFollow) {
    const std::string model = source + "/grimrock/models/beast.model";
    const std::string walk = source + "/grimrock/animations/beast_walk.animation";
    const std::string common = " --headless --count 4 --frames 1 --width 64 --height 48 --out " +
                               (dir.path / "crowd.png").string() + " --stats " +
                               (dir.path / "stats.json").string();
    CliRun own = runCli("crowd --model " + model + " --anim " + walk + " --model monster" + common);
    ASSERT_EQ(own.code, 0) << own.out;
    const json stats = json::parse(read(dir.path / "stats.json"));
    ASSERT_EQ(stats["models"].size(), 2u);
    EXPECT_EQ(stats["models"][0]["name"], "beast");
    EXPECT_EQ(stats["models"][1]["name"], "monster");
    // Given before any --model, the animation is the monster's too, which takes none.
    CliRun shared = horde::test::shell(std::string(HORDE_CLI) + " crowd --anim " + walk + " --model " +
                                       model + " --model monster" + common);
    EXPECT_EQ(shared.code, 2);
    EXPECT_NE(shared.out.find("monster: --skeleton and --anim need a model file"), std::string::npos)
        << shared.out;
}

// A Grimrock mod as the game holds it: models under mod_assets/models, the materials in a Lua
// script under mod_assets/scripts naming textures by their path from the mod's root. The folder
// commands read the scripts and textures inside the folder they are given, and take --search-path
// (the root, mod_assets or any folder inside) and --materials as the single-file ones do: the
// texture is found, embedded by convert and compared by validate; what is still missing is a
// warning in the manifest and the summary. A --materials file without definitions reads none.
TEST(FolderMod, LuaMaterialsAndTexturesAreFoundThroughSearchPaths) {
    horde::test::TempDir dir("horde_folder_mod");
    const fs::path mod = dir.path / "mod", assets = mod / "mod_assets";
    horde::HeapMeshAllocator allocator;
    horde::Model monster = horde::buildMonster(allocator);
    monster.clips.resize(1);
    writeModel(monster, "grimrock", assets / "models/beast.model");
    write(assets / "scripts/materials.lua",
          "defineMaterial{\n  name = \"hide\",\n  diffuseMap = \"mod_assets/textures/hide_dif.tga\",\n}\n"
          "defineMaterial{\n  name = \"legs\",\n  diffuseMap = \"mod_assets/textures/legs_dif.tga\",\n}\n");
    // A 2 x 3 true-colour TGA (image type 2, 24 bits), rows bottom-up; legs_dif is not there.
    std::string tga(18, '\0');
    tga[2] = 2;
    tga[12] = 2;
    tga[14] = 3;
    tga[16] = 24;
    tga += std::string(2 * 3 * 3, '\x50');
    write(assets / "textures/hide_dif.tga", tga);

    auto beast = [](const CliRun& r) {
        json found;
        for (const json& record : json::parse(r.out))
            if (record["path"] == "models/beast.model") found = record;
        return found;
    };
    const fs::path none = dir.path / "none.lua";
    write(none, "-- no materials here\n");
    const json bare = beast(runCli("info " + assets.string() + " --json --materials " + none.string()));
    EXPECT_EQ(bare["undefined_materials"], json::array({"hide", "legs", "bone"})) << bare.dump();
    for (const std::string& options : {std::string(), " --search-path " + assets.string(), " --search-path " + mod.string(),
                                       " --materials " + (assets / "scripts/materials.lua").string() +
                                           " --search-path " + (assets / "textures").string()}) {
        const json r = beast(runCli("info " + assets.string() + " --json" + options));
        EXPECT_EQ(r["undefined_materials"], json::array({"bone"})) << options;
        EXPECT_EQ(r["missing_textures"], json::parse(R"([{"path": "mod_assets/textures/legs_dif.tga",
                                                          "material": "legs", "slot": "base"}])"))
            << options;
    }

    const fs::path out = dir.path / "out", lost = dir.path / "lost";
    CliRun converted = runCli("convert " + assets.string() + " --to gltf --out " + out.string() +
                              " --search-path " + assets.string());
    EXPECT_EQ(converted.code, 0) << converted.out;
    EXPECT_NE(
        converted.out.find("1 models converted to gltf, 0 failed, 1 with warnings (1 texture reference not "
                           "found, in 1 model)"),
        std::string::npos)
        << converted.out;
    const json manifest = json::parse(read(out / "manifest.json"));
    const std::string warnings = manifest["models"][0]["warnings"].dump();
    EXPECT_NE(warnings.find("legs_dif.tga' not found"), std::string::npos) << warnings;
    EXPECT_NE(warnings.find("material 'bone' is defined nowhere horde read"), std::string::npos) << warnings;
    EXPECT_EQ(horde::test::Glb::read(out / "models/beast.glb").doc["images"].size(), 1u);
    ASSERT_EQ(runCli("convert " + assets.string() + " --to gltf --out " + lost.string() + " --materials " + none.string())
                  .code,
              0);
    EXPECT_FALSE(horde::test::Glb::read(lost / "models/beast.glb").doc.contains("images"));

    // validate with the same search path: the kept texture passes, the lost one fails.
    const std::string options = " --width 64 --height 48 --times 0.3 --search-path " + assets.string();
    CliRun kept = runCli("validate " + assets.string() + " " + out.string() + " --report " +
                         (dir.path / "kept").string() + options);
    EXPECT_EQ(kept.code, 0) << kept.out;
    EXPECT_NE(read(dir.path / "kept/models/models/beast.model/log.txt")
                  .find("textures       pass  1 texture compared"),
              std::string::npos);
    // Not on a terminal, each finished model is a line of its own (a CI log shows the run moving).
    const CliRun logged =
        horde::test::shell(std::string(HORDE_CLI) + " validate " + assets.string() + " " + out.string() +
                           " --report " + (dir.path / "logged").string() + options);
    EXPECT_NE(logged.out.find("[1/1] pass   models/beast.model  "), std::string::npos) << logged.out;
    EXPECT_NE(logged.out.find(" s  worst: "), std::string::npos) << logged.out;
    CliRun failed = runCli("validate " + assets.string() + " " + lost.string() + " --report " +
                           (dir.path / "lost_report").string() + options);
    EXPECT_EQ(failed.code, 4) << failed.out;
    const json row = json::parse(read(dir.path / "lost_report/report.json"))["models"][0];
    EXPECT_EQ(row["failed_checks"], json::array({"textures"})) << row.dump();

    // A crowd of the folder reads the same definitions.
    const std::string crowd =
        " --headless --count 2 --frames 1 --width 64 --height 48 --out " + (dir.path / "crowd.png").string();
    CliRun without = runCli("crowd --model " + assets.string() + " --materials " + none.string() + crowd);
    EXPECT_NE(without.out.find("material 'hide' is defined nowhere horde read"), std::string::npos)
        << without.out;
    for (const std::string& given : {std::string(), " --search-path " + assets.string()}) {
        CliRun with = runCli("crowd --model " + assets.string() + given + crowd);
        EXPECT_EQ(with.code, 0) << with.out;
        EXPECT_EQ(with.out.find("material 'hide' is defined nowhere horde read"), std::string::npos) << with.out;
        EXPECT_NE(with.out.find("material 'bone' is defined nowhere horde read"), std::string::npos) << with.out;
    }
}

} // namespace
