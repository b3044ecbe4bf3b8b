// glTF: a .glb built byte by byte (interleaved stride, normalized UVs, byte indices, a matrix
// node, nodes out of parent order, STEP and CUBICSPLINE keys), forged ranges that must fail
// before anything is read, every truncation, and the monster through export and import.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "anim/reference.h"
#include "loader.h"
#include "model/validate.h"
#include "monster.h"
#include "support/bytes.h"
#include "support/counting_allocator.h"
#include "support/glb.h"
#include "support/temp_dir.h"

using horde::test::Bytes;
using nlohmann::json;

namespace horde {
namespace {

struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_gltf") {}
};

// The binary chunk of the hand-built asset; offsets noted where the JSON points at them.
Bytes binChunk() {
    Bytes b;
    // 0: three vertices, stride 20: position (12 bytes), UV as normalized ubytes (2), padding (6).
    const float positions[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const uint8_t uvs[3][2] = {{0, 0}, {255, 51}, {0, 255}};
    for (int v = 0; v < 3; ++v) {
        for (float p : positions[v])
            b.f32(p);
        b.u8(uvs[v][0]).u8(uvs[v][1]).zeros(6);
    }
    b.u8(0).u8(1).u8(2).zeros(1);                // 60: indices
    b.f32(0.0f).f32(1.0f);                       // 64: key times
    b.f32(0).f32(0).f32(0).f32(5).f32(0).f32(0); // 72: STEP translations
    for (float v : {9.f, 1.f, 0.f, 0.f, 3.f, 9.f})
        b.f32(v).f32(v).f32(v); // 96: CUBICSPLINE in, value, out per key
    return b;                   // 168 bytes
}

json document() {
    return json{
        {"asset", {{"version", "2.0"}}},
        {"scene", 0},
        {"scenes", {{{"nodes", {1}}}}},
        // The child comes first in the file: horde puts its parent first.
        {"nodes",
         {{{"name", "tri"}, {"mesh", 0}, {"translation", {0, 1, 0}}},
          {{"name", "root"},
           {"children", {0}},
           {"matrix", {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1}}}}},
        {"meshes",
         {{{"name", "triangle"},
           {"primitives", {{{"attributes", {{"POSITION", 0}, {"TEXCOORD_0", 1}}}, {"indices", 2}}}}}}},
        {"buffers", {{{"byteLength", 168}}}},
        {"bufferViews",
         {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 60}, {"byteStride", 20}},
          {{"buffer", 0}, {"byteOffset", 60}, {"byteLength", 3}},
          {{"buffer", 0}, {"byteOffset", 64}, {"byteLength", 8}},
          {{"buffer", 0}, {"byteOffset", 72}, {"byteLength", 24}},
          {{"buffer", 0}, {"byteOffset", 96}, {"byteLength", 72}}}},
        {"accessors",
         {{{"bufferView", 0},
           {"componentType", 5126},
           {"count", 3},
           {"type", "VEC3"},
           {"min", {0, 0, 0}},
           {"max", {1, 1, 0}}},
          {{"bufferView", 0},
           {"byteOffset", 12},
           {"componentType", 5121},
           {"normalized", true},
           {"count", 3},
           {"type", "VEC2"}},
          {{"bufferView", 1}, {"componentType", 5121}, {"count", 3}, {"type", "SCALAR"}},
          {{"bufferView", 2},
           {"componentType", 5126},
           {"count", 2},
           {"type", "SCALAR"},
           {"min", {0}},
           {"max", {1}}},
          {{"bufferView", 3}, {"componentType", 5126}, {"count", 2}, {"type", "VEC3"}},
          {{"bufferView", 4}, {"componentType", 5126}, {"count", 6}, {"type", "VEC3"}}}},
        {"animations",
         {{{"name", "move"},
           {"samplers",
            {{{"input", 3}, {"output", 4}, {"interpolation", "STEP"}},
             {{"input", 3}, {"output", 5}, {"interpolation", "CUBICSPLINE"}}}},
           {"channels",
            {{{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}},
             {{"sampler", 1}, {"target", {{"node", 1}, {"path", "scale"}}}}}}}}}};
}

// GLB container (glTF 2.0, section 4.4): header, JSON chunk padded with spaces, BIN chunk.
std::vector<std::byte> glb(const json& doc, const Bytes& bin) {
    std::string text = doc.dump();
    while (text.size() % 4)
        text += ' ';
    Bytes b;
    b.text("glTF").u32(2).u32(uint32_t(12 + 8 + text.size() + 8 + bin.size()));
    b.u32(uint32_t(text.size())).text("JSON").text(text);
    b.u32(uint32_t(bin.size())).text("BIN");
    b.u8(0);
    for (std::byte x : bin.data())
        b.u8(uint8_t(x));
    return b.data();
}

Result<Model> decode(std::span<const std::byte> bytes, HeapMeshAllocator& allocator) {
    Result<Model> model = gltfFormat().readModel("test.glb", bytes, LoadOptions{}, allocator);
    if (!model) return model;
    finalizeMeshes(*model);
    if (Status st = validateModel(*model); !st) return st.error();
    return model;
}

std::string failure(const json& doc) {
    HeapMeshAllocator allocator;
    Result<Model> model = decode(glb(doc, binChunk()), allocator);
    return model ? std::string("loaded") : model.error().message;
}

TEST(Gltf, DetectsByMagicAndExtension) {
    std::vector<std::byte> bytes = glb(document(), binChunk());
    EXPECT_TRUE(gltfFormat().detect("any.bin", bytes));
    EXPECT_TRUE(gltfFormat().detect("scene.GLTF", {}));
    EXPECT_FALSE(gltfFormat().detect("model.mdl", std::span(bytes).subspan(4)));
}

