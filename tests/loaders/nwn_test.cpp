// NWN binary MDL: a tiny model written byte by byte from the spec's layout, the monster round
// trip, supermodel chains, and corrupt files.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "anim/reference.h"
#include "loader.h"
#include "monster.h"
#include "nwn/nwn.h"
#include "support/bytes.h"
#include "support/counting_allocator.h"
#include "support/temp_dir.h"
#include "support/warnings.h"
#include "survey.h"

using namespace horde;
using horde::test::Bytes;

namespace {
const Format& mdlFormat() { return nwnFormat(); }

constexpr float kS = 0.70710678f; // sin 45 degrees = cos 45 degrees

struct Arr {
    uint32_t offset = 0, count = 0;
};

void array(Bytes& b, Arr a) { b.u32(a.offset).u32(a.count).u32(a.count); }
void name(Bytes& b, const std::string& s, size_t width) { b.text(s).zeros(width - s.size()); }
// Model-data offset of the next byte.
uint32_t here(const Bytes& b) { return uint32_t(b.size() - 12); }

void nodeHeader(Bytes& b, uint32_t part, const std::string& n, Arr children, Arr keys, Arr data, uint32_t flags) {
    b.zeros(24).u32(0).u32(part);
    name(b, n, 32);
    b.u32(0).u32(0);
    array(b, children);
    array(b, keys);
    array(b, data);
    b.u32(flags);
}

void controller(Bytes& b, int32_t type, int16_t rows, int16_t time, int16_t data, int8_t columns) {
    b.i32(type).i16(rows).i16(time).i16(data).u8(uint8_t(columns)).u8(0);
}

void floats(Bytes& b, std::initializer_list<float> values) {
    for (float f : values) b.f32(f);
}

void geometryHeader(Bytes& b, const std::string& n, uint32_t root, uint32_t nodes, uint8_t type) {
    b.u32(0x401000).u32(0x401010); // function pointers: meaningless on disk
    name(b, n, 64);
    b.u32(root).u32(nodes).zeros(24).u32(0).u8(type).zeros(3);
}

// The tiny model, model-data offsets fixed by hand:
//   0x000 model header          0x0E8 node "root" (dummy)     0x158 root's child pointers
//   0x15C node "tri" (trimesh)  0x3CC tri controller keys     0x3E4 tri controller data
//   0x408 one face              0x428 animation pointers      0x42C animation "wave"
//   0x4F0 one event             0x514 anim node "root"        0x584 its child pointers
//   0x588 anim node "TRI"       0x5F8 TRI controller keys     0x610 TRI controller data
// Raw data: 0 vertices (3 x vec3), 36 normals, 72 texture vertices.
constexpr uint32_t kModelSize = 0x688, kRawSize = 96;
constexpr uint32_t kRootChildren = 0x158, kTri = 0x15C, kTriKeys = 0x3CC, kFace = 0x408;

Bytes tinyModel() {
    Bytes b;
    b.u32(0).u32(kModelSize).u32(kRawSize);
    // Model header.
    geometryHeader(b, "tiny", 0xE8, 2, 2);
    b.u8(0).u8(1).u8(4).u8(1).u32(0);
    array(b, {0x428, 1});
    b.u32(0);
    floats(b, {-5, -5, -1, 5, 5, 10, 7});
    b.f32(1.0f); // animation scale
    name(b, "NULL", 64);
    EXPECT_EQ(here(b), 0xE8u);
    nodeHeader(b, 0, "root", {kRootChildren, 1}, {}, {}, 0x1);
    EXPECT_EQ(here(b), kRootChildren);
    b.u32(kTri);
    // Trimesh node: header, then the mesh header.
    nodeHeader(b, 1, "tri", {}, {kTriKeys, 2}, {0x3E4, 9}, 0x21);
    b.u32(0).u32(0);          // mesh function pointers
    array(b, {kFace, 1});     // 0x78 faces
    floats(b, {0, 0, 0, 1, 1, 0, 0.7f, 0.3f, 0.3f, 0}); // bounds, radius, average
    floats(b, {0.8f, 0.8f, 0.8f, 0.2f, 0.2f, 0.2f, 0, 0, 0, 1}); // diffuse, ambient, specular, shininess
    b.u32(1).u32(0).u32(1).u32(0).u32(0); // shadow, beaming, render, transparency, unknown
    b.text("tex0").u8(0).text("JUNK").zeros(64 - 9); // texture0: junk after the NUL
    b.zeros(64 * 3);
    b.u32(0);                 // tile fade
    b.zeros(48);              // vertex index arrays (empty)
    b.u32(0xFFFFFFFF).u32(0); // strip data
    b.u8(3).zeros(3).u32(0);  // triangle mode, padding, compile-only pointer
    b.u32(0);                 // 0x22C vertices at raw 0
    b.u16(3).u16(1);          // vertex count, texture count
    b.u32(72).u32(0xFFFFFFFF).u32(0xFFFFFFFF).u32(0xFFFFFFFF); // texture vertices
    b.u32(36);                // normals
    b.u32(0xFFFFFFFF);        // colours
    for (int i = 0; i < 6; ++i) b.u32(0xFFFFFFFF);
    b.u8(0).u8(0).u16(0).f32(0).u32(0);
    EXPECT_EQ(here(b), kTriKeys);
    controller(b, 8, 1, 0, 1, 3);  // position (1, 2, 3)
    controller(b, 20, 1, 4, 5, 4); // orientation: 90 degrees about Z
    floats(b, {0, 1, 2, 3, 0, 0, 0, kS, kS});
    EXPECT_EQ(here(b), kFace);
    floats(b, {0, 0, 1, 0});
    b.i32(1).i16(-1).i16(-1).i16(-1).u16(0).u16(1).u16(2);
    EXPECT_EQ(here(b), 0x428u);
    b.u32(0x42C);
    // Animation "wave": 2 s.
    geometryHeader(b, "wave", 0x514, 2, 5);
    b.f32(2.0f).f32(0.25f);
    name(b, "root", 64);
    array(b, {0x4F0, 1});
    EXPECT_EQ(here(b), 0x4F0u);
    b.f32(0.5f);
    name(b, "hit", 32);
    EXPECT_EQ(here(b), 0x514u);
    nodeHeader(b, 0, "root", {0x584, 1}, {}, {}, 0x1);
    b.u32(0x588);
    // Upper case: animation nodes bind to model nodes ignoring case.
    nodeHeader(b, 1, "TRI", {}, {0x5F8, 2}, {0x610, 30}, 0x1);
    EXPECT_EQ(here(b), 0x5F8u);
    controller(b, 20, 2, 0, 2, 4);           // orientation: identity at 0 s, 90 degrees about Z at 1 s
    controller(b, 8, 2, 10, 12, 0x10 | 3);   // bezier position, keys at 0 s and 2 s
    floats(b, {0, 1, 0, 0, 0, 1, 0, 0, kS, kS});
    floats(b, {0, 2});
    // Per key: value, in-control, out-control. In x the segment's control points are 0, 2, 2, 0.
    floats(b, {0, 0, 0, 9, 9, 9, 2, 0, 0});
    floats(b, {0, 0, 0, 2, 0, 0, 9, 9, 9});
    EXPECT_EQ(here(b), kModelSize);
    floats(b, {0, 0, 0, 1, 0, 0, 0, 1, 0});    // vertices
    floats(b, {0, 0, 1, 0, 0, 1, 0, 0, 1});    // normals
    floats(b, {0, 0, 1, 0, 0, 1});             // texture vertices
    EXPECT_EQ(b.size(), 12 + kModelSize + kRawSize);
    return b;
}

Result<Model> load(std::span<const std::byte> bytes, HeapMeshAllocator& allocator, const LoadOptions& options = {}) {
    Result<Model> model = mdlFormat().readModel("tiny.mdl", bytes, options, allocator);
    if (model) finalizeMeshes(*model);
    return model;
}

void expectVec(glm::vec3 a, glm::vec3 b, float tolerance = 1e-6f) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

void expectFails(const std::vector<std::byte>& bytes, const std::string& field) {
    HeapMeshAllocator allocator;
    Result<Model> model = load(bytes, allocator);
    ASSERT_FALSE(model) << "expected a failure naming " << field;
    EXPECT_NE(model.error().message.find(field), std::string::npos) << model.error().message;
    EXPECT_NE(model.error().message.find("tiny.mdl"), std::string::npos) << model.error().message;
}

std::vector<std::byte> patched(Bytes b, uint32_t modelOffset, uint32_t value) {
    b.patch32(12 + modelOffset, value);
    return b.data();
}

struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_nwn") {}
};
} // namespace

