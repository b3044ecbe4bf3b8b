// `horde validate` on hand-made files, as users run it: it fails what a conversion lost (a base
// texture on one side only) and passes what is faithful though it looks different: a material
// renamed by the target format, clips that key nothing, node names that repeat, and normals the
// source holds as zero, which the writer has to replace.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/png.h"
#include "support/glb.h"
#include "support/morph_triangle.h"
#include "support/shell.h"
#include "support/temp_dir.h"

using nlohmann::json;

namespace horde {
namespace {

using test::Outcome;
using test::quote;

Outcome horde(const std::string& args) {
    return test::shell(std::string(HORDE_CLI) + " " + args);
}

struct TempDir : test::TempDir {
    TempDir() : test::TempDir("horde_validate_faithful") {}
};

// Small renders at the bind pose and one time: what is compared here is the checks, not the art.
const std::string kQuick = " --times 0 --width 64 --height 48";

void appendFloats(std::vector<uint8_t>& bin, std::initializer_list<float> values) {
    for (float v : values) {
        const auto* raw = reinterpret_cast<const uint8_t*>(&v);
        bin.insert(bin.end(), raw, raw + 4);
    }
}

json view(size_t offset, size_t length) {
    return {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}};
}

// One triangle with positions, normals and texture coordinates, material "skin"; with `png` its
// base colour texture is that image, stored in the binary chunk. `normal` is every vertex's.
test::Glb triangle(const std::vector<uint8_t>& png, float normal = 1.0f) {
    test::Glb g;
    appendFloats(g.bin, {0, 0, 0, 1, 0, 0, 0, 1, 0});                // 0: positions
    appendFloats(g.bin, {0, 0, normal, 0, 0, normal, 0, 0, normal}); // 36: normals
    appendFloats(g.bin, {0, 0, 1, 0, 0, 1});                         // 72: texture coordinates
    g.bin.insert(g.bin.end(), {0, 0, 1, 0, 2, 0, 0, 0});             // 96: indices 0 1 2, padded
    json material = {{"name", "skin"}};
    g.doc = {{"asset", {{"version", "2.0"}}},
             {"scene", 0},
             {"scenes", {{{"nodes", {0}}}}},
             {"nodes", {{{"name", "tri"}, {"mesh", 0}}}},
             {"meshes",
              {{{"primitives",
                 {{{"attributes", {{"POSITION", 0}, {"NORMAL", 1}, {"TEXCOORD_0", 2}}},
                   {"indices", 3},
                   {"material", 0}}}}}}},
             {"accessors",
              {{{"bufferView", 0},
                {"componentType", 5126},
                {"count", 3},
                {"type", "VEC3"},
                {"min", {0, 0, 0}},
                {"max", {1, 1, 0}}},
               {{"bufferView", 1}, {"componentType", 5126}, {"count", 3}, {"type", "VEC3"}},
               {{"bufferView", 2}, {"componentType", 5126}, {"count", 3}, {"type", "VEC2"}},
               {{"bufferView", 3}, {"componentType", 5123}, {"count", 3}, {"type", "SCALAR"}}}},
             {"bufferViews", {view(0, 36), view(36, 36), view(72, 24), view(96, 6)}}};
    if (!png.empty()) {
        const size_t at = g.bin.size();
        g.bin.insert(g.bin.end(), png.begin(), png.end());
        g.doc["bufferViews"].push_back(view(at, png.size()));
        g.doc["images"] = {{{"bufferView", 4}, {"mimeType", "image/png"}}};
        g.doc["textures"] = {{{"source", 0}}};
        material["pbrMetallicRoughness"] = {{"baseColorTexture", {{"index", 0}}}};
    }
    g.doc["materials"] = json::array({material}); // `{material}` alone is the object itself under Clang
    while (g.bin.size() % 4)
        g.bin.push_back(0);
    g.doc["buffers"] = {{{"byteLength", g.bin.size()}}};
    return g;
}

// A 2 x 2 PNG of four colours, through the engine's PNG writer (an input here, not what is tested).
std::vector<uint8_t> png(const std::filesystem::path& scratch) {
    const std::vector<uint8_t> texels = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    EXPECT_TRUE(writePng(scratch, 2, 2, texels));
    std::ifstream in(scratch, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The line validate prints for one check or attribute.
std::string line(const std::string& out, const std::string& name) {
    const size_t at = out.find("\n" + name + " ");
    return at == std::string::npos ? "" : out.substr(at + 1, out.find('\n', at + 1) - at - 1);
}

// A textured and an untextured copy of one model: the conversion that lost the texture fails
// `textures`, naming the material and the image, in either direction; the pass line counts what
// it compared. (The texture check used to pass, saying there was no texture on both sides.)
TEST(ValidateFaithful, ALostBaseTextureFailsEitherWay) {
    const TempDir temp;
    const std::filesystem::path textured = temp.path / "snail_textured.glb",
                                bare = temp.path / "snail_untextured.glb";
    triangle(png(temp.path / "skin.png")).write(textured);
    triangle({}).write(bare);

    Outcome lost = horde("validate " + quote(textured) + " " + quote(bare) + kQuick);
    EXPECT_EQ(lost.code, 4) << lost.out;
    EXPECT_EQ(line(lost.out, "textures"),
              "textures       FAIL  base textures lost: material 'skin' has base texture "
              "'image0' (" +
                  textured.string() + ") in A, none in B")
        << lost.out;
    Outcome gained = horde("validate " + quote(bare) + " " + quote(textured) + kQuick);
    EXPECT_EQ(gained.code, 4) << gained.out;
    EXPECT_EQ(line(gained.out, "textures"),
              "textures       FAIL  base textures only in B: material 'skin' has base "
              "texture 'image0' (" +
                  textured.string() + ") in B, none in A")
        << gained.out;
    Outcome same = horde("validate " + quote(textured) + " " + quote(textured) + kQuick);
    EXPECT_EQ(same.code, 0) << same.out;
    EXPECT_EQ(line(same.out, "textures"), "textures       pass  1 texture compared, the same texels")
        << same.out;
}

// An NWN mesh without a bitmap has an unnamed material, which glTF names `material0`: the
// untextured renders colour it by A's name on both sides (13% of the pixels differed before).
TEST(ValidateFaithful, AnUnnamedMaterialRenamedKeepsItsColour) {
    const TempDir temp;
    const std::filesystem::path mdl = temp.path / "plain.mdl", glb = temp.path / "plain.glb";
    std::ofstream(mdl) << "newmodel plain\nsetsupermodel plain NULL\nbeginmodelgeom plain\n"
                          "node dummy plain\n  parent NULL\nendnode\nnode trimesh quad\n  parent plain\n"
                          "  bitmap NULL\n  verts 4\n    0 0 0\n    1 0 0\n    1 1 0\n    0 1 0\n"
                          "  faces 2\n    0 1 2  1  0 0 0  0\n    0 2 3  1  0 0 0  0\nendnode\n"
                          "endmodelgeom plain\ndonemodel plain\n";
    ASSERT_EQ(horde("convert " + quote(mdl) + " --to gltf --out " + quote(glb)).code, 0);
    Outcome r = horde("validate " + quote(mdl) + " " + quote(glb) + kQuick);
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_EQ(line(r.out, "materials"), "materials      pass  one-to-one mapping: '' -> 'material0'")
        << r.out;
    EXPECT_NE(r.out.find("bind pose                pass  position max 0 rms 0  pixels 0%"), std::string::npos)
        << r.out;
}

// Door states and an emitter's impact key nothing: the glTF keeps them (it dropped them before), and
// a B without them is a mapping, not a loss.
TEST(ValidateFaithful, ClipsThatKeyNothingAreKeptOrAMapping) {
    const TempDir temp;
    const std::filesystem::path mdl = temp.path / "door.mdl", glb = temp.path / "door.glb",
                                without = temp.path / "door_without.glb";
    std::ofstream(mdl)
        << "newmodel door\nsetsupermodel door NULL\nbeginmodelgeom door\n"
           "node dummy door\n  parent NULL\nendnode\nnode trimesh leaf\n  parent door\n"
           "  bitmap NULL\n  verts 3\n    0 0 0\n    1 0 0\n    0 0 2\n"
           "  faces 1\n    0 1 2  1  0 0 0  0\nendnode\nendmodelgeom door\n"
           "newanim opening1 door\n  length 1.5\n  transtime 0.25\n  animroot door\n"
           "  event 0.5 snd_open\n  node dummy door\n    parent NULL\n  endnode\ndoneanim opening1 door\n"
           "newanim closed door\n  length 0\n  transtime 0.25\n  animroot door\n"
           "  node dummy door\n    parent NULL\n  endnode\ndoneanim closed door\n"
           "donemodel door\n";
    ASSERT_EQ(horde("convert " + quote(mdl) + " --to gltf --out " + quote(glb)).code, 0);
    Outcome kept = horde("validate " + quote(mdl) + " " + quote(glb) + kQuick);
    EXPECT_EQ(kept.code, 0) << kept.out;
    EXPECT_EQ(line(kept.out, "clips"),
              "clips          pass  2 clips found in both (2 by name); 2 clips keying nothing "
              "on both sides, compared as the bind pose")
        << kept.out;

    test::Glb g = test::Glb::read(glb);
    g.doc.erase("animations");
    g.write(without);
    Outcome mapped = horde("validate " + quote(mdl) + " " + quote(without) + kQuick);
    EXPECT_EQ(mapped.code, 0) << mapped.out;
    EXPECT_NE(line(mapped.out, "clips")
                  .find("clip 'opening1' keys nothing and is not in " + without.string() +
                        " (a mapping: it poses as the bind pose)"),
              std::string::npos)
        << mapped.out;
}

// A triangle's two morph targets and their weight curves convert to glTF and back whole; a
// conversion that drops the targets, or halves a weight curve, fails.
TEST(ValidateFaithful, ALostMorphTargetOrAChangedWeightCurveFails) {
    const TempDir temp;
    const std::filesystem::path source = temp.path / "face.glb", converted = temp.path / "converted.glb",
                                dropped = temp.path / "dropped.glb", halved = temp.path / "halved.glb";
    test::morphTriangle().write(source);
    ASSERT_EQ(horde("convert " + quote(source) + " --to gltf --out " + quote(converted)).code, 0);
    Outcome kept = horde("validate " + quote(source) + " " + quote(converted) + kQuick);
    EXPECT_EQ(kept.code, 0) << kept.out;
    EXPECT_EQ(line(kept.out, "morph targets"),
              "morph targets  pass  2 targets in 1 meshes, the same counts and resting weights")
        << kept.out;
    // 'talk': keys 0, 1, 2 and the middles 0.5, 1.5, on both sides; 'ease': 0, 1 and 0.5.
    EXPECT_EQ(line(kept.out, "morph weights"),
              "morph weights  pass  4 weight curves agree within 0.000100 at 16 times of their keys and between them")
        << kept.out;

    // What the writer wrote, read from its JSON and binary chunk by hand.
    test::Glb g = test::Glb::read(converted);
    const json& mesh = g.doc["meshes"][0];
    ASSERT_EQ(mesh["primitives"][0]["targets"].size(), 2u);
    EXPECT_EQ(mesh["weights"], json({0.25, 0.0}));
    EXPECT_EQ(mesh["extras"]["targetNames"], json({"open", "wide"}));
    std::vector<float> moves;
    g.edit<3>(mesh["primitives"][0]["targets"][0]["POSITION"].get<int>(),
              [&](float* v) { moves.insert(moves.end(), v, v + 3); });
    EXPECT_EQ(moves, (std::vector<float>{0, 0, 1, 0, 0, 2, 0, 0, 0}));
    const json& channel = g.doc["animations"][0]["channels"][0];
    EXPECT_EQ(channel["target"]["path"], "weights");
    EXPECT_EQ(g.doc["nodes"][channel["target"]["node"].get<size_t>()]["name"], "face");
    std::vector<float> weights;
    g.edit<1>(g.doc["animations"][0]["samplers"][0]["output"].get<int>(), [&](float* w) { weights.push_back(w[0]); });
    EXPECT_EQ(weights, (std::vector<float>{0, 0, 1, 0.5f, 0, 1}));

    g.doc["meshes"][0]["primitives"][0].erase("targets");
    g.doc["meshes"][0].erase("weights");
    g.doc["meshes"][0].erase("extras");
    g.doc.erase("animations");
    g.write(dropped);
    Outcome lost = horde("validate " + quote(source) + " " + quote(dropped) + kQuick);
    EXPECT_NE(lost.code, 0) << lost.out;
    EXPECT_EQ(line(lost.out, "morph targets"), "morph targets  FAIL  mesh 'triangle': 2 morph targets vs 0")
        << lost.out;

    g = test::Glb::read(converted);
    const int talk = g.doc["animations"][0]["samplers"][0]["output"].get<int>();
    g.edit<1>(talk, [](float* w) { w[0] *= 0.5f; });
    g.write(halved);
    Outcome changed = horde("validate " + quote(source) + " " + quote(halved) + kQuick);
    EXPECT_NE(changed.code, 0) << changed.out;
    EXPECT_EQ(line(changed.out, "morph weights"),
              "morph weights  FAIL  clip 'talk' mesh 'triangle': weights differ by 0.500000 at 1.000000 s")
        << changed.out;
}

// c_mindflayer hangs a skin mesh named 'head' from a dummy named 'head': the hierarchy pairs nodes
// by where they hang, so the glTF and the NWN file written back pass.
TEST(ValidateFaithful, RepeatedNodeNamesPairByTheirPlace) {
    const TempDir temp;
    const std::filesystem::path mdl = temp.path / "flayer.mdl";
    std::ofstream(mdl)
        << "newmodel flayer\nsetsupermodel flayer NULL\nbeginmodelgeom flayer\n"
           "node dummy flayer\n  parent NULL\nendnode\n"
           "node dummy head\n  parent flayer\n  position 0 0 1\nendnode\n"
           "node trimesh head\n  parent head\n  bitmap NULL\n  verts 3\n    0 0 0\n    1 0 0\n    0 0 1\n"
           "  faces 1\n    0 1 2  1  0 0 0  0\nendnode\nendmodelgeom flayer\ndonemodel flayer\n";
    for (const char* to : {"gltf", "nwn"}) {
        SCOPED_TRACE(to);
        const std::filesystem::path out = temp.path / (std::string("out_") + to) / "flayer_out";
        std::filesystem::create_directories(out.parent_path());
        const std::filesystem::path file = out.string() + (std::string(to) == "gltf" ? ".glb" : ".mdl");
        Outcome converted = horde("convert " + quote(mdl) + " --to " + to + " --out " + quote(file));
        ASSERT_EQ(converted.code, 0) << converted.out;
        Outcome r = horde("validate " + quote(mdl) + " " + quote(file) + kQuick);
        EXPECT_EQ(r.code, 0) << r.out;
        EXPECT_NE(line(r.out, "hierarchy")
                      .find("hierarchy      pass  3 nodes, same names and parents (2 nodes share a "
                            "name with another: told apart by where they hang)"),
                  std::string::npos)
            << r.out;
    }
}

// Grimrock's null.model holds zero normals; glTF asks for unit ones, so the writer puts its own
// there and says so. validate reports the repair with its count and compares the rest; the
// pictures draw A with the writer's normals there, so they differ only where A's were valid.
TEST(ValidateFaithful, ZeroNormalsAreARepairNotADifference) {
    const TempDir temp;
    const std::filesystem::path zero = temp.path / "null.glb", out = temp.path / "null_out.glb";
    triangle({}, 0.0f).write(zero);
    Outcome converted = horde("convert " + quote(zero) + " --to gltf --out " + quote(out));
    ASSERT_EQ(converted.code, 0) << converted.out;
    EXPECT_NE(converted.out.find(
                  "horde: warning: mesh 'mesh0': 3 normals are zero or not finite, written as (0, 1, 0)"),
              std::string::npos)
        << converted.out;
    Outcome r = horde("validate " + quote(zero) + " " + quote(out) + kQuick + " --report " +
                      quote(temp.path / "report"));
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(line(r.out, "normals")
                  .find("3 vertices of A have no valid normal (zero or not finite): B's writer gave "
                        "them one of its own; a repair, not compared"),
              std::string::npos)
        << r.out;
    const json report = json::parse(std::ifstream(temp.path / "report" / "report.json"));
    for (const json& a : report["attributes"])
        if (a["name"] == "normals") {
            EXPECT_EQ(a["repaired"], 3);
            EXPECT_EQ(a["pairs"], 0);
        }
}

} // namespace
} // namespace horde