TEST(Gltf, DecodesAHandBuiltAsset) {
    HeapMeshAllocator allocator;
    std::vector<std::byte> bytes = glb(document(), binChunk());
    Result<Model> model = decode(bytes, allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->nodes.size(), 2u);
    EXPECT_EQ(model->nodes[0].name, "root");
    EXPECT_EQ(model->nodes[0].parent, -1);
    EXPECT_EQ(model->nodes[1].name, "tri");
    EXPECT_EQ(model->nodes[1].parent, 0);
    // The matrix decomposes into T(1,2,3) S(2).
    EXPECT_NEAR(glm::length(model->nodes[0].translation - glm::vec3(1, 2, 3)), 0.0f, 1e-6f);
    EXPECT_NEAR(glm::length(model->nodes[0].scale - glm::vec3(2)), 0.0f, 1e-6f);
    EXPECT_NEAR(std::abs(model->nodes[0].rotation.w), 1.0f, 1e-6f);
    EXPECT_EQ(model->nodes[1].translation, glm::vec3(0, 1, 0));

    ASSERT_EQ(model->meshes.size(), 1u);
    const Mesh& mesh = model->meshes[0];
    EXPECT_EQ(mesh.name, "triangle");
    EXPECT_EQ(mesh.node, 1u);
    EXPECT_FALSE(mesh.skinned());
    ASSERT_EQ(mesh.vertexCount(), 3u);
    ASSERT_EQ(mesh.indexCount(), 3u);
    const MeshArrays& a = mesh.arrays();
    EXPECT_EQ(a.positions[1], glm::vec3(1, 0, 0)); // read at stride 20
    EXPECT_EQ(a.positions[2], glm::vec3(0, 1, 0));
    EXPECT_FLOAT_EQ(a.uv0[1].x, 1.0f); // 255 / 255
    EXPECT_FLOAT_EQ(a.uv0[1].y, 0.2f); // 51 / 255
    EXPECT_EQ(a.index(2), 2u);
    for (int v = 0; v < 3; ++v)
        EXPECT_EQ(a.normals[v], glm::vec3(0, 0, 1)); // no NORMAL: from the face
    ASSERT_EQ(mesh.submeshes.size(), 1u);
    EXPECT_EQ(mesh.submeshes[0].material, "default");

    ASSERT_EQ(model->clips.size(), 1u);
    const Clip& clip = model->clips[0];
    EXPECT_EQ(clip.name, "move");
    EXPECT_FLOAT_EQ(clip.duration, 1.0f);
    ASSERT_EQ(clip.channels.size(), 2u);
    const Channel& step = clip.channels[0];
    EXPECT_EQ(step.node, 1u); // glTF node 0 is horde node 1
    EXPECT_EQ(step.interpolation, Interpolation::Step);
    EXPECT_EQ(step.times, (std::vector<float>{0.0f, 1.0f}));
    EXPECT_DOUBLE_EQ(sampleChannel(clip, step, 0.99).x, 0.0); // held until the next key
    const Channel& cubic = clip.channels[1];
    EXPECT_EQ(cubic.interpolation, Interpolation::CubicSpline);
    ASSERT_EQ(cubic.values.size(), 6u);
    // Zero tangents: 1 + (3 - 1) * (3u^2 - 2u^3) at u = 0.5 is 2.
    EXPECT_NEAR(sampleChannel(clip, cubic, 0.5).x, 2.0, 1e-6);
}

TEST(Gltf, AccessorsPastTheirViewFailNamingTheField) {
    json doc = document();
    doc["accessors"][0]["count"] = 4; // 4 vertices at stride 20 need 72 bytes of a 60-byte view
    std::string e = failure(doc);
    EXPECT_NE(e.find("POSITION"), std::string::npos) << e;
    EXPECT_NE(e.find("count 4"), std::string::npos) << e;

    doc = document();
    doc["accessors"][0]["count"] = 0x7fffffff; // forged: fails before anything is allocated
    e = failure(doc);
    EXPECT_NE(e.find("count"), std::string::npos) << e;

    doc = document();
    doc["accessors"][1]["byteOffset"] = 59; // UV element (2 bytes) would end past the view
    e = failure(doc);
    EXPECT_NE(e.find("TEXCOORD_0"), std::string::npos) << e;

    doc = document();
    doc["bufferViews"][4]["byteLength"] = 80; // past the 168-byte buffer
    e = failure(doc);
    EXPECT_NE(e.find("bufferView 4"), std::string::npos) << e;

    doc = document();
    doc["accessors"][5]["count"] = 5; // CUBICSPLINE needs three values per key
    e = failure(doc);
    EXPECT_NE(e.find("output has 5 values for 2 keys"), std::string::npos) << e;

    doc = document();
    doc["accessors"][2]["bufferView"] = 9; // tinygltf checks this index itself
    e = failure(doc);
    EXPECT_NE(e.find("accessor[2] invalid bufferView"), std::string::npos) << e;
}