TEST(Nwn, DetectsBinaryAndAsciiMdl) {
    Bytes b = tinyModel();
    EXPECT_TRUE(mdlFormat().detect("x.bin", b.span()));
    EXPECT_FALSE(nwnAsciiFormat().detect("x.mdl", b.span()));
    Bytes ascii;
    ascii.text("#MAXMODEL ASCII\nnewmodel tiny\n");
    EXPECT_FALSE(mdlFormat().detect("x.mdl", ascii.span()));
    EXPECT_TRUE(nwnAsciiFormat().detect("x.mdl", ascii.span()));
    EXPECT_FALSE(nwnAsciiFormat().detect("x.txt", ascii.span()));
    // Either entry reads either encoding (the first word decides): this text lacks its end.
    HeapMeshAllocator allocator;
    Result<Model> model = load(ascii.span(), allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("line 2, column 14: donemodel"), std::string::npos) << model.error().message;
}

TEST(Nwn, TinyModelGeometry) {
    HeapMeshAllocator allocator;
    Bytes b = tinyModel();
    Result<Model> model = load(b.span(), allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_EQ(model->format, "nwn");
    EXPECT_EQ(model->axes.up, Axes::Up::Z);
    ASSERT_EQ(model->nodes.size(), 2u);
    EXPECT_EQ(model->nodes[0].name, "root");
    EXPECT_EQ(model->nodes[0].parent, -1);
    EXPECT_EQ(model->nodes[1].name, "tri");
    EXPECT_EQ(model->nodes[1].parent, 0);
    expectVec(model->nodes[1].translation, {1, 2, 3});
    glm::quat r = model->nodes[1].rotation;
    EXPECT_NEAR(r.w, kS, 1e-6f);
    EXPECT_NEAR(r.z, kS, 1e-6f);
    EXPECT_NEAR(r.x, 0.0f, 1e-6f);

    ASSERT_EQ(model->meshes.size(), 1u);
    const Mesh& mesh = model->meshes[0];
    EXPECT_EQ(mesh.node, 1u);
    EXPECT_FALSE(mesh.skinned());
    ASSERT_EQ(mesh.vertexCount(), 3u);
    ASSERT_EQ(mesh.indexCount(), 3u);
    expectVec(mesh.arrays().positions[1], {1, 0, 0});
    expectVec(mesh.arrays().positions[2], {0, 1, 0});
    expectVec(mesh.arrays().normals[0], {0, 0, 1});
    EXPECT_EQ(mesh.arrays().uv0[1], glm::vec2(1, 0));
    EXPECT_EQ(mesh.arrays().index(0), 0u);
    EXPECT_EQ(mesh.arrays().index(2), 2u);
    ASSERT_EQ(mesh.submeshes.size(), 1u);
    EXPECT_EQ(mesh.submeshes[0].material, "tex0"); // the junk after the NUL is ignored

    // Vertex (1, 0, 0) of "tri" lies at translation + Rz(90) (1, 0, 0) = (1, 3, 3) in the bind pose.
    std::vector<PosedMesh> posed = poseModel(*model, Playback{}, 0.0);
    EXPECT_NEAR(posed[0].positions[1].x, 1.0, 1e-6);
    EXPECT_NEAR(posed[0].positions[1].y, 3.0, 1e-6);
    EXPECT_NEAR(posed[0].positions[1].z, 3.0, 1e-6);
}

TEST(Nwn, TinyModelAnimation) {
    HeapMeshAllocator allocator;
    Bytes b = tinyModel();
    Result<Model> model = load(b.span(), allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->clips.size(), 1u);
    const Clip& clip = model->clips[0];
    EXPECT_EQ(clip.name, "wave");
    EXPECT_FLOAT_EQ(clip.duration, 2.0f);
    EXPECT_EQ(clip.end, ClipEnd::Hold);
    EXPECT_EQ(clip.rotationBlend, RotationBlend::Slerp);
    ASSERT_EQ(clip.channels.size(), 2u);
    const Channel& turn = clip.channels[0];
    EXPECT_EQ(turn.node, 1u);
    EXPECT_EQ(turn.path, ChannelPath::Rotation);
    EXPECT_EQ(turn.interpolation, Interpolation::Linear);
    EXPECT_EQ(turn.times, (std::vector<float>{0.0f, 1.0f}));
    // Halfway: 45 degrees about Z.
    glm::dvec4 q = sampleChannel(clip, turn, 0.5);
    EXPECT_NEAR(q.z, std::sin(M_PI / 8), 1e-6);
    EXPECT_NEAR(q.w, std::cos(M_PI / 8), 1e-6);

    const Channel& move = clip.channels[1];
    EXPECT_EQ(move.path, ChannelPath::Translation);
    ASSERT_EQ(move.interpolation, Interpolation::CubicSpline);
    ASSERT_EQ(move.values.size(), 6u);
    // Tangents: out of key 0 = 3 (2 - 0) / 2 s, into key 1 = 3 (0 - 2) / 2 s.
    EXPECT_FLOAT_EQ(move.values[2].x, 3.0f);
    EXPECT_FLOAT_EQ(move.values[3].x, -3.0f);
    EXPECT_FLOAT_EQ(move.values[0].x, 0.0f);
    EXPECT_FLOAT_EQ(move.values[5].x, 0.0f);
    // Bezier 0, 2, 2, 0 at s = 1/2: 3/8 * 2 + 3/8 * 2 = 1.5; at s = 1/4: 27/64 * 2 + 9/64 * 2 = 1.125.
    EXPECT_NEAR(sampleChannel(clip, move, 1.0).x, 1.5, 1e-6);
    EXPECT_NEAR(sampleChannel(clip, move, 0.5).x, 1.125, 1e-6);
    EXPECT_NEAR(sampleChannel(clip, move, 1.0).y, 0.0, 1e-6);

    bool event = false;
    for (const Extra& e : model->extras)
        if (e.kind == "animation" && e.detail.find("event 'hit' at 0.5 s") != std::string::npos) event = true;
    EXPECT_TRUE(event);
}

TEST(Nwn, BezierConversionIsExact) {
    // Control points 1, 4, -2, 3 over [1 s, 3 s]: B(s) at s = 0.3 against the Hermite sample.
    std::vector<float> times{1.0f, 3.0f};
    std::vector<glm::vec4> controls{glm::vec4(1), glm::vec4(7), glm::vec4(4), glm::vec4(3), glm::vec4(-2), glm::vec4(5)};
    Clip clip;
    clip.duration = 3.0f;
    Channel c;
    c.path = ChannelPath::Translation;
    c.interpolation = Interpolation::CubicSpline;
    c.times = times;
    c.values = nwn::bezierToCubicSpline(times, controls);
    double s = 0.3, u = 1 - s;
    double expected = u * u * u * 1 + 3 * u * u * s * 4 + 3 * u * s * s * -2 + s * s * s * 3;
    EXPECT_NEAR(sampleChannel(clip, c, 1.0 + 2.0 * s).x, expected, 1e-5);
}

TEST(Nwn, EveryTruncationFailsCleanly) {
    Bytes b = tinyModel();
    for (const auto& cut : test::truncations(b.span())) {
        HeapMeshAllocator allocator;
        Result<Model> model = load(cut, allocator);
        EXPECT_FALSE(model) << cut.size() << " bytes loaded";
    }
}

// A binary .mdl cut short is still recognised as one (its first word is zero), and the error says
// which format it looked like, the byte it ends at and which region runs past it; the folder
// survey says the same.
TEST(Nwn, TruncatedFileNamesTheFormatAndWhereItEnds) {
    TempDir dir;
    const Bytes whole = tinyModel();
    struct Cut {
        size_t size;
        std::string says;
    };
    const Cut cuts[] = {
        {6, "offset 6 (0x6): header: NWN binary model cut short: its 12-byte file header runs past the end "
            "of the file"},
        {12 + 0x100,
         "offset 268 (0x10c): header: model data size: NWN binary model cut short: model data (offset 12, "
         "size 1672) runs past the end of the file"},
        {12 + kModelSize + 40,
         "offset 1724 (0x6bc): header: raw data size: NWN binary model cut short: raw data "
         "(offset 1684, size 96) runs past the end of the file"},
    };
    for (const Cut& cut : cuts) {
        const std::filesystem::path path = dir.path / "cut.mdl";
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(whole.data().data()), std::streamsize(cut.size));
        HeapMeshAllocator allocator;
        Result<Model> model = loadModel(path, {}, allocator);
        ASSERT_FALSE(model) << cut.size;
        EXPECT_EQ(model.error().message, path.string() + ": " + cut.says);
        std::vector<std::byte> bytes(whole.data().begin(), whole.data().begin() + long(cut.size));
        Result<FileSurvey> survey = surveyFile(path, bytes);
        ASSERT_FALSE(survey) << cut.size;
        EXPECT_EQ(survey.error().message, path.string() + ": " + cut.says);
    }
}

