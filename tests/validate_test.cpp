// glTF export as users run it: the Khronos glTF-Validator on every exported file, `horde validate`
// passing a faithful conversion and failing a broken one, and every registered writer's output
// converted on to glTF, re-imported and validated against the file it came from.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file.h"
#include "loader.h"
#include "monster.h"
#include "support/glb.h"
#include "support/shell.h"
#include "support/temp_dir.h"

using nlohmann::json;

namespace horde {
namespace {

using test::Outcome;
using test::quote;
using test::shell;

Outcome horde(const std::string& args) {
    return shell(std::string(HORDE_CLI) + " " + args);
}

struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_validate") {}
};

void expectKhronosValid(const std::filesystem::path& file) {
    Outcome r = shell("node " + quote(std::filesystem::path(HORDE_SOURCE_DIR) / "scripts/gltf-validate.mjs") +
                      " " + quote(file));
    ASSERT_NE(r.code, 2) << "the Khronos validator did not run (scripts/setup --test installs it):\n" << r.out;
    json report = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(report.is_discarded()) << r.out;
    EXPECT_EQ(report["issues"]["numErrors"], 0) << file << ":\n" << report["issues"].dump(2).substr(0, 4000);
    EXPECT_EQ(r.code, 0);
    // Skinned meshes hang on root nodes without transforms: not even a warning is left.
    EXPECT_EQ(report["issues"]["numWarnings"], 0) << file << ":\n"
                                                  << report["issues"].dump(2).substr(0, 4000);
}

// The monster's 11 poses (the bind pose, two clips at five times): by default 8 are pictured, the
// bind pose and the middles of seven equal runs of the other ten (choosePictured: 1 + (2k+1)*10/14
// = 1, 3, 4, 6, 7, 8, 10), so poses 2, 5 and 9 are compared by their positions only; with
// --pictures all, every pose.
TEST(Validate, MonsterExportIsValidGltfAndPasses) {
    const TempDir temp;
    for (const char* name : {"monster.glb", "monster.gltf"}) {
        const bool all = std::string(name) == "monster.gltf";
        std::filesystem::path out = temp.path / name, report = temp.path / (std::string(name) + "_report");
        ASSERT_EQ(horde("convert monster --to gltf --out " + quote(out)).code, 0);
        expectKhronosValid(out);
        Outcome r = horde("validate monster " + quote(out) + " --report " + quote(report) +
                          (all ? " --pictures all" : ""));
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_TRUE(std::filesystem::exists(report / "index.html"));
        json j = json::parse(std::ifstream(report / "report.json"));
        EXPECT_EQ(j["passed"], true);
        ASSERT_EQ(j["poses"].size(), 11u);
        for (size_t i = 0; i < j["poses"].size(); ++i) {
            const json& pose = j["poses"][i];
            EXPECT_LT(pose["max_position_error"].get<double>(), 1e-5) << pose.dump();
            const bool pictured = all || (i != 2 && i != 5 && i != 9);
            EXPECT_EQ(pose["pictured"], pictured) << i;
            EXPECT_EQ(pose.contains("differing_pixels_percent"), pictured) << i;
            EXPECT_EQ(pose["passed"], true) << i;
            // One model alone: every pictured pose's pictures, written as it was compared.
            for (const char* view : {"", "uv_", "normals_"})
                for (const char* side : {"a_", "b_", "diff_"}) {
                    const std::string png = std::string(view) + side + std::to_string(i) + ".png";
                    EXPECT_EQ(std::filesystem::exists(report / png), pictured) << png;
                }
        }
    }
}

// With the pictures of failures only (a folder's models), a passing pose's are never written:
// the bind pose's alone are.
TEST(Validate, PassingPosesPicturesAreLeftOutWhenAsked) {
    const TempDir temp;
    const std::filesystem::path out = temp.path / "monster.glb", report = temp.path / "report";
    ASSERT_EQ(horde("convert monster --to gltf --out " + quote(out)).code, 0);
    Outcome r = horde("validate monster " + quote(out) + " --report-images failures --report " + quote(report));
    ASSERT_EQ(r.code, 0) << r.out;
    const json j = json::parse(std::ifstream(report / "report.json"));
    ASSERT_GT(j["poses"].size(), 1u);
    for (size_t i = 0; i < j["poses"].size(); ++i) {
        EXPECT_EQ(j["poses"][i]["images"], i == 0) << i;
        EXPECT_EQ(std::filesystem::exists(report / ("a_" + std::to_string(i) + ".png")), i == 0) << i;
        EXPECT_EQ(std::filesystem::exists(report / ("normals_diff_" + std::to_string(i) + ".png")), i == 0)
            << i;
    }
}

// The NWN writers add the model's root and cut a multi-material (or many-boned) mesh into one
// node per piece: validate reports exactly that as a mapping, merges the pieces back, and passes.
// The source is the monster without its non-uniform scale channels, which the format's one-float
// scale cannot hold (docs/formats/nwn.md, "Loss"); with them only those poses differ.
TEST(Validate, NwnConversionsPassWithTheirDocumentedMapping) {
    const TempDir temp;
    HeapMeshAllocator allocator;
    Model monster = buildMonster(allocator);
    for (Clip& clip : monster.clips)
        std::erase_if(clip.channels, [](const Channel& c) {
            if (c.path != ChannelPath::Scale) return false;
            for (glm::vec4 v : c.values)
                if (v.x != v.y || v.x != v.z) return true;
            return false;
        });
    const std::filesystem::path source = temp.path / "uniform.glb";
    ASSERT_TRUE(findFormat("gltf")->write(monster, source));
    for (const char* format : {"nwn", "nwn-ascii"}) {
        SCOPED_TRACE(format);
        const std::filesystem::path dir = temp.path / format, out = dir / "beast.mdl";
        std::filesystem::create_directories(dir);
        ASSERT_EQ(horde("convert " + quote(source) + " --to " + format + " --out " + quote(out)).code, 0);
        Outcome r = horde("validate " + quote(source) + " " + quote(out) + " --times 0.3 --width 160 --height 120 --report " +
                          quote(dir / "report"));
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_NE(r.out.find("hierarchy      pass"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("NWN mapping: root 'beast' (the model's name) added above"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("further mesh piece(s) as child nodes 'root_1'"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("joints         pass"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("vertex counts  pass"), std::string::npos) << r.out;
        // The built-in monster itself: the same structure checks pass.
        const std::filesystem::path own = dir / "monster.mdl";
        ASSERT_EQ(horde(std::string("convert monster --to ") + format + " --out " + quote(own)).code, 0);
        Outcome m = horde("validate monster " + quote(own) + " --times 0 --width 160 --height 120 --report " +
                          quote(dir / "monster_report"));
        EXPECT_EQ(m.code, 0) << m.out;
        EXPECT_NE(m.out.find("hierarchy      pass"), std::string::npos) << m.out;
    }
}

// EMI and SWTOR change the tree in documented ways: the EMI reader gives the mesh a root node of
// its own, and a SWTOR mesh lists only the bones its vertices weigh. validate names both and the
// structure passes; the bind pose (no clip: SWTOR's writer writes none, EMI's none with scale)
// matches.
TEST(Validate, EmiAndSwtorConversionsPassTheirStructureWithAMapping) {
    const TempDir temp;
    ASSERT_EQ(horde("convert monster --to emi --out " + quote(temp.path / "m.meshb")).code, 0);
    Outcome emi = horde("validate monster " + quote(temp.path / "m.meshb") + " --other-skeleton " +
                        quote(temp.path / "m.sklb") + " --times 0 --width 160 --height 120");
    EXPECT_NE(
        emi.out.find("hierarchy      pass  80 nodes, same names and parents; EMI mapping: root 'monster'"),
        std::string::npos)
        << emi.out;
    EXPECT_NE(emi.out.find("joints         pass  80 joints"), std::string::npos) << emi.out;
    EXPECT_NE(emi.out.find("bind pose                pass"), std::string::npos) << emi.out;

    ASSERT_EQ(horde("convert monster --to swtor --out " + quote(temp.path / "m.gr2")).code, 0);
    Outcome swtor = horde("validate monster " + quote(temp.path / "m.gr2") + " --other-skeleton " +
                          quote(temp.path / "m_skeleton.gr2") + " --times 0 --width 160 --height 120");
    EXPECT_NE(swtor.out.find("hierarchy      pass"), std::string::npos) << swtor.out;
    EXPECT_NE(swtor.out.find("joints         pass  79 joints in 1 skins, same names in order; 1 joint(s) no "
                             "vertex weighs only in monster: 'root'"),
              std::string::npos)
        << swtor.out;
    EXPECT_NE(swtor.out.find("bind pose                pass"), std::string::npos) << swtor.out;
}

// Vertex colours from an NWN ASCII file survive the glTF writer: validate compares them.
TEST(Validate, NwnVertexColoursConvertToGltf) {
    const TempDir temp;
    const std::filesystem::path mdl = temp.path / "painted.mdl", glb = temp.path / "painted.glb";
    std::ofstream(mdl) << "newmodel painted\nsetsupermodel painted NULL\nbeginmodelgeom painted\n"
                          "node dummy painted\n  parent NULL\nendnode\nnode trimesh quad\n  parent painted\n"
                          "  bitmap paint\n  verts 4\n    0 0 0\n    1 0 0\n    1 1 0\n    0 1 0\n"
                          "  faces 2\n    0 1 2  1  0 0 0  0\n    0 2 3  1  0 0 0  0\n"
                          "  colors 4\n    1 0 0\n    0 1 0\n    0 0 1\n    0.25 0.5 0.75\nendnode\n"
                          "endmodelgeom painted\ndonemodel painted\n";
    ASSERT_EQ(horde("convert " + quote(mdl) + " --to gltf --out " + quote(glb)).code, 0);
    Outcome r = horde("validate " + quote(mdl) + " " + quote(glb) + " --width 160 --height 120 --report " +
                      quote(temp.path / "report"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("vertex colors  pass"), std::string::npos) << r.out;
}

TEST(Validate, ABrokenInverseBindFails) {
    const TempDir temp;
    std::filesystem::path good = temp.path / "good.glb", broken = temp.path / "broken.glb",
                          report = temp.path / "broken_report";
    ASSERT_EQ(horde("convert monster --to gltf --out " + quote(good)).code, 0);
    HeapMeshAllocator allocator;
    Result<Model> model = loadModel(good, {}, allocator);
    ASSERT_TRUE(model) << model.error().message;
    // One joint's bind moved by a tenth of a unit: everything it drives lands elsewhere.
    glm::mat4& inverseBind = model->skins[0].inverseBind[5];
    inverseBind[3] += glm::vec4(0.1f, 0.0f, 0.0f, 0.0f);
    ASSERT_TRUE(gltfFormat().write(*model, broken));
    expectKhronosValid(broken);
    Outcome r = horde("validate monster " + quote(broken) + " --report " + quote(report));
    EXPECT_EQ(r.code, 4) << r.out;
    json j = json::parse(std::ifstream(report / "report.json"));
    EXPECT_EQ(j["passed"], false);
    for (const json& c : j["checks"])
        EXPECT_EQ(c["passed"], true) << c.dump(); // same structure...
    EXPECT_EQ(j["poses"][0]["passed"], false);    // ...posed elsewhere
    EXPECT_GT(j["poses"][0]["max_position_error"].get<double>(), 1e-3);
    // Thresholds are the user's: loose enough, the same files pass.
    EXPECT_EQ(
        horde("validate monster " + quote(broken) + " --max-position-error 1 --max-differing-pixels 100")
            .code,
        0);
}

// What the monster alone never exercises, all at once: Z-up left-handed centimetres (converted
// axes, flipped winding), a wrapping clip with a cubic channel (the appended key and chord
// tangents), a jump written as a repeated key time (made strictly increasing).
TEST(Validate, UnusualExportsAreValidGltf) {
    const TempDir temp;
    HeapMeshAllocator allocator;
    Model m = buildMonster(allocator);
    m.axes.up = Axes::Up::Z;
    m.axes.leftHanded = true;
    m.axes.metresPerUnit = 0.01f;
    Clip& walk = m.clips[0];
    walk.end = ClipEnd::WrapToFirst;
    walk.duration = 1.2f;
    for (Channel& c : walk.channels) {
        if (c.path == ChannelPath::Rotation) continue;
        std::vector<glm::vec4> values;
        for (glm::vec4 v : c.values)
            values.insert(values.end(), {glm::vec4(0.5f, 0, 0, 0), v, glm::vec4(0, -0.5f, 0, 0)});
        c.values = values;
        c.interpolation = Interpolation::CubicSpline;
        break;
    }
    Channel jump;
    jump.node = 3;
    jump.times = {0.0f, 0.5f, 0.5f, 1.0f};
    jump.values = {glm::vec4(0), glm::vec4(0), glm::vec4(0, 1, 0, 0), glm::vec4(0, 2, 0, 0)};
    m.clips[1].channels.push_back(jump);
    for (const char* name : {"unusual.glb", "unusual.gltf"}) {
        std::filesystem::path out = temp.path / name;
        ASSERT_TRUE(gltfFormat().write(m, out));
        expectKhronosValid(out);
    }
}

TEST(Validate, BadInputExitsTwo) {
    const TempDir temp;
    std::filesystem::path good = temp.path / "bad_input.glb";
    ASSERT_EQ(horde("convert monster --to gltf --out " + quote(good)).code, 0);
    EXPECT_EQ(horde("validate monster /nonexistent/x.glb").code, 2);
    EXPECT_EQ(horde("validate monster " + quote(good) + " --clip nosuchclip").code, 2);
    Outcome help = horde("validate --help");
    EXPECT_NE(help.out.find("4 fail"), std::string::npos) << help.out;
    for (const char* command : {"pose", "render"}) { // --time at a clip's duration: its last key
        Outcome time = horde(std::string(command) + " --help");
        EXPECT_NE(time.out.find("the end is inclusive"), std::string::npos) << time.out;
    }
}

// ---- Every registered writer: monster -> format -> glTF ----

// Where the writer puts its main file: its declared extension, else the first one its description
// names under which its own detect() accepts what it wrote.
std::string mainExtension(const Format& f, const std::filesystem::path& dir) {
    if (f.extension) return f.extension;
    std::filesystem::path probe = dir / "probe" / "monster.out";
    std::filesystem::create_directories(probe.parent_path());
    if (horde("convert monster --to " + std::string(f.id) + " --out " + quote(probe)).code != 0)
        return ".out";
    Result<MappedFile> file = MappedFile::open(probe);
    if (!file) return ".out";
    std::string d = f.description;
    for (size_t at = d.find('.'); at != std::string::npos; at = d.find('.', at + 1)) {
        size_t end = at + 1;
        while (end < d.size() && std::isalnum(static_cast<unsigned char>(d[end])))
            ++end;
        std::string ext = d.substr(at, end - at);
        if (ext.size() > 1 && f.detect("monster" + ext, file->bytes())) return ext;
    }
    return ".out";
}

// What the writer wrote beside its main file, sorted into --skeleton and --anim by trying them:
// a skeleton is what the main file needs to load (or gains nodes from), an animation adds clips.
struct Beside {
    std::string skeleton;
    std::vector<std::string> anims;
    std::vector<std::string> unknown;
    std::string flags() const {
        std::string s = skeleton.empty() ? "" : " --skeleton " + quote(skeleton);
        for (const std::string& a : anims)
            s += " --anim " + quote(a);
        return s;
    }
};

Beside classify(const std::filesystem::path& main) {
    std::vector<std::string> others;
    for (const auto& entry : std::filesystem::directory_iterator(main.parent_path()))
        if (entry.is_regular_file() && entry.path() != main) others.push_back(entry.path().string());
    std::sort(others.begin(), others.end());
    HeapMeshAllocator allocator;
    Result<Model> alone = loadModel(main, {}, allocator);
    Beside c;
    for (const std::string& o : others) {
        LoadOptions options;
        options.skeleton = o;
        Result<Model> with = loadModel(main, options, allocator);
        if (with && (!alone || with->nodes.size() > alone->nodes.size())) {
            c.skeleton = o;
            break;
        }
    }
    for (const std::string& o : others) {
        if (o == c.skeleton) continue;
        LoadOptions options;
        options.skeleton = c.skeleton;
        options.anims = {o};
        Result<Model> with = loadModel(main, options, allocator);
        if (with && !with->clips.empty() && !with->clips.back().source.empty())
            c.anims.push_back(o);
        else
            c.unknown.push_back(o);
    }
    return c;
}

TEST(Validate, EveryWriterConvertsOnToGltf) {
    const TempDir temp;
    size_t tested = 0;
    for (const Format* f : formats()) {
        if (!f->write || std::string(f->id) == "gltf") continue;
        SCOPED_TRACE(f->id);
        ++tested;
        std::filesystem::path dir = temp.path / "formats" / f->id;
        std::filesystem::remove_all(dir);
        std::filesystem::path main = dir / "source" / ("monster" + mainExtension(*f, dir));
        std::filesystem::create_directories(main.parent_path());
        Outcome wrote = horde("convert monster --to " + std::string(f->id) + " --out " + quote(main));
        ASSERT_EQ(wrote.code, 0) << wrote.out;
        Beside companions = classify(main);
        EXPECT_TRUE(companions.unknown.empty())
            << "files the test could not place: " << companions.unknown.front();

        std::filesystem::path glb = dir / "monster.glb";
        Outcome converted =
            horde("convert " + quote(main) + companions.flags() + " --to gltf --out " + quote(glb));
        ASSERT_EQ(converted.code, 0) << converted.out;
        expectKhronosValid(glb);

        HeapMeshAllocator allocator;
        LoadOptions options;
        options.skeleton = companions.skeleton;
        for (const std::string& a : companions.anims)
            options.anims.emplace_back(a);
        Result<Model> source = loadModel(main, options, allocator);
        Result<Model> back = loadModel(glb, {}, allocator);
        ASSERT_TRUE(source) << source.error().message;
        ASSERT_TRUE(back) << back.error().message;
        ASSERT_EQ(back->nodes.size(), source->nodes.size());
        ASSERT_EQ(back->meshes.size(), source->meshes.size());
        for (size_t m = 0; m < source->meshes.size(); ++m)
            EXPECT_EQ(back->meshes[m].vertexCount(), source->meshes[m].vertexCount());
        ASSERT_EQ(back->clips.size(), source->clips.size());
        for (size_t c = 0; c < source->clips.size(); ++c) {
            EXPECT_EQ(back->clips[c].name, source->clips[c].name);
            ASSERT_EQ(back->clips[c].channels.size(), source->clips[c].channels.size());
            for (size_t i = 0; i < source->clips[c].channels.size(); ++i) {
                // Every source key is in the export at its exact time (glTF may add a wrap key).
                const std::vector<float>& a = source->clips[c].channels[i].times;
                const std::vector<float>& b = back->clips[c].channels[i].times;
                for (float t : a)
                    EXPECT_TRUE(std::find(b.begin(), b.end(), t) != b.end() ||
                                std::find(b.begin(), b.end(), std::nextafter(t, 0.0f)) != b.end())
                        << source->clips[c].name << " channel " << i << " lost key " << t;
            }
        }
        Outcome validated = horde("validate " + quote(main) + " " + quote(glb) + companions.flags() +
                                  " --report " + quote(dir / "report"));
        EXPECT_EQ(validated.code, 0) << validated.out;
    }
    std::printf("formats with writers tested: %zu\n", tested);
}

// ---- Every registered writer: its conversion on to glTF, corrupted ----

struct Corruption {
    const char* name;
    std::function<void(test::Glb&)> edit;
    const char* message;   // what the output must name
    bool uvPixels = false; // must fail on the UV checker's pixels as well
};

const Corruption kCorruptions[] = {
    {"uv_flipped",
     [](test::Glb& g) { g.editAttribute<2>("TEXCOORD_0", [](float* uv) { uv[1] = 1.0f - uv[1]; }); },
     "B's is A's flipped (v -> 1 - v)", true},
    {"uv_swapped",
     [](test::Glb& g) { g.editAttribute<2>("TEXCOORD_0", [](float* uv) { std::swap(uv[0], uv[1]); }); },
     "B's is A's swapped (u <-> v)", true},
    {"uv_offset", [](test::Glb& g) { g.editAttribute<2>("TEXCOORD_0", [](float* uv) { uv[0] += 0.5f; }); },
     "B's is A's offset by half a tile in u"},
    {"normals_rotated",
     [](test::Glb& g) {
         g.editAttribute<3>("NORMAL", [](float* n) {
             float y = n[1];
             n[1] = -n[2], n[2] = y;
         });
     },
     "normals differ, by up to 90"},
    {"materials_swapped", [](test::Glb& g) { ASSERT_TRUE(g.swapTwoMaterials()); }, "materials      FAIL"},
    {"weights_moved",
     [](test::Glb& g) {
         g.editJoints([](uint16_t* j) {
             bool hasSix = j[0] == 6 || j[1] == 6 || j[2] == 6 || j[3] == 6;
             for (int k = 0; k < 4; ++k)
                 if (j[k] == 5 && !hasSix) j[k] = 6;
         });
     },
     "skin weights   FAIL"},
    {"clip_time_scaled", [](test::Glb& g) { g.scaleClip(0, 2.0f); }, "' lasts "},
};

std::vector<std::string> writerIds() {
    std::vector<std::string> out;
    for (const Format* f : formats())
        if (f->write) out.emplace_back(f->id);
    return out;
}

class WriterCorruptions : public ::testing::TestWithParam<std::string> {};

// Each corruption kind the monster can show, made in the glTF converted from each writer's file,
// fails against that file with a message naming what differs.
TEST_P(WriterCorruptions, EachKindFailsNamingWhatDiffers) {
    const TempDir temp;
    const Format* f = nullptr;
    for (const Format* candidate : formats())
        if (candidate->id == GetParam()) f = candidate;
    ASSERT_TRUE(f);
    std::filesystem::path main = temp.path / "source" / ("monster" + mainExtension(*f, temp.path));
    std::filesystem::create_directories(main.parent_path());
    ASSERT_EQ(horde("convert monster --to " + GetParam() + " --out " + quote(main)).code, 0);
    Beside companions = classify(main);
    std::filesystem::path glb = temp.path / "converted.glb";
    ASSERT_EQ(horde("convert " + quote(main) + companions.flags() + " --to gltf --out " + quote(glb)).code,
              0);
    std::string small = " --times 0.3 --width 240 --height 180";
    for (const Corruption& c : kCorruptions) {
        SCOPED_TRACE(c.name);
        test::Glb g = test::Glb::read(glb);
        if (std::string(c.name) == "clip_time_scaled" && !g.doc.contains("animations"))
            continue; // SWTOR: no clips
        c.edit(g);
        std::filesystem::path broken = temp.path / (std::string(c.name) + ".glb"),
                              report = temp.path / (std::string(c.name) + "_report");
        g.write(broken);
        Outcome r = horde("validate " + quote(main) + " " + quote(broken) + companions.flags() + small +
                          " --report " + quote(report));
        EXPECT_EQ(r.code, 4) << r.out;
        EXPECT_NE(r.out.find(c.message), std::string::npos) << "no '" << c.message << "' in:\n" << r.out;
        if (!c.uvPixels) continue;
        json j = json::parse(std::ifstream(report / "report.json"));
        for (const json& pose : j["poses"]) {
            if (pose["pictured"] == true) {
                EXPECT_GT(pose["views"]["uv"]["differing_pixels_percent"].get<double>(), 1.0) << pose.dump();
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Formats, WriterCorruptions, ::testing::ValuesIn(writerIds()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                             std::string name = param.param; // gtest names: letters, digits, underscores
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

} // namespace
} // namespace horde