TEST(Gltf, BrokenStructureFailsCleanly) {
    json doc = document();
    doc["nodes"][0]["children"] = {1}; // root -> tri -> root
    EXPECT_NE(failure(doc).find("node hierarchy has a cycle"), std::string::npos) << failure(doc);

    doc = document();
    doc["nodes"].push_back({{"name", "second parent"}, {"children", {0}}});
    EXPECT_NE(failure(doc).find("node 0: has more than one parent"), std::string::npos) << failure(doc);

    doc = document();
    doc["nodes"][0]["mesh"] = 3;
    EXPECT_NE(failure(doc).find("mesh 3 out of range"), std::string::npos) << failure(doc);

    doc = document();
    doc["animations"][0]["channels"][0]["target"]["node"] = 7;
    EXPECT_NE(failure(doc).find("target node 7"), std::string::npos) << failure(doc);

    doc = document();
    doc["accessors"][0]["type"] = "VEC2";
    EXPECT_NE(failure(doc).find("POSITION: accessor 0 has type"), std::string::npos) << failure(doc);

    doc = document();
    doc["extensionsRequired"] = {"KHR_materials_unlit"};
    doc["extensionsUsed"] = {"KHR_materials_unlit"};
    EXPECT_EQ(failure(doc),
              "test.glb: requires glTF extension KHR_materials_unlit, which horde does not read");

    // An index past the vertices names the primitive, the index and its value.
    Bytes bin = binChunk();
    std::vector<std::byte> bytes = glb(document(), bin);
    HeapMeshAllocator allocator;
    std::vector<std::byte> bad = bytes;
    size_t binStart = bytes.size() - bin.size();
    bad[binStart + 62] = std::byte{7};
    Result<Model> model = decode(bad, allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("index 2 = 7"), std::string::npos) << model.error().message;
}

// 32-bit indices into a mesh stored with 16-bit ones: an index of 65536 must fail, not wrap onto
// vertex 0.
TEST(Gltf, IndexPastTheVerticesFailsBeforeNarrowing) {
    json doc = document();
    doc["bufferViews"][1]["byteLength"] = 12;
    doc["accessors"][2]["componentType"] = 5125;
    Bytes bin;
    const std::vector<std::byte> original = binChunk().data();
    for (size_t i = 0; i < 60; ++i)
        bin.u8(uint8_t(original[i]));
    bin.u32(0).u32(1).u32(65536); // 60: the indices, now 12 bytes
    for (size_t i = 64; i < original.size(); ++i)
        bin.u8(uint8_t(original[i]));
    for (json& view : doc["bufferViews"])
        if (view["byteOffset"].get<size_t>() >= 64) view["byteOffset"] = view["byteOffset"].get<size_t>() + 8;
    doc["buffers"][0]["byteLength"] = bin.size();
    HeapMeshAllocator allocator;
    Result<Model> model = decode(glb(doc, bin), allocator);
    ASSERT_FALSE(model);
    EXPECT_EQ(model.error().message,
              "test.glb: mesh 'triangle' primitive 0 indices: index 2 = 65536 is past its 3 vertices");
}

// tinygltf hands an image's bufferView to its image callback without checking the range.
TEST(Gltf, ImageBufferViewPastItsBufferFails) {
    json doc = document();
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 160}, {"byteLength", 4096}});
    doc["images"] = {{{"bufferView", 5}, {"mimeType", "image/png"}}};
    EXPECT_EQ(failure(doc),
              "test.glb: JSON images[0].bufferView: bufferView 5 (offset 160, length 4096) does not "
              "lie within a buffer that holds data");
}

TEST(Gltf, EveryTruncationFailsCleanly) {
    std::vector<std::byte> bytes = glb(document(), binChunk());
    for (const std::vector<std::byte>& cut : test::truncations(bytes)) {
        HeapMeshAllocator allocator;
        Result<Model> model = decode(cut, allocator);
        EXPECT_FALSE(model) << "a " << cut.size() << "-byte prefix loaded";
        if (!model) {
            EXPECT_NE(model.error().message.find("test.glb"), std::string::npos) << model.error().message;
        }
    }
}

// Errors name the byte or the JSON path and the field in words, never a library's exception
// text: a .glb cut short says where it ends, random bytes under a .glb name lack the magic, a
// JSON chunk that is not JSON says where, and a property glTF requires is named by its path.
TEST(Gltf, CutShortRandomAndBrokenFilesNameTheirByteAndField) {
    const std::vector<std::byte> whole = glb(document(), binChunk());
    auto error = [](std::span<const std::byte> bytes) {
        HeapMeshAllocator allocator;
        Result<Model> model = decode(bytes, allocator);
        return model ? std::string("loaded") : model.error().message;
    };
    const std::string total = std::to_string(whole.size());
    EXPECT_EQ(error(std::span(whole).first(100)),
              "test.glb: offset 100 (0x64): GLB header: length: glTF binary cut short: the header gives " +
                  total + " bytes, the file ends here");
    EXPECT_EQ(
        error(std::span(whole).first(10)),
        "test.glb: offset 8 (0x8): GLB header: length: needs 4 bytes but only 2 remain (file is 10 bytes)");

    // Random bytes (a fixed LCG, so the expected text is known) under a .glb name.
    std::vector<std::byte> random(3000);
    uint32_t state = 12345;
    for (std::byte& b : random) {
        state = state * 1664525u + 1013904223u;
        b = std::byte(state >> 24);
    }
    const std::string noMagic = error(random);
    EXPECT_EQ(noMagic.rfind("test.glb: offset 0 (0x0): GLB header: magic: expected 'glTF', found '", 0), 0u)
        << noMagic;

    // A JSON chunk with a stray comma: the byte in the file, and its line and column in the JSON.
    const std::string text = "{\"asset\": {\"version\": \"2.0\",,}}";
    Bytes broken;
    std::string padded = text;
    while (padded.size() % 4)
        padded += ' ';
    broken.text("glTF")
        .u32(2)
        .u32(uint32_t(20 + padded.size()))
        .u32(uint32_t(padded.size()))
        .text("JSON")
        .text(padded);
    const size_t comma = text.find(",,") + 1;
    EXPECT_EQ(
        error(broken.span()), "test.glb: offset " + std::to_string(20 + comma) + " (0x" +
                                  [&] {
                                      char hex[16];
                                      std::snprintf(hex, sizeof hex, "%zx", 20 + comma);
                                      return std::string(hex);
                                  }() +
                                  "): JSON chunk: not valid JSON: unexpected ',' at line 1, column " +
                                  std::to_string(comma + 1));

    json doc = document();
    doc["accessors"][0].erase("componentType");
    EXPECT_EQ(failure(doc), "test.glb: JSON accessors[0].componentType: missing (glTF 2.0 requires it)");
    doc = document();
    doc["animations"][0]["samplers"][0]["input"] = "zero";
    EXPECT_EQ(failure(doc), "test.glb: JSON animations[0].samplers[0].input: is not an integer");
    // A collection given as one object instead of an array of them (as nlohmann's `{x}` makes
    // under Clang): refused by name, not dropped.
    doc = document();
    doc["materials"] = json::object({{"name", "skin"}});
    EXPECT_EQ(failure(doc), "test.glb: JSON materials: is not an array");
    doc = document();
    doc["nodes"] = json::array({7});
    EXPECT_EQ(failure(doc), "test.glb: JSON nodes[0]: is not an object");
    for (const std::string& message : {noMagic, failure(doc)})
        EXPECT_EQ(message.find("json.exception"), std::string::npos) << message;
}