TEST(Nwn, CorruptFieldsFailNamingTheField) {
    Bytes b = tinyModel();
    expectFails(patched(b, kRootChildren, 0xE8), "reached twice");               // root is its own child
    expectFails(patched(b, 0xE8 + 0x48 + 4, 0x40000000), "node children");        // forged child count
    expectFails(patched(b, kTri + 0x78 + 4, 0x10000000), "mesh faces");           // forged face count
    expectFails(patched(b, kTri + 0x22C, 1000), "mesh vertices");                 // vertices past the raw data
    expectFails(patched(b, kTri + 0x6C, 0x12345), "node flags");
    expectFails(patched(b, kTriKeys + 4, (40 << 16) | 1), "controller data index"); // time index 40 of 9 floats
    expectFails(patched(b, kTriKeys + 8, 0x00070001), "controller columns");       // data index 1, 7 columns
    expectFails(patched(b, kFace + 0x1C, 0x00070001), "face vertex indices");      // vertex 7 of 3
    expectFails(patched(b, 0x428, 0x9999), "animation header");
    expectFails(patched(b, 0xA4, 0x7F800000), "model animation scale");           // infinite
    Bytes header = b;
    header.patch32(4, 0x7FFFFFFF);
    expectFails(header.data(), "header: model data size");
}

TEST(Nwn, DeepChainsAreRejected) {
    // 1100 dummies, each the only child of the one before: deeper than the walker allows.
    const uint32_t count = 1100, nodeBytes = 0x70 + 4;
    Bytes b;
    b.u32(0).u32(0xE8 + count * nodeBytes).u32(0);
    geometryHeader(b, "deep", 0xE8, count, 2);
    b.zeros(8);
    array(b, {});
    b.zeros(4 + 28);
    b.f32(1.0f);
    name(b, "NULL", 64);
    for (uint32_t i = 0; i < count; ++i) {
        uint32_t at = here(b);
        bool last = i + 1 == count;
        nodeHeader(b, i, "n" + std::to_string(i), {last ? 0u : at + 0x70, last ? 0u : 1u}, {}, {}, 0x1);
        b.u32(last ? 0 : at + nodeBytes);
    }
    expectFails(b.data(), "deeper than 1024");
}

namespace {
// Model-space corners (positions of each index, every mesh in order): a split mesh compares
// corner for corner with the mesh it was cut from.
std::vector<glm::dvec3> corners(const Model& model, const Playback& playback, double time) {
    std::vector<PosedMesh> posed = poseModel(model, playback, time);
    std::vector<glm::dvec3> out;
    for (size_t m = 0; m < model.meshes.size(); ++m)
        for (size_t i = 0; i < model.meshes[m].indexCount(); ++i) out.push_back(posed[m].positions[model.meshes[m].arrays().index(i)]);
    return out;
}

// Scale channels with unequal axes cannot be written (the format's scale is uniform).
void dropNonUniformScale(Model& model) {
    for (Clip& clip : model.clips)
        std::erase_if(clip.channels, [](const Channel& c) {
            if (c.path != ChannelPath::Scale) return false;
            for (glm::vec4 v : c.values)
                if (v.x != v.y || v.x != v.z) return true;
            return false;
        });
}

// Y up (the monster) -> Z up (the file): (x, y, z) -> (x, -z, y); back: (x, y, z) -> (x, z, -y).
glm::dvec3 fromFile(glm::dvec3 p) { return {p.x, p.z, -p.y}; }
} // namespace