TEST(Gltf, ExternalBuffersOnlyBesideTheModel) {
    const TempDir temp;
    const std::filesystem::path& dir = temp.path;
    json doc = document();
    doc["buffers"][0]["uri"] = "/dev/zero";
    std::ofstream(dir / "a.gltf") << doc.dump();
    HeapMeshAllocator allocator;
    Result<Model> model = loadModel(dir / "a.gltf", {}, allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("a.gltf"), std::string::npos) << model.error().message;

    Bytes bin = binChunk();
    std::ofstream(dir / "a.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(bin.data().data()), std::streamsize(bin.size()));
    doc["buffers"][0]["uri"] = "a.bin";
    std::ofstream(dir / "b.gltf") << doc.dump();
    model = loadModel(dir / "b.gltf", {}, allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_EQ(model->meshes[0].arrays().positions[1], glm::vec3(1, 0, 0));
}

// ---- The monster through export and import ----

std::map<uint32_t, float> influences(const Mesh& mesh, uint32_t v) {
    std::map<uint32_t, float> w;
    for (int k = 0; k < 4; ++k)
        if (mesh.arrays().weights[v][k] > 0.0f) w[mesh.arrays().joints[v][k]] += mesh.arrays().weights[v][k];
    return w;
}

void expectSameCreature(const Model& a, const Model& b) {
    ASSERT_EQ(a.nodes.size(), b.nodes.size());
    for (size_t n = 0; n < a.nodes.size(); ++n) {
        EXPECT_EQ(a.nodes[n].name, b.nodes[n].name);
        EXPECT_EQ(a.nodes[n].parent, b.nodes[n].parent);
    }
    ASSERT_EQ(a.meshes.size(), b.meshes.size());
    for (size_t m = 0; m < a.meshes.size(); ++m) {
        const Mesh &ma = a.meshes[m], &mb = b.meshes[m];
        EXPECT_EQ(ma.name, mb.name);
        ASSERT_EQ(ma.vertexCount(), mb.vertexCount());
        ASSERT_EQ(ma.indexCount(), mb.indexCount());
        ASSERT_EQ(ma.submeshes.size(), mb.submeshes.size());
        for (size_t s = 0; s < ma.submeshes.size(); ++s)
            EXPECT_EQ(ma.submeshes[s].material, mb.submeshes[s].material);
        for (uint32_t v = 0; v < ma.vertexCount(); ++v) {
            EXPECT_EQ(ma.arrays().positions[v], mb.arrays().positions[v]);
            std::map<uint32_t, float> wa = influences(ma, v), wb = influences(mb, v);
            ASSERT_EQ(wa.size(), wb.size()) << "vertex " << v;
            for (auto [joint, weight] : wa)
                EXPECT_NEAR(wb[joint], weight, 1e-6f) << "vertex " << v;
        }
    }
    ASSERT_EQ(a.clips.size(), b.clips.size());
    for (size_t c = 0; c < a.clips.size(); ++c) {
        EXPECT_EQ(a.clips[c].name, b.clips[c].name);
        EXPECT_EQ(a.clips[c].duration, b.clips[c].duration);
        ASSERT_EQ(a.clips[c].channels.size(), b.clips[c].channels.size());
        for (size_t i = 0; i < a.clips[c].channels.size(); ++i) {
            const Channel &ca = a.clips[c].channels[i], &cb = b.clips[c].channels[i];
            EXPECT_EQ(ca.node, cb.node);
            EXPECT_EQ(ca.path, cb.path);
            EXPECT_EQ(ca.interpolation, cb.interpolation);
            EXPECT_EQ(ca.times, cb.times); // exact: keys are never resampled
            ASSERT_EQ(ca.values.size(), cb.values.size());
            for (size_t k = 0; k < ca.values.size(); ++k) {
                bool rotation = ca.path == ChannelPath::Rotation; // translation and scale carry xyz only
                EXPECT_EQ(rotation ? ca.values[k] : glm::vec4(glm::vec3(ca.values[k]), 0.0f), cb.values[k]);
            }
        }
    }
}

void expectSamePoses(const Model& a, const Model& b, double radius) {
    for (int clip = -1; clip < int(a.clips.size()); ++clip)
        for (double t : {0.0, 0.13, 0.5, 0.77, 1.45}) {
            std::vector<PosedMesh> pa = poseModel(a, Playback{clip, 0.0, 1.0, true}, t);
            std::vector<PosedMesh> pb = poseModel(b, Playback{clip, 0.0, 1.0, true}, t);
            double worst = 0.0;
            for (size_t m = 0; m < pa.size(); ++m)
                for (size_t v = 0; v < pa[m].positions.size(); ++v)
                    worst = std::max(worst, glm::length(pa[m].positions[v] - pb[m].positions[v]));
            EXPECT_LT(worst, 1e-5 * radius) << "clip " << clip << " at " << t;
        }
}

TEST(Gltf, MonsterRoundTripsThroughGlbAndGltf) {
    HeapMeshAllocator allocator;
    Model monster = buildMonster(allocator);
    double radius = bindPoseBounds(monster).radius();
    const TempDir dir;
    for (const char* name : {"monster.glb", "monster.gltf"}) {
        std::filesystem::path path = dir.path / name;
        ASSERT_TRUE(gltfFormat().write(monster, path));
        Result<Model> back = loadModel(path, {}, allocator);
        ASSERT_TRUE(back) << back.error().message;
        EXPECT_EQ(back->format, "gltf");
        expectSameCreature(monster, *back);
        expectSamePoses(monster, *back, radius);
    }
}

// A second set of joints and weights (JOINTS_1, WEIGHTS_1) is kept, not reduced to four at load:
// the monster whose rings blend up to seven joints, written with its eight influences as a file
// of a skinning tool would hold them (both sets as shares of all eight), reads back with the four
// strongest renormalized and influences five to eight beside them, and poses as the monster does.
TEST(Gltf, ASecondSetOfJointsAndWeightsIsKept) {
    TempDir dir;
    HeapMeshAllocator allocator;
    MonsterParams params;
    params.influences = 8;
    Model monster = buildMonster(allocator, params);
    const std::filesystem::path path = dir.path / "eight.glb";
    ASSERT_TRUE(gltfFormat().write(monster, path));
    test::Glb glb = test::Glb::read(path);
    const MeshArrays& a = monster.meshes[0].arrays();
    size_t v = 0;
    glb.editAttribute<4>("WEIGHTS_0", [&](float* w) {
        const glm::vec4 more = a.more[v].weights;
        for (int k = 0; k < 4; ++k)
            w[k] = a.weights[v][k] * (1.0f - (more.x + more.y + more.z + more.w));
        ++v;
    });
    const size_t joints = glb.bin.size(), weights = joints + a.more.size() * 8;
    for (const MoreInfluences& m : a.more)
        for (int k = 0; k < 4; ++k) {
            const uint16_t j = m.joints[k];
            glb.bin.insert(glb.bin.end(), reinterpret_cast<const uint8_t*>(&j),
                           reinterpret_cast<const uint8_t*>(&j) + 2);
        }
    for (const MoreInfluences& m : a.more)
        for (int k = 0; k < 4; ++k) {
            const float w = m.weights[k];
            glb.bin.insert(glb.bin.end(), reinterpret_cast<const uint8_t*>(&w),
                           reinterpret_cast<const uint8_t*>(&w) + 4);
        }
    glb.doc["buffers"][0]["byteLength"] = glb.bin.size();
    const size_t view = glb.doc["bufferViews"].size(), accessor = glb.doc["accessors"].size();
    glb.doc["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", joints}, {"byteLength", weights - joints}});
    glb.doc["bufferViews"].push_back(
        {{"buffer", 0}, {"byteOffset", weights}, {"byteLength", glb.bin.size() - weights}});
    glb.doc["accessors"].push_back(
        {{"bufferView", view}, {"componentType", 5123}, {"count", a.more.size()}, {"type", "VEC4"}});
    glb.doc["accessors"].push_back(
        {{"bufferView", view + 1}, {"componentType", 5126}, {"count", a.more.size()}, {"type", "VEC4"}});
    for (json& p : glb.doc["meshes"][0]["primitives"]) {
        p["attributes"]["JOINTS_1"] = accessor;
        p["attributes"]["WEIGHTS_1"] = accessor + 1;
    }
    glb.write(path);

    Result<Model> read = loadModel(path, {}, allocator);
    ASSERT_TRUE(read) << read.error().message;
    const Mesh& mesh = read->meshes[0];
    ASSERT_TRUE(mesh.layout().moreInfluences);
    ASSERT_EQ(mesh.vertexCount(), a.positions.size());
    for (size_t i = 0; i < a.positions.size(); ++i) {
        EXPECT_EQ(mesh.arrays().joints[i], a.joints[i]) << "vertex " << i;
        EXPECT_EQ(mesh.arrays().more[i].joints, a.more[i].joints) << "vertex " << i;
        for (int k = 0; k < 4; ++k) {
            EXPECT_NEAR(mesh.arrays().weights[i][k], a.weights[i][k], 1e-6f) << "vertex " << i;
            EXPECT_NEAR(mesh.arrays().more[i].weights[k], a.more[i].weights[k], 1e-6f) << "vertex " << i;
        }
    }
    const SkinOptions eight{Skinning::Lbs, Precision::Fp32, 8};
    const std::vector<PosedMesh> expected = poseModel(monster, Playback{0}, 0.4, eight),
                                 got = poseModel(*read, Playback{0}, 0.4, eight);
    double worst = 0.0;
    for (size_t i = 0; i < expected[0].positions.size(); ++i)
        worst = std::max(worst, glm::length(expected[0].positions[i] - got[0].positions[i]));
    EXPECT_LT(worst, 1e-5);
}