TEST(Nwn, MonsterRoundTrips) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    dropNonUniformScale(source);
    TempDir dir;
    std::filesystem::path path = dir.path / "m.mdl";
    Result<Companions> written = mdlFormat().write(source, path);
    ASSERT_TRUE(written) << written.error().message;
    Result<Model> loaded = loadModel(path, {}, allocator);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_TRUE(test::withoutMissingTextures(loaded->warnings).empty()) << loaded->warnings.front();
    // + the model's root, + the mesh node's further pieces (its first piece is the node itself).
    EXPECT_EQ(loaded->nodes.size(), source.nodes.size() + 1 + loaded->meshes.size() - 1);
    for (const Node& n : source.nodes) EXPECT_GE(findNode(*loaded, n.name), 0) << n.name;
    EXPECT_EQ(loaded->meshes.front().name, source.nodes[source.meshes[0].node].name);

    // Weights, corner by corner, by joint name.
    const Mesh& a = source.meshes[0];
    const Skin& sa = source.skins[0];
    size_t corner = 0;
    uint32_t totalIndices = 0;
    for (const Mesh& b : loaded->meshes) {
        ASSERT_TRUE(b.skinned());
        EXPECT_LE(loaded->skins[size_t(b.skin)].joints.size(), 17u);
        const Skin& sb = loaded->skins[size_t(b.skin)];
        for (size_t i = 0; i < b.indexCount(); ++i, ++corner) {
            uint32_t va = a.arrays().index(corner), vb = b.arrays().index(i);
            // Summed per joint name: a vertex may name one joint in two slots.
            std::map<std::string, float> want, got;
            for (int k = 0; k < 4; ++k) {
                if (a.arrays().weights[va][k] > 0.0f)
                    want[source.nodes[sa.joints[a.arrays().joints[va][k]]].name] += a.arrays().weights[va][k];
                if (b.arrays().weights[vb][k] > 0.0f)
                    got[loaded->nodes[sb.joints[b.arrays().joints[vb][k]]].name] += b.arrays().weights[vb][k];
            }
            ASSERT_EQ(got.size(), want.size()) << "corner " << corner;
            for (const auto& [joint, w] : want) EXPECT_NEAR(got[joint], w, 1e-6f) << "corner " << corner << " " << joint;
        }
        totalIndices += b.indexCount();
    }
    ASSERT_EQ(totalIndices, a.indexCount());
    EXPECT_EQ(loaded->meshes.front().submeshes[0].material, "hide");

    ASSERT_EQ(loaded->clips.size(), source.clips.size());
    for (size_t c = 0; c < source.clips.size(); ++c) {
        EXPECT_EQ(loaded->clips[c].name, source.clips[c].name);
        EXPECT_FLOAT_EQ(loaded->clips[c].duration, source.clips[c].duration);
    }
    struct Sample {
        int32_t clip;
        double time;
    };
    // Bind pose; walk between and on keys; attack on either side of the stepped jaw's keys.
    for (Sample s : {Sample{-1, 0.0}, Sample{0, 0.0}, Sample{0, 0.37}, Sample{0, 0.5}, Sample{0, 0.93}, Sample{1, 0.2},
                     Sample{1, 0.69}, Sample{1, 0.7}, Sample{1, 0.8}, Sample{1, 0.9}, Sample{1, 1.3}}) {
        Playback playback;
        playback.clip = s.clip;
        playback.loop = false;
        std::vector<glm::dvec3> want = corners(source, playback, s.time);
        std::vector<glm::dvec3> got = corners(*loaded, playback, s.time);
        ASSERT_EQ(got.size(), want.size());
        double worst = 0.0;
        for (size_t i = 0; i < want.size(); ++i)
            worst = std::max(worst, glm::length(fromFile(got[i]) - want[i]) / std::max(1.0, glm::length(want[i])));
        EXPECT_LT(worst, 1e-5) << "clip " << s.clip << " at " << s.time << " s";
    }
}

namespace {
// A two-node model (root, "arm") whose one clip moves "arm" to `position`.
Model armModel(const std::string& clipName, glm::vec3 position) {
    Model m;
    m.nodes.push_back(Node{"hips", -1});
    Node arm;
    arm.name = "arm";
    arm.parent = 0;
    arm.translation = glm::vec3(0, 1, 0);
    m.nodes.push_back(arm);
    Clip clip;
    clip.name = clipName;
    clip.duration = 1.0f;
    Channel c;
    c.node = 1;
    c.times = {0.0f};
    c.values = {glm::vec4(position, 0.0f)};
    clip.channels.push_back(c);
    m.clips.push_back(clip);
    return m;
}

// Writes `model`, then sets the header's supermodel name and animation scale.
void writeWithSupermodel(const Model& model, const std::filesystem::path& path, const std::string& super, float scale) {
    ASSERT_TRUE(mdlFormat().write(model, path));
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(12 + 0xA4);
    f.write(reinterpret_cast<const char*>(&scale), 4);
    char text[64] = {};
    std::memcpy(text, super.data(), super.size());
    f.write(text, 64);
}

glm::dvec3 armPosition(const Model& model, const std::string& clipName) {
    int32_t clip = findClip(model, clipName);
    EXPECT_GE(clip, 0) << clipName;
    if (clip < 0) return {};
    const Clip& c = model.clips[size_t(clip)];
    return glm::dvec3(sampleChannel(c, c.channels.at(0), 0.0));
}
} // namespace