TEST(Gltf, AxesAreConvertedIntoGltfFrame) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    // Present the monster as a Z-up, left-handed file in centimetres whose front faces wind
    // counter-clockwise in its own frame, hence clockwise once mirrored into glTF's.
    source.axes.up = Axes::Up::Z;
    source.axes.leftHanded = true;
    source.axes.clockwiseFrontFaces = false;
    source.axes.metresPerUnit = 0.01f;
    const TempDir dir;
    std::filesystem::path path = dir.path / "axes.glb";
    ASSERT_TRUE(gltfFormat().write(source, path));
    Result<Model> back = loadModel(path, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->axes.up, Axes::Up::Y);
    EXPECT_FALSE(back->axes.leftHanded);
    EXPECT_EQ(back->axes.metresPerUnit, 1.0f);
    glm::dmat4 frame(1.0);
    frame = glm::dmat4(glm::dvec4(1, 0, 0, 0), glm::dvec4(0, 0, 1, 0), glm::dvec4(0, 1, 0, 0),
                       glm::dvec4(0, 0, 0, 1)) *
            0.01;
    frame[3][3] = 1.0; // Z-up mirrored: x stays, file z is up (y), file y goes to z; then centimetres
    double radius = bindPoseBounds(*back).radius();
    for (int clip = -1; clip < int(source.clips.size()); ++clip)
        for (double t : {0.0, 0.37, 1.1}) {
            std::vector<PosedMesh> a = poseModel(source, Playback{clip, 0.0, 1.0, true}, t);
            std::vector<PosedMesh> b = poseModel(*back, Playback{clip, 0.0, 1.0, true}, t);
            double worst = 0.0;
            for (size_t v = 0; v < a[0].positions.size(); ++v)
                worst = std::max(worst, glm::length(glm::dvec3(frame * glm::dvec4(a[0].positions[v], 1.0)) -
                                                    b[0].positions[v]));
            EXPECT_LT(worst, 1e-5 * radius) << "clip " << clip << " at " << t;
        }
    // The mirror flips the winding: the first triangle's 2nd and 3rd corners swap.
    EXPECT_EQ(source.meshes[0].arrays().index(1), back->meshes[0].arrays().index(2));
    EXPECT_EQ(source.meshes[0].arrays().index(2), back->meshes[0].arrays().index(1));
}