TEST(Nwn, SupermodelChainInheritsScaledClips) {
    TempDir dir;
    // child (scale 2) -> mid (scale 3, clip "run") -> base (clips "run", "idle").
    writeWithSupermodel(armModel("own", {0, 0, 1}), dir.path / "child.mdl", "mid", 2.0f);
    writeWithSupermodel(armModel("run", {0, 0, 1}), dir.path / "mid.mdl", "BASE", 3.0f);
    Model base = armModel("run", {0, 0, 5});
    base.clips.push_back(armModel("idle", {0, 0, 1}).clips[0]);
    writeWithSupermodel(base, dir.path / "base.mdl", "NULL", 1.0f);

    HeapMeshAllocator allocator;
    Result<Model> model = loadModel(dir.path / "child.mdl", {}, allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->clips.size(), 3u);
    // File axes are Z up: the source's +Z is the file's -Y.
    EXPECT_NEAR(armPosition(*model, "own").y, -1.0, 1e-6);
    EXPECT_NEAR(armPosition(*model, "run").y, -2.0, 1e-6); // mid's run, times child's 2
    EXPECT_NEAR(armPosition(*model, "idle").y, -6.0, 1e-6); // base's idle, times 2 * 3
    EXPECT_EQ(model->clips[size_t(findClip(*model, "own"))].source, "");
    EXPECT_EQ(model->clips[size_t(findClip(*model, "run"))].source, "mid.mdl");
    EXPECT_EQ(model->clips[size_t(findClip(*model, "idle"))].source, "base.mdl");
}

TEST(Nwn, SupermodelSearchPathsAndMissingOnes) {
    TempDir dir, other;
    writeWithSupermodel(armModel("own", {0, 0, 1}), dir.path / "child.mdl", "far", 1.0f);
    writeWithSupermodel(armModel("far", {0, 0, 1}), other.path / "far.mdl", "NULL", 1.0f);
    HeapMeshAllocator allocator;
    Result<Model> missing = loadModel(dir.path / "child.mdl", {}, allocator);
    ASSERT_TRUE(missing) << missing.error().message;
    EXPECT_EQ(missing->clips.size(), 1u);
    ASSERT_FALSE(missing->warnings.empty());
    EXPECT_NE(missing->warnings[0].find("'far' not found"), std::string::npos) << missing->warnings[0];
    LoadOptions options;
    options.searchPaths = {other.path};
    Result<Model> found = loadModel(dir.path / "child.mdl", options, allocator);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(found->clips.size(), 2u);
}

TEST(Nwn, SupermodelLoopsAreRejected) {
    TempDir dir;
    writeWithSupermodel(armModel("a", {0, 0, 1}), dir.path / "one.mdl", "two", 1.0f);
    writeWithSupermodel(armModel("b", {0, 0, 1}), dir.path / "two.mdl", "one", 1.0f);
    HeapMeshAllocator allocator;
    Result<Model> model = loadModel(dir.path / "one.mdl", {}, allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("supermodel chain loops"), std::string::npos) << model.error().message;
}

TEST(Nwn, AnimFromAnotherMdlBindsByName) {
    TempDir dir;
    writeWithSupermodel(armModel("own", {0, 0, 1}), dir.path / "model.mdl", "NULL", 0.5f);
    writeWithSupermodel(armModel("extra", {0, 0, 4}), dir.path / "anims.mdl", "NULL", 1.0f);
    HeapMeshAllocator allocator;
    LoadOptions options;
    options.anims = {dir.path / "anims.mdl"};
    Result<Model> model = loadModel(dir.path / "model.mdl", options, allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->clips.size(), 2u);
    EXPECT_EQ(model->clips[1].source, "anims.mdl");
    EXPECT_NEAR(armPosition(*model, "extra").y, -2.0, 1e-6); // 4 times the model's scale 0.5
}