// A node scaled by -1 (LittlestTokyo's Plane003 is (-1, -1, -1)) mirrors what hangs on it: its
// scale keeps its sign through the writer, in glTF's own axes and through a mirroring frame.
TEST(Gltf, NegativeScalesKeepTheirSign) {
    for (bool zUp : {false, true}) {
        HeapMeshAllocator allocator;
        Model source = buildMonster(allocator);
        source.nodes[1].scale = glm::vec3(-1.0f, -1.0f, -1.0f);
        source.nodes[2].scale = glm::vec3(-1.0f, 2.0f, 1.0f);
        glm::dmat4 frame(1.0); // file -> glTF: the identity, or Z-up left-handed into Y-up (x, z, y)
        if (zUp) {
            source.axes.up = Axes::Up::Z;
            source.axes.leftHanded = true;
            frame = glm::dmat4(glm::dvec4(1, 0, 0, 0), glm::dvec4(0, 0, 1, 0), glm::dvec4(0, 1, 0, 0),
                               glm::dvec4(0, 0, 0, 1));
        }
        const TempDir dir;
        const std::filesystem::path path = dir.path / "mirrored.glb";
        ASSERT_TRUE(gltfFormat().write(source, path));
        Result<Model> back = loadModel(path, {}, allocator);
        ASSERT_TRUE(back) << back.error().message;
        const double radius = bindPoseBounds(*back).radius();
        for (double t : {0.0, 0.37}) {
            std::vector<PosedMesh> a = poseModel(source, Playback{0, 0.0, 1.0, true}, t);
            std::vector<PosedMesh> b = poseModel(*back, Playback{0, 0.0, 1.0, true}, t);
            for (size_t m = 0; m < a.size(); ++m)
                for (size_t v = 0; v < a[m].positions.size(); ++v)
                    ASSERT_LT(glm::length(glm::dvec3(frame * glm::dvec4(a[m].positions[v], 1.0)) -
                                          b[m].positions[v]),
                              1e-5 * radius)
                        << (zUp ? "Z-up" : "Y-up") << " mesh " << m << " vertex " << v << " at " << t;
        }
    }
}

// The monster has no cubic channels: one of walk's becomes one, with tangents, wrapping.
Model withCubicWrap(MeshAllocator& allocator) {
    Model m = buildMonster(allocator);
    Channel& c = m.clips[0].channels[0];
    std::vector<glm::vec4> values;
    for (size_t k = 0; k < c.times.size(); ++k) {
        glm::vec4 tangent =
            c.path == ChannelPath::Rotation ? glm::vec4(0.0f) : glm::vec4(0.5f, -0.25f, 0.125f, 0.0f);
        values.insert(values.end(), {tangent, c.values[k], tangent});
    }
    c.values = values;
    c.interpolation = Interpolation::CubicSpline;
    m.clips[0].end = ClipEnd::WrapToFirst;
    m.clips[0].duration = 1.2f;
    return m;
}

TEST(Gltf, CubicSplineKeysRoundTripAndWrap) {
    HeapMeshAllocator allocator;
    Model source = withCubicWrap(allocator);
    const TempDir dir;
    std::filesystem::path path = dir.path / "cubic.glb";
    ASSERT_TRUE(gltfFormat().write(source, path));
    Result<Model> back = loadModel(path, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const Channel &a = source.clips[0].channels[0], &b = back->clips[0].channels[0];
    EXPECT_EQ(b.interpolation, Interpolation::CubicSpline);
    ASSERT_EQ(b.times.size(), a.times.size() + 1); // the wrap key
    ASSERT_EQ(b.values.size(), a.values.size() + 3);
    // Every source key's value and in-tangent unchanged (the last out-tangent becomes the chord).
    for (size_t k = 0; k < a.times.size(); ++k) {
        EXPECT_EQ(a.times[k], b.times[k]);
        for (size_t part = 0; part < (k + 1 == a.times.size() ? 2u : 3u); ++part)
            EXPECT_EQ(glm::vec3(a.values[k * 3 + part]), glm::vec3(b.values[k * 3 + part]))
                << "key " << k << " part " << part;
    }
    double radius = bindPoseBounds(source).radius();
    for (double t : {0.1, 0.55, 1.07, 1.15}) {
        std::vector<PosedMesh> pa = poseModel(source, Playback{0, 0.0, 1.0, true}, t);
        std::vector<PosedMesh> pb = poseModel(*back, Playback{0, 0.0, 1.0, true}, t);
        double worst = 0.0;
        for (size_t v = 0; v < pa[0].positions.size(); ++v)
            worst = std::max(worst, glm::length(pa[0].positions[v] - pb[0].positions[v]));
        EXPECT_LT(worst, 1e-5 * radius) << "at " << t;
    }
}

TEST(Gltf, WrapToFirstGetsOneKeyAtTheEnd) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    Clip& walk = source.clips[0];
    walk.end = ClipEnd::WrapToFirst;
    walk.duration = 1.25f; // a tail after the last key, blending back into the first
    const TempDir dir;
    std::filesystem::path path = dir.path / "wrap.glb";
    ASSERT_TRUE(gltfFormat().write(source, path));
    Result<Model> back = loadModel(path, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const Clip& out = back->clips[0];
    EXPECT_EQ(out.end, ClipEnd::Hold);
    EXPECT_FLOAT_EQ(out.duration, 1.25f);
    for (size_t i = 0; i < walk.channels.size(); ++i) {
        const Channel &a = walk.channels[i], &b = out.channels[i];
        ASSERT_EQ(b.times.size(), a.times.size() + 1);
        EXPECT_TRUE(
            std::equal(a.times.begin(), a.times.end(), b.times.begin())); // the source keys, untouched
        EXPECT_EQ(b.times.back(), 1.25f);
    }
    double radius = bindPoseBounds(source).radius();
    for (double t : {1.05, 1.12, 1.2}) {
        std::vector<PosedMesh> a = poseModel(source, Playback{0, 0.0, 1.0, true}, t);
        std::vector<PosedMesh> b = poseModel(*back, Playback{0, 0.0, 1.0, true}, t);
        double worst = 0.0;
        for (size_t v = 0; v < a[0].positions.size(); ++v)
            worst = std::max(worst, glm::length(a[0].positions[v] - b[0].positions[v]));
        EXPECT_LT(worst, 1e-5 * radius) << "at " << t;
    }
}

TEST(Gltf, RepeatedKeyTimesBecomeStrictlyIncreasing) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    // A jump written as two keys at one time, as formats without stepped keys do.
    Channel jump;
    jump.node = 1;
    jump.path = ChannelPath::Translation;
    jump.times = {0.0f, 0.5f, 0.5f, 1.0f};
    jump.values = {glm::vec4(0, 0, 0, 0), glm::vec4(0, 0, 0, 0), glm::vec4(0, 1, 0, 0),
                   glm::vec4(0, 1, 0, 0)};
    Channel ramp = jump;
    ramp.node = 2;
    ramp.values[3] = glm::vec4(0, 2, 0, 0);
    source.clips[0].channels = {jump, ramp};
    const TempDir dir;
    std::filesystem::path path = dir.path / "repeat.glb";
    ASSERT_TRUE(gltfFormat().write(source, path));
    Result<Model> back = loadModel(path, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const Clip& out = back->clips[0];
    EXPECT_EQ(out.channels[0].interpolation, Interpolation::Step); // constant between jumps: exactly a step
    EXPECT_EQ(out.channels[0].times, (std::vector<float>{0.0f, 0.5f, 1.0f}));
    EXPECT_EQ(out.channels[1].interpolation, Interpolation::Linear);
    EXPECT_EQ(out.channels[1].times, (std::vector<float>{0.0f, std::nextafter(0.5f, 0.0f), 0.5f, 1.0f}));
    for (double t : {0.25, 0.5, 0.75}) {
        for (int c = 0; c < 2; ++c)
            EXPECT_NEAR(glm::length(sampleChannel(source.clips[0], source.clips[0].channels[c], t) -
                                    sampleChannel(out, out.channels[c], t)),
                        0.0, 1e-6)
                << "channel " << c << " at " << t;
    }
}

// A clip that keys nothing (NWN door states, an emitter's impact) keeps its name and length: glTF
// asks for one channel, so the writer keys the first node's rest translation, unchanged, and marks
// the animation; horde's reader drops that channel again. tinygltf used to drop the animation.
TEST(Gltf, ClipsThatKeyNothingKeepTheirNameAndLength) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    Clip opening;
    opening.name = "opening1";
    opening.duration = 1.5f;
    Clip instant;
    instant.name = "impact";
    source.clips = {opening, instant};
    const TempDir dir;
    const std::filesystem::path path = dir.path / "door.glb";
    Result<Companions> written = gltfFormat().write(source, path);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_TRUE(written->warnings.empty()) << written->warnings.front();

    // The file as any glTF reader sees it: two animations, each one channel on node 0's translation
    // holding its rest value over the clip's length.
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    uint32_t jsonLength = 0;
    std::memcpy(&jsonLength, bytes.data() + 12, 4);
    const json doc = json::parse(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
    ASSERT_EQ(doc["animations"].size(), 2u) << doc["animations"].dump();
    const json& anim = doc["animations"][0];
    EXPECT_EQ(anim["name"], "opening1");
    ASSERT_EQ(anim["channels"].size(), 1u);
    EXPECT_EQ(anim["channels"][0]["target"]["node"], 0);
    EXPECT_EQ(anim["channels"][0]["target"]["path"], "translation");
    EXPECT_EQ(anim["extras"]["horde_keys_nothing"], true);
    const json& times = doc["accessors"][anim["samplers"][0]["input"].get<size_t>()];
    EXPECT_EQ(times["count"], 2);
    EXPECT_EQ(times["max"][0], 1.5);
    EXPECT_EQ(doc["accessors"][doc["animations"][1]["samplers"][0]["input"].get<size_t>()]["count"], 1);

    Result<Model> back = loadModel(path, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->clips.size(), 2u);
    EXPECT_EQ(back->clips[0].name, "opening1");
    EXPECT_FLOAT_EQ(back->clips[0].duration, 1.5f);
    EXPECT_TRUE(back->clips[0].channels.empty());
    EXPECT_EQ(back->clips[1].name, "impact");
    EXPECT_TRUE(back->clips[1].channels.empty());
}

TEST(Gltf, ForgedHugeCountsFailBeforeAllocating) {
    json huge = document();
    huge["accessors"][0]["count"] = 0x7fffffff;
    json zeros = document(); // an accessor without a bufferView is that many zeros, backed by no bytes
    zeros["accessors"][0].erase("bufferView");
    zeros["accessors"][0]["count"] = 30000000;
    for (auto [doc, error] : {std::pair<const json&, const char*>{
                                  huge, "POSITION: accessor 0 count 2147483647 runs past its bufferView"},
                              {zeros, "POSITION: accessor 0 has no bufferView (30000000 zeros)"}}) {
        test::CountingAllocator counting;
        Result<Model> model =
            gltfFormat().readModel("test.glb", glb(doc, binChunk()), LoadOptions{}, counting);
        ASSERT_FALSE(model) << error;
        EXPECT_NE(model.error().message.find(error), std::string::npos) << model.error().message;
        EXPECT_EQ(counting.calls, 0) << error;
    }
}

TEST(Gltf, ReusedMeshesStayWithinTheStorageBound) {
    // One mesh placed by 5000 nodes: horde stores it again for every placement.
    json doc = document();
    for (int i = 0; i < 5000; ++i) {
        doc["nodes"][1]["children"].push_back(doc["nodes"].size());
        doc["nodes"].push_back({{"mesh", 0}});
    }
    test::CountingAllocator small;
    Result<Model> model = gltfFormat().readModel("test.glb", glb(doc, binChunk()), LoadOptions{}, small);
    ASSERT_TRUE(model) << "a triangle per placement is within the bound: " << model.error().message;
    EXPECT_EQ(small.calls, 5001);

    // The same placements of a 9999-vertex primitive would need 1.3 GB from a 175 KB file.
    Bytes bin;
    for (int v = 0; v < 9999; ++v)
        bin.f32(float(v)).f32(float(v % 7)).f32(0);
    json big = doc;
    big.erase("animations");
    big["buffers"][0]["byteLength"] = bin.size();
    big["bufferViews"] = {{{"buffer", 0}, {"byteLength", bin.size()}}};
    big["accessors"] = {{{"bufferView", 0}, {"componentType", 5126}, {"count", 9999}, {"type", "VEC3"}}};
    big["meshes"][0]["primitives"] = {{{"attributes", {{"POSITION", 0}}}}};
    std::vector<std::byte> bytes = glb(big, bin);
    test::CountingAllocator bounded;
    model = gltfFormat().readModel("test.glb", bytes, LoadOptions{}, bounded);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("more bytes of mesh storage would pass 128 per byte of the file"),
              std::string::npos)
        << model.error().message;
    // The bound counts the file and the buffer it carries: twice the bytes of a .glb.
    EXPECT_LE(bounded.bytes, kStoragePerInputByte * 2 * bytes.size() + kStorageSlack);
    EXPECT_GT(bounded.calls, 100) << "placements up to the bound are decoded";
}