TEST(Nwn, CubicAndStepChannelsRoundTrip) {
    Model m = armModel("swing", {0, 0, 1});
    Channel& c = m.clips[0].channels[0];
    c.interpolation = Interpolation::CubicSpline;
    c.times = {0.0f, 0.4f, 1.0f};
    c.values = {glm::vec4(0), glm::vec4(0, 1, 0, 0), glm::vec4(2, 0, 0, 0), glm::vec4(1, 0, 0, 0), glm::vec4(0, 3, 0, 0),
                glm::vec4(0, 0, 1, 0), glm::vec4(0), glm::vec4(0, 0, 2, 0), glm::vec4(0)};
    Channel step;
    step.node = 1;
    step.path = ChannelPath::Rotation;
    step.interpolation = Interpolation::Step;
    step.times = {0.0f, 0.5f};
    step.values = {glm::vec4(0, 0, 0, 1), glm::vec4(0, kS, 0, kS)};
    m.clips[0].channels.push_back(step);
    TempDir dir;
    ASSERT_TRUE(mdlFormat().write(m, dir.path / "swing.mdl"));
    HeapMeshAllocator allocator;
    Result<Model> loaded = loadModel(dir.path / "swing.mdl", {}, allocator);
    ASSERT_TRUE(loaded) << loaded.error().message;
    for (double t : {0.1, 0.3, 0.45, 0.5, 0.7, 0.99}) {
        Playback playback;
        playback.clip = 0;
        playback.loop = false;
        std::vector<glm::dmat4> la(m.nodes.size()), lb(loaded->nodes.size());
        sampleLocals(m, &m.clips[0], t, la);
        sampleLocals(*loaded, &loaded->clips[0], t, lb);
        glm::dmat4 want = la[1], got = lb[size_t(findNode(*loaded, "arm"))];
        glm::dmat3 back(1, 0, 0, 0, 0, -1, 0, 1, 0); // file axes -> source axes
        glm::dmat4 b(back);
        glm::dmat4 inSource = b * got * glm::transpose(b);
        for (int col = 0; col < 4; ++col)
            for (int row = 0; row < 3; ++row) EXPECT_NEAR(inSource[col][row], want[col][row], 1e-5) << "t " << t;
    }
}

TEST(Nwn, ForgedHugeCountsFailBeforeAllocating) {
    const Bytes b = tinyModel();
    struct Forged {
        uint32_t offset, value;
        const char* error;
    };
    for (const Forged& f : {Forged{0xE8 + 0x48 + 4, 0x40000000, "node children: more nodes than the 1672-byte model data"},
                            Forged{kTri + 0x78 + 4, 0x10000000, "mesh faces: count 268435456 does not fit"},
                            Forged{kTri + 0x60 + 4, 0x20000000, "controller data: count 536870912 does not fit"},
                            Forged{kTri + 0x230, 0x0001FFFF, "mesh vertices: count 65535 does not fit in the raw data"}}) {
        test::CountingAllocator counting;
        Result<Model> model =
            mdlFormat().readModel("tiny.mdl", patched(b, f.offset, f.value), LoadOptions{}, counting);
        ASSERT_FALSE(model) << f.error;
        EXPECT_NE(model.error().message.find(f.error), std::string::npos) << model.error().message;
        EXPECT_EQ(counting.calls, 0) << f.error;
    }
}

TEST(Nwn, NodesSharingOneArrayCannotMakeDecodingQuadratic) {
    // 64 dummies whose controller data is one shared 64 KiB array: each array fits the file,
    // but reading it once per node would read 4 MiB from a 73 KiB file.
    const uint32_t nodes = 64, floats = 16384;
    const uint32_t children = 0xE8 + 0x70, first = children + 4 * nodes, data = first + nodes * 0x70;
    Bytes b;
    b.u32(0).u32(data + 4 * floats).u32(0);
    geometryHeader(b, "shared", 0xE8, nodes + 1, 2);
    b.zeros(8);
    array(b, {});
    b.zeros(4 + 28);
    b.f32(1.0f);
    name(b, "NULL", 64);
    nodeHeader(b, 0, "root", {children, nodes}, {}, {}, 0x1);
    for (uint32_t i = 0; i < nodes; ++i) b.u32(first + i * 0x70);
    for (uint32_t i = 0; i < nodes; ++i) nodeHeader(b, i + 1, "n" + std::to_string(i), {}, {}, {data, floats}, 0x1);
    for (uint32_t i = 0; i < floats; ++i) b.f32(0.0f);
    ASSERT_EQ(here(b), data + 4 * floats);
    expectFails(b.data(), "controller data: the file's structures share data so much that decoding would read more than 8 times its");

    // Sharing that reads little is no sign of a forged file: with 256 shared floats per node it loads.
    Bytes fair = b;
    for (uint32_t i = 0; i < nodes; ++i) fair.patch32(12 + first + i * 0x70 + 0x60 + 4, floats / nodes);
    HeapMeshAllocator heap;
    Result<Model> model = load(fair.data(), heap);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_EQ(model->nodes.size(), nodes + 1);
}