TEST(Gltf, ChannelsSharingASamplerStayWithinTheKeyBound) {
    // 2,000 channels of one 20,000-key sampler: every channel keeps its own copy of the keys,
    // 800 MB from a file of under 500 KB.
    Bytes bin;
    for (int k = 0; k < 20000; ++k)
        bin.f32(float(k));
    for (int k = 0; k < 20000; ++k)
        bin.f32(float(k)).f32(0).f32(0);
    json doc = document();
    doc["nodes"][0].erase("mesh"); // it would read keys as its indices
    doc["buffers"][0]["byteLength"] = bin.size();
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 80000}});
    doc["bufferViews"].push_back({{"buffer", 0}, {"byteOffset", 80000}, {"byteLength", 240000}});
    doc["accessors"].push_back(
        {{"bufferView", 5}, {"componentType", 5126}, {"count", 20000}, {"type", "SCALAR"}});
    doc["accessors"].push_back(
        {{"bufferView", 6}, {"componentType", 5126}, {"count", 20000}, {"type", "VEC3"}});
    json& anim = doc["animations"][0];
    anim["samplers"] = {{{"input", 6}, {"output", 7}}};
    anim["channels"] = json::array();
    for (int c = 0; c < 2000; ++c)
        anim["channels"].push_back({{"sampler", 0}, {"target", {{"node", 0}, {"path", "translation"}}}});
    std::vector<std::byte> bytes = glb(doc, bin);
    HeapMeshAllocator heap;
    Result<Model> model = gltfFormat().readModel("test.glb", bytes, LoadOptions{}, heap);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("test.glb: animation 0 'move' channel"), std::string::npos)
        << model.error().message;
    EXPECT_NE(model.error().message.find("more bytes of keys would pass 128 per byte of the file"),
              std::string::npos)
        << model.error().message;
}

} // namespace
} // namespace horde
