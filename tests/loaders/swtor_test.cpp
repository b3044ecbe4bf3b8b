// SWTOR GAWB .gr2: hand-built mesh and skeleton files with hand-computed values, the monster
// round trip, and truncated, corrupted and forged files that must fail cleanly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <glm/gtc/packing.hpp>

#include "anim/reference.h"
#include "loader.h"
#include "monster.h"
#include "support/bytes.h"
#include "support/counting_allocator.h"
#include "support/temp_dir.h"
#include "support/warnings.h"
#include "swtor/swtor.h"

using namespace horde;
using horde::test::Bytes;

namespace {

using horde::test::CountingAllocator;

struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_swtor") {}
};

void writeFile(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::vector<std::byte> readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(raw.size());
    std::memcpy(out.data(), raw.data(), raw.size());
    return out;
}

void align16(Bytes& b) { b.zeros((16 - b.size() % 16) % 16); }
Bytes& box8(Bytes& b) { return b.f32(0).f32(0).f32(0).f32(1).f32(1).f32(1).f32(1).f32(1); }
Bytes& rows(Bytes& b, std::initializer_list<float> m) {
    for (float f : m) b.f32(f);
    return b;
}
const std::initializer_list<float> kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// The fixed 0x70-byte header; the offsets at 0x0C, 0x10 and 0x50..0x60 are patched later.
void header(Bytes& b, uint32_t type, uint16_t meshes, uint16_t materials, uint16_t bones, uint16_t attachments) {
    b.text("GAWB").u32(4).u32(3).u32(0).u32(0).u32(type);
    b.u16(meshes).u16(materials).u16(bones).u16(attachments);
    b.zeros(16);
    box8(b);
    b.zeros(20);
    align16(b);
}

// Cached offsets (the file's offset fields, 0x50 first), an empty BNRY block, one box per
// mesh, the EGCD trailer.
void tail(Bytes& b, std::vector<uint32_t> pointerFields, uint32_t meshes) {
    align16(b);
    uint32_t cached = uint32_t(b.size());
    b.patch32(0x50, cached);
    pointerFields.insert(pointerFields.begin(), 0x50);
    b.patch32(0x10, uint32_t(pointerFields.size()));
    for (uint32_t at : pointerFields) {
        uint32_t value;
        std::memcpy(&value, b.data().data() + at, 4);
        b.u32(at).u32(value);
    }
    align16(b);
    uint32_t bnry = uint32_t(b.size());
    b.patch32(0x0C, bnry);
    b.u32(0);
    align16(b);
    for (uint32_t m = 0; m < meshes; ++m) b.f32(0).f32(0).f32(0).f32(1).f32(1).f32(1);
    b.u32(0).text("EGCD").u32(5).u32(bnry);
}

// Where the tests poke corruptions.
struct MeshAt {
    size_t header = 0, pieces = 0, vertices = 0, indices = 0, boneList = 0;
};

// One mesh "body", three vertices, one face, one piece textured "mat_a". Skinned (mask 0x123,
// 32-byte vertices) with a bone list naming "arm" then "root"; else static (0x23, 24 bytes).
Bytes meshFile(bool skinned, MeshAt* at = nullptr) {
    MeshAt l;
    Bytes b;
    header(b, 0, 1, 1, 0, 0);
    b.patch32(0x54, 0x70);
    l.header = b.size();
    b.u32(0).u32(skinned ? 0 : 128).u16(1).u16(skinned ? 2 : 0);
    b.u16(skinned ? 0x123 : 0x23).u16(skinned ? 32 : 24).u32(3).u32(3);
    b.zeros(16); // vertices, pieces, indices, bones offsets: patched below
    align16(b);
    l.pieces = b.size();
    b.patch32(l.header + 28, uint32_t(l.pieces));
    b.u32(0).u32(1).i32(0).i32(0);
    box8(b);
    size_t materials = b.size();
    b.patch32(0x58, uint32_t(materials));
    b.u32(0); // material name offset, patched below
    align16(b);
    l.vertices = b.size();
    b.patch32(l.header + 24, uint32_t(l.vertices));
    struct V {
        float x, y, z;
        uint8_t w[4], i[4], n[4], t[4];
        uint16_t u, v;
    };
    const V verts[3] = {
        {1, 2, 3, {255, 0, 0, 0}, {0, 0, 0, 0}, {127, 254, 127, 255}, {254, 127, 127, 255}, 0x3C00, 0x0000},
        {-1, 0.5f, 0, {204, 51, 0, 0}, {1, 0, 0, 0}, {0, 127, 127, 255}, {127, 127, 254, 0}, 0x3800, 0x3400},
        {0, 0, -2, {0, 0, 0, 0}, {0, 0, 0, 0}, {127, 127, 254, 255}, {127, 254, 127, 255}, 0x0000, 0x3C00},
    };
    for (const V& v : verts) {
        b.f32(v.x).f32(v.y).f32(v.z);
        if (skinned) {
            for (uint8_t w : v.w) b.u8(w);
            for (uint8_t i : v.i) b.u8(i);
        }
        for (uint8_t n : v.n) b.u8(n);
        for (uint8_t t : v.t) b.u8(t);
        b.u16(v.u).u16(v.v);
    }
    align16(b);
    l.indices = b.size();
    b.patch32(l.header + 32, uint32_t(l.indices));
    b.u16(0).u16(1).u16(2);
    align16(b);
    l.boneList = b.size();
    std::vector<uint32_t> pointers = {0x54, 0x58, uint32_t(l.header), uint32_t(l.header + 24), uint32_t(l.header + 28),
                                      uint32_t(l.header + 32), uint32_t(materials)};
    if (skinned) {
        b.patch32(l.header + 36, uint32_t(l.boneList));
        pointers.push_back(uint32_t(l.header + 36));
        b.u32(0).zeros(24).u32(0).zeros(24);
        pointers.push_back(uint32_t(l.boneList));
        pointers.push_back(uint32_t(l.boneList + 28));
        align16(b);
    }
    auto string = [&](size_t field, const std::string& s) {
        b.patch32(field, uint32_t(b.size()));
        b.text(s).u8(0);
    };
    string(l.header, "body");
    string(materials, "mat_a");
    if (skinned) {
        string(l.boneList, "arm");
        string(l.boneList + 28, "root");
    }
    tail(b, pointers, 1);
    if (at) *at = l;
    return b;
}

// One position-only mesh (mask 0x1, 12-byte vertices): a right triangle in the XY plane.
Bytes positionOnlyFile(const std::string& name) {
    Bytes b;
    header(b, 0, 1, 0, 0, 0);
    b.patch32(0x54, 0x70);
    b.u32(0).u32(128).u16(0).u16(0).u16(0x1).u16(12).u32(3).u32(3);
    b.u32(0xA0).u32(0).u32(0xD0).u32(0);
    align16(b);
    // 0xA0: vertices (36 bytes), 0xD0: indices, 0xE0: name
    b.f32(0).f32(0).f32(0).f32(1).f32(0).f32(0).f32(0).f32(1).f32(0);
    align16(b);
    b.u16(0).u16(1).u16(2);
    align16(b);
    b.patch32(0x70, uint32_t(b.size()));
    b.text(name).u8(0);
    tail(b, {0x54, 0x70, 0x88, 0x90}, 1);
    return b;
}

struct SkeletonAt {
    size_t bones = 0, attachments = 0;
};

// "root" at the origin; "arm" under it at (1,2,3), turned 90 degrees about Z (X -> Y), stored
// as row-vector matrices; attachment "hand_socket" on "arm", 0.5 along the arm's Y.
Bytes skeletonFile(SkeletonAt* at = nullptr) {
    SkeletonAt l;
    Bytes b;
    header(b, 2, 0, 0, 2, 1);
    l.attachments = b.size();
    b.patch32(0x60, uint32_t(l.attachments));
    b.u32(0).u32(0);
    rows(b, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5f, 0, 1});
    align16(b);
    l.bones = b.size();
    b.patch32(0x5C, uint32_t(l.bones));
    b.u32(0).i32(-1);
    rows(b, kIdentity);
    rows(b, kIdentity);
    b.u32(0).i32(0);
    // bone-to-parent: rows are the images of X, Y, Z and the translation
    rows(b, {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1});
    // root-to-bone: its inverse (rotation -90 degrees about Z, translation -(R^T t) = (-2, 1, -3))
    rows(b, {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, -2, 1, -3, 1});
    align16(b);
    auto string = [&](size_t field, const std::string& s) {
        b.patch32(field, uint32_t(b.size()));
        b.text(s).u8(0);
    };
    string(l.attachments, "hand_socket");
    string(l.attachments + 4, "arm");
    string(l.bones, "root");
    string(l.bones + 136, "arm");
    tail(b, {0x5C, 0x60, uint32_t(l.attachments), uint32_t(l.attachments + 4), uint32_t(l.bones), uint32_t(l.bones + 136)}, 0);
    if (at) *at = l;
    return b;
}


// Loads mesh bytes (written to disk) with an optional skeleton file through loadModel.
struct Files {
    TempDir dir;
    std::filesystem::path mesh, skeleton;
};
void writeFiles(Files& f, const Bytes& mesh, const Bytes* skeleton) {
    f.mesh = f.dir.path / "body.gr2";
    writeFile(f.mesh, mesh.span());
    if (skeleton) {
        f.skeleton = f.dir.path / "body_skeleton.gr2";
        writeFile(f.skeleton, skeleton->span());
    }
}

Result<Model> loadBytes(std::span<const std::byte> bytes, const std::filesystem::path& skeleton, MeshAllocator& allocator) {
    LoadOptions options;
    options.skeleton = skeleton;
    return swtorFormat().readModel("body.gr2", bytes, options, allocator);
}

std::string loadError(std::span<const std::byte> bytes, const std::filesystem::path& skeleton = {}) {
    HeapMeshAllocator heap;
    Result<Model> m = loadBytes(bytes, skeleton, heap);
    return m ? std::string("(loaded)") : m.error().message;
}

void expectNear(glm::vec3 a, glm::vec3 b, float tolerance) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}

} // namespace

// UVs are half floats; the decoder converts them with bit arithmetic of its own, checked here
// against hand-worked values and against glm's conversion for every one of the 65536 halves.
TEST(Swtor, HalfFloatsConvertExactly) {
    EXPECT_EQ(horde::swtor::halfToFloat(0x3C00), 1.0f);
    EXPECT_EQ(horde::swtor::halfToFloat(0xC000), -2.0f);
    EXPECT_EQ(horde::swtor::halfToFloat(0x3555), 0.333251953125f); // 0x155 / 1024 * 2^-2 + 2^-2
    EXPECT_EQ(horde::swtor::halfToFloat(0x0001), std::ldexp(1.0f, -24)); // smallest subnormal
    EXPECT_EQ(horde::swtor::halfToFloat(0x7BFF), 65504.0f);               // largest finite
    EXPECT_EQ(horde::swtor::halfToFloat(0xFC00), -INFINITY);
    EXPECT_TRUE(std::signbit(horde::swtor::halfToFloat(0x8000)));
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float expected = glm::unpackHalf1x16(uint16_t(h)), got = horde::swtor::halfToFloat(uint16_t(h));
        if (std::isnan(expected)) {
            EXPECT_TRUE(std::isnan(got)) << std::hex << h;
        } else {
            ASSERT_EQ(std::memcmp(&expected, &got, 4), 0) << std::hex << h << ": " << got << " vs " << expected;
        }
    }
}

TEST(Swtor, DetectsTheGawbMagic) {
    Bytes mesh = meshFile(false);
    EXPECT_TRUE(swtorFormat().detect("x.gr2", mesh.span()));
    Bytes other;
    other.text("GR2\x00").zeros(60);
    EXPECT_FALSE(swtorFormat().detect("x.gr2", other.span()));
    EXPECT_FALSE(swtorFormat().detect("x.gr2", {}));
}

TEST(Swtor, ReadsAStaticMesh) {
    Bytes bytes = meshFile(false);
    HeapMeshAllocator heap;
    Result<Model> m = loadBytes(bytes.span(), {}, heap);
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->format, "swtor");
    EXPECT_EQ(m->axes.up, Axes::Up::Y);
    EXPECT_FLOAT_EQ(m->axes.metresPerUnit, 0.1f);
    ASSERT_EQ(m->nodes.size(), 1u); // the identity node static meshes hang from, named after the file
    EXPECT_EQ(m->nodes[0].name, "body");
    ASSERT_EQ(m->meshes.size(), 1u);
    const Mesh& mesh = m->meshes[0];
    EXPECT_EQ(mesh.name, "body");
    EXPECT_FALSE(mesh.skinned());
    ASSERT_EQ(mesh.vertexCount(), 3u);
    const MeshArrays& a = mesh.arrays();
    EXPECT_EQ(a.positions[0], glm::vec3(1, 2, 3));
    EXPECT_EQ(a.positions[1], glm::vec3(-1, 0.5f, 0));
    // Normal bytes (127, 254, 127) -> (0, 1, 0); (0, 127, 127) -> (-1, 0, 0).
    expectNear(a.normals[0], glm::vec3(0, 1, 0), 1e-6f);
    expectNear(a.normals[1], glm::vec3(-1, 0, 0), 1e-6f);
    expectNear(a.normals[2], glm::vec3(0, 0, 1), 1e-6f);
    // Tangent bytes (254, 127, 127, 255) -> (1, 0, 0, +1); (127, 127, 254, 0) -> (0, 0, 1, -1).
    ASSERT_EQ(a.tangents.size(), 3u);
    expectNear(glm::vec3(a.tangents[0]), glm::vec3(1, 0, 0), 1e-6f);
    EXPECT_EQ(a.tangents[0].w, 1.0f);
    expectNear(glm::vec3(a.tangents[1]), glm::vec3(0, 0, 1), 1e-6f);
    EXPECT_EQ(a.tangents[1].w, -1.0f);
    // Half floats 0x3C00 = 1, 0x3800 = 0.5, 0x3400 = 0.25; origin top-left, kept as is.
    EXPECT_EQ(a.uv0[0], glm::vec2(1.0f, 0.0f));
    EXPECT_EQ(a.uv0[1], glm::vec2(0.5f, 0.25f));
    EXPECT_EQ(a.uv0[2], glm::vec2(0.0f, 1.0f));
    EXPECT_EQ(a.indices16[0], 0);
    EXPECT_EQ(a.indices16[2], 2);
    ASSERT_EQ(mesh.submeshes.size(), 1u);
    EXPECT_EQ(mesh.submeshes[0].material, "mat_a");
    EXPECT_EQ(mesh.submeshes[0].firstIndex, 0u);
    EXPECT_EQ(mesh.submeshes[0].indexCount, 3u);
    EXPECT_TRUE(m->warnings.empty());
}

TEST(Swtor, ReadsRowVectorBoneMatricesAndBindsTheMeshBoneListByName) {
    Bytes mesh = meshFile(true), skeleton = skeletonFile();
    Files f;
    writeFiles(f, mesh, &skeleton);
    HeapMeshAllocator heap;
    LoadOptions options;
    options.skeleton = f.skeleton;
    Result<Model> m = loadModel(f.mesh, options, heap);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_GE(m->nodes.size(), 3u);
    EXPECT_EQ(m->nodes[0].name, "root");
    EXPECT_EQ(m->nodes[1].name, "arm");
    EXPECT_EQ(m->nodes[1].parent, 0);
    expectNear(m->nodes[1].translation, glm::vec3(1, 2, 3), 1e-6f);
    // The rotation is not symmetric: X must go to Y (a transposed read would send it to -Y).
    expectNear(m->nodes[1].rotation * glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), 1e-6f);
    expectNear(m->nodes[1].rotation * glm::vec3(0, 1, 0), glm::vec3(-1, 0, 0), 1e-6f);
    expectNear(m->nodes[1].scale, glm::vec3(1), 1e-6f);

    // The socket hangs from "arm", half a unit along its Y.
    EXPECT_EQ(m->nodes[2].name, "hand_socket");
    EXPECT_EQ(m->nodes[2].parent, 1);
    expectNear(m->nodes[2].translation, glm::vec3(0, 0.5f, 0), 1e-6f);
    ASSERT_EQ(m->extras.size(), 1u);
    EXPECT_EQ(m->extras[0].kind, "socket");
    EXPECT_EQ(m->extras[0].node, "hand_socket");

    ASSERT_EQ(m->meshes.size(), 1u);
    const Mesh& body = m->meshes[0];
    ASSERT_TRUE(body.skinned());
    const Skin& skin = m->skins[body.skin];
    // The mesh's own list is "arm", "root": vertex bone index 0 means "arm" (node 1).
    ASSERT_GE(skin.joints.size(), 2u);
    EXPECT_EQ(skin.joints[0], 1u);
    EXPECT_EQ(skin.joints[1], 0u);
    // Root-to-bone is the inverse bind: the arm's origin (1,2,3) maps to the bone's origin, and
    // one unit up the model's Y is one unit along the bone's X.
    glm::vec4 origin = skin.inverseBind[0] * glm::vec4(1, 2, 3, 1);
    glm::vec4 up = skin.inverseBind[0] * glm::vec4(1, 3, 3, 1);
    expectNear(glm::vec3(origin), glm::vec3(0, 0, 0), 1e-6f);
    expectNear(glm::vec3(up), glm::vec3(1, 0, 0), 1e-6f);

    const MeshArrays& a = body.arrays();
    EXPECT_EQ(a.joints[0], glm::u16vec4(0, 0, 0, 0));
    EXPECT_FLOAT_EQ(a.weights[0].x, 1.0f);
    // Weight bytes 204 and 51 over 255: 0.8 on "root" (index 1), 0.2 on "arm".
    EXPECT_EQ(a.joints[1].x, 1);
    EXPECT_NEAR(a.weights[1].x, 0.8f, 1e-6f);
    EXPECT_EQ(a.joints[1].y, 0);
    EXPECT_NEAR(a.weights[1].y, 0.2f, 1e-6f);
    // No weight at all: finalizeMeshes binds it rigidly to the mesh node (bone 0).
    EXPECT_FLOAT_EQ(a.weights[2].x, 1.0f);
    EXPECT_EQ(skin.joints[a.joints[2].x], body.node);
    EXPECT_EQ(body.node, 0u);

    // In the bind pose every vertex stays where the file put it.
    std::vector<PosedMesh> posed = poseModel(*m, Playback{}, 0.0);
    for (uint32_t v = 0; v < 3; ++v) expectNear(glm::vec3(posed[0].positions[v]), a.positions[v], 1e-5f);
}

TEST(Swtor, SkinnedMeshWithoutSkeletonLoadsStaticWithAWarning) {
    Bytes bytes = meshFile(true);
    HeapMeshAllocator heap;
    Result<Model> m = loadBytes(bytes.span(), {}, heap);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->meshes.size(), 1u);
    EXPECT_FALSE(m->meshes[0].skinned());
    EXPECT_EQ(m->meshes[0].arrays().positions[2], glm::vec3(0, 0, -2));
    ASSERT_EQ(m->warnings.size(), 1u);
    EXPECT_NE(m->warnings[0].find("no --skeleton"), std::string::npos) << m->warnings[0];
}

TEST(Swtor, ASkeletonFileAloneLoadsItsBones) {
    Bytes skeleton = skeletonFile();
    HeapMeshAllocator heap;
    Result<Model> m = swtorFormat().readModel("s.gr2", skeleton.span(), LoadOptions{}, heap);
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(m->nodes.size(), 3u);
    EXPECT_TRUE(m->meshes.empty());
}

// In the file's own units (decimetres), so numbers come back as written; converting units and
// axes is Formats/WriterUnits' (writer_units_test.cpp).
Model monsterInDecimetres(HeapMeshAllocator& heap, const MonsterParams& params = {}) {
    Model monster = buildMonster(heap, params);
    monster.axes.metresPerUnit = 0.1f;
    return monster;
}

TEST(Swtor, MonsterRoundTrip) {
    HeapMeshAllocator heap;
    Model monster = monsterInDecimetres(heap);
    TempDir dir;
    auto path = dir.path / "monster.gr2";
    Result<Companions> written = swtorFormat().write(monster, path);
    ASSERT_TRUE(written) << written.error().message;
    ASSERT_TRUE(std::filesystem::exists(dir.path / "monster_skeleton.gr2"));
    EXPECT_EQ(written->skeleton, dir.path / "monster_skeleton.gr2");
    EXPECT_TRUE(written->anims.empty());
    LoadOptions options;
    options.skeleton = dir.path / "monster_skeleton.gr2";
    Result<Model> back = loadModel(path, options, heap);
    ASSERT_TRUE(back) << back.error().message;
    // The format keeps material names; their definitions are .mat files the writer does not write.
    EXPECT_TRUE(test::withoutUndefinedMaterials(back->warnings).empty()) << back->warnings.front();

    ASSERT_EQ(back->nodes.size(), monster.nodes.size());
    for (size_t i = 0; i < monster.nodes.size(); ++i) {
        const Node &a = monster.nodes[i], &b = back->nodes[i];
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.parent, b.parent);
        expectNear(a.translation, b.translation, 1e-5f);
        expectNear(a.scale, b.scale, 1e-5f);
        EXPECT_GT(std::abs(glm::dot(a.rotation, b.rotation)), 1.0f - 1e-6f) << a.name;
    }

    ASSERT_EQ(back->meshes.size(), 1u);
    const Mesh &om = monster.meshes[0], &bm = back->meshes[0];
    ASSERT_EQ(bm.vertexCount(), om.vertexCount());
    ASSERT_EQ(bm.indexCount(), om.indexCount());
    ASSERT_EQ(bm.submeshes.size(), om.submeshes.size());
    for (size_t s = 0; s < om.submeshes.size(); ++s) {
        EXPECT_EQ(bm.submeshes[s].material, om.submeshes[s].material);
        EXPECT_EQ(bm.submeshes[s].firstIndex, om.submeshes[s].firstIndex);
        EXPECT_EQ(bm.submeshes[s].indexCount, om.submeshes[s].indexCount);
    }
    const MeshArrays &oa = om.arrays(), &ba = bm.arrays();
    const Skin &os = monster.skins[om.skin], &bs = back->skins[bm.skin];
    for (size_t i = 0; i < om.indexCount(); ++i) ASSERT_EQ(oa.index(i), ba.index(i));
    for (uint32_t v = 0; v < om.vertexCount(); ++v) {
        // Positions are float32 in the file: exact.
        ASSERT_EQ(oa.positions[v], ba.positions[v]) << v;
        // Normals are bytes ((b - 127) / 127): within their quantization.
        ASSERT_LT(glm::length(oa.normals[v] - ba.normals[v]), 0.02f) << v;
        // UVs are half floats: 11 significant bits.
        ASSERT_NEAR(oa.uv0[v].x, ba.uv0[v].x, 1e-3f) << v;
        ASSERT_NEAR(oa.uv0[v].y, ba.uv0[v].y, 1e-3f) << v;
        // Weights are bytes over 255, compared by joint name: within one step.
        std::map<std::string, float> wa, wb;
        for (int k = 0; k < 4; ++k) {
            if (oa.weights[v][k] > 0) wa[monster.nodes[os.joints[oa.joints[v][k]]].name] += oa.weights[v][k];
            if (ba.weights[v][k] > 0) wb[back->nodes[bs.joints[ba.joints[v][k]]].name] += ba.weights[v][k];
        }
        for (const auto& [name, w] : wa) ASSERT_NEAR(w, wb[name], 1.0f / 255.0f + 1e-6f) << v << " " << name;
        for (const auto& [name, w] : wb) ASSERT_NEAR(w, wa[name], 1.0f / 255.0f + 1e-6f) << v << " " << name;
    }

    // Bind pose through the CPU reference: within 1e-5 of the model's size.
    const double size = bindPoseBounds(monster).radius();
    std::vector<PosedMesh> pa = poseModel(monster, Playback{}, 0.0), pb = poseModel(*back, Playback{}, 0.0);
    for (uint32_t v = 0; v < om.vertexCount(); ++v)
        ASSERT_LT(glm::length(pa[0].positions[v] - pb[0].positions[v]), 1e-5 * size) << v;

    // SWTOR files hold no clips; the monster's, bound by node name, move the loaded skeleton the
    // same way up to the byte weights' quantization (1/255 of a bone's displacement per weight).
    for (const Clip& clip : monster.clips) back->clips.push_back(clip);
    Playback walk{findClip(monster, "walk"), 0.0, 1.0, true};
    pa = poseModel(monster, walk, 0.37);
    pb = poseModel(*back, walk, 0.37);
    for (uint32_t v = 0; v < om.vertexCount(); ++v)
        ASSERT_LT(glm::length(pa[0].positions[v] - pb[0].positions[v]), 0.01 * size) << v;
}

// Every triangle corner's posed position, walking the meshes in order and each submesh by submesh.
std::vector<glm::dvec3> posedCorners(const Model& model, const std::vector<PosedMesh>& posed) {
    std::vector<glm::dvec3> out;
    for (size_t m = 0; m < model.meshes.size(); ++m)
        for (const Submesh& s : model.meshes[m].submeshes)
            for (uint32_t i = s.firstIndex; i < s.firstIndex + s.indexCount; ++i)
                out.push_back(posed[m].positions[model.meshes[m].arrays().index(i)]);
    return out;
}

TEST(Swtor, MeshesOver65536VerticesAreSplitIntoSeveralGawbMeshes) {
    HeapMeshAllocator heap;
    Model monster = monsterInDecimetres(heap, MonsterParams{8, 48, 20});
    const Mesh& om = monster.meshes[0];
    ASSERT_GT(om.vertexCount(), 65536u);
    TempDir dir;
    ASSERT_TRUE(swtorFormat().write(monster, dir.path / "big.gr2"));
    LoadOptions options;
    options.skeleton = dir.path / "big_skeleton.gr2";
    Result<Model> back = loadModel(dir.path / "big.gr2", options, heap);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_TRUE(test::withoutUndefinedMaterials(back->warnings).empty()) << back->warnings.front();
    ASSERT_EQ(back->nodes.size(), monster.nodes.size());

    // Parts in order, "monster.0", "monster.1"..., each within the 16-bit indices.
    ASSERT_GE(back->meshes.size(), 2u);
    uint32_t indices = 0;
    for (size_t k = 0; k < back->meshes.size(); ++k) {
        const Mesh& part = back->meshes[k];
        EXPECT_EQ(part.name, "monster." + std::to_string(k));
        EXPECT_LE(part.vertexCount(), 65536u);
        EXPECT_TRUE(part.skinned());
        indices += part.indexCount();
    }
    EXPECT_EQ(indices, om.indexCount());

    // Both poses, corner by corner: the bind pose within 1e-5 of the model's size, a walk frame
    // within the byte weights' quantization (as in MonsterRoundTrip).
    const double size = bindPoseBounds(monster).radius();
    std::vector<glm::dvec3> a = posedCorners(monster, poseModel(monster, Playback{}, 0.0));
    std::vector<glm::dvec3> b = posedCorners(*back, poseModel(*back, Playback{}, 0.0));
    ASSERT_EQ(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i) ASSERT_LT(glm::length(a[i] - b[i]), 1e-5 * size) << i;
    for (const Clip& clip : monster.clips) back->clips.push_back(clip);
    Playback walk{findClip(monster, "walk"), 0.0, 1.0, true};
    a = posedCorners(monster, poseModel(monster, walk, 0.37));
    b = posedCorners(*back, poseModel(*back, walk, 0.37));
    for (size_t i = 0; i < a.size(); ++i) ASSERT_LT(glm::length(a[i] - b[i]), 0.01 * size) << i;
}

TEST(Swtor, WriterBakesStaticMeshesAndWritesNoSkeleton) {
    Bytes bytes = meshFile(false);
    HeapMeshAllocator heap;
    Result<Model> m = loadBytes(bytes.span(), {}, heap);
    ASSERT_TRUE(m);
    m->nodes[0].translation = glm::vec3(10, 0, 0);
    TempDir dir;
    ASSERT_TRUE(swtorFormat().write(*m, dir.path / "prop.gr2"));
    EXPECT_FALSE(std::filesystem::exists(dir.path / "prop_skeleton.gr2"));
    std::vector<std::byte> written = readFile(dir.path / "prop.gr2");
    Result<Model> back = loadBytes(written, {}, heap);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->meshes[0].arrays().positions[0], glm::vec3(11, 2, 3));
    EXPECT_EQ(back->meshes[0].submeshes[0].material, "mat_a");
}

TEST(Swtor, EveryTruncationFailsCleanly) {
    Bytes mesh = meshFile(true), skeleton = skeletonFile();
    Files f;
    writeFiles(f, mesh, &skeleton);
    for (const auto& prefix : test::truncations(mesh.span())) {
        HeapMeshAllocator heap;
        Result<Model> m = loadBytes(prefix, f.skeleton, heap);
        EXPECT_FALSE(m) << prefix.size();
        if (!m) {
            EXPECT_NE(m.error().message.find("body.gr2"), std::string::npos);
        }
    }
    auto cut = f.dir.path / "cut_skeleton.gr2";
    for (const auto& prefix : test::truncations(skeleton.span())) {
        writeFile(cut, prefix);
        EXPECT_NE(loadError(mesh.span(), cut).find("cut_skeleton.gr2"), std::string::npos) << prefix.size();
    }
}

TEST(Swtor, TruncatedMonsterFilesFailCleanly) {
    HeapMeshAllocator heap;
    Model monster = buildMonster(heap, MonsterParams{2, 6, 2});
    TempDir dir;
    ASSERT_TRUE(swtorFormat().write(monster, dir.path / "m.gr2"));
    std::vector<std::byte> bytes = readFile(dir.path / "m.gr2");
    for (const auto& prefix : test::truncations(bytes, 1024)) EXPECT_NE(loadError(prefix, dir.path / "m_skeleton.gr2"), "(loaded)");
}

// Each corruption must fail with a message naming the field.
struct Corruption {
    const char* name;
    bool skeleton; // corrupt the skeleton file rather than the mesh file
    void (*apply)(Bytes& b, const MeshAt& m, const SkeletonAt& s);
    const char* field;
};

class SwtorCorruption : public ::testing::TestWithParam<Corruption> {};

TEST_P(SwtorCorruption, FailsNamingTheField) {
    const Corruption& c = GetParam();
    MeshAt m;
    SkeletonAt s;
    Bytes mesh = meshFile(true, &m), skeleton = skeletonFile(&s);
    c.apply(c.skeleton ? skeleton : mesh, m, s);
    Files f;
    writeFiles(f, mesh, &skeleton);
    CountingAllocator counting;
    Result<Model> r = loadBytes(mesh.span(), f.skeleton, counting);
    ASSERT_FALSE(r) << c.name;
    EXPECT_NE(r.error().message.find(c.field), std::string::npos) << r.error().message;
}

void putU16(Bytes& b, size_t at, uint16_t v) {
    uint32_t word;
    std::memcpy(&word, b.data().data() + (at & ~size_t(3)), 4);
    int shift = int(at & 3) * 8;
    word = (word & ~(0xFFFFu << shift)) | (uint32_t(v) << shift);
    b.patch32(at & ~size_t(3), word);
}

INSTANTIATE_TEST_SUITE_P(
    Swtor, SwtorCorruption,
    ::testing::Values(
        Corruption{"magic", false, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(0, 0x32524721); }, "magic"},
        Corruption{"version5", false, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(4, 5); }, "64-bit"},
        Corruption{"type", false, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(0x14, 7); }, "type"},
        Corruption{"trailer", false, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(b.size() - 4, 0x40); }, "egcdOffsetBNRY"},
        Corruption{"bnryLength", false,
                   [](Bytes& b, const MeshAt&, const SkeletonAt&) {
                       uint32_t bnry;
                       std::memcpy(&bnry, b.data().data() + 0x0C, 4);
                       b.patch32(bnry, 0x7FFFFFFF);
                   },
                   "bnryLength"},
        Corruption{"cachedOffsets", false,
                   [](Bytes& b, const MeshAt&, const SkeletonAt&) {
                       uint32_t cached;
                       std::memcpy(&cached, b.data().data() + 0x50, 4);
                       b.patch32(cached + 8, 0xFFFFFF00);
                   },
                   "cachedOffsets"},
        Corruption{"hugeCachedCount", false, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(0x10, 0xFFFFFFFF); }, "cachedOffsets"},
        Corruption{"meshTable", false, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(0x54, 0x10); }, "offsetMeshHeader"},
        Corruption{"meshName", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.header, 0x00FFFFFF); }, "mesh.offsetMeshName"},
        Corruption{"hugeVertexCount", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.header + 16, 0xFFFFFFFF); }, "mesh.offsetMeshVertices"},
        Corruption{"hugeIndexCount", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.header + 20, 0xFFFFFFF0); }, "mesh.offsetIndices"},
        Corruption{"indexCountNotTriangles", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.header + 20, 4); }, "mesh.numIndices"},
        Corruption{"vertexSize", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { putU16(b, m.header + 14, 28); }, "mesh.vertexSize"},
        Corruption{"unknownMaskBit", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { putU16(b, m.header + 12, 0x323); }, "mesh.vertexFormat"},
        Corruption{"noPosition", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { putU16(b, m.header + 12, 0x122); }, "mesh.vertexFormat"},
        Corruption{"hugePieceCount", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { putU16(b, m.header + 8, 0xFFFF); }, "mesh.offsetMeshPieces"},
        Corruption{"pieceFaces", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.pieces + 4, 2); }, "piece.numFaces"},
        Corruption{"pieceMaterial", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.pieces + 8, 1); }, "piece.materialIndex"},
        Corruption{"hugeBoneList", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { putU16(b, m.header + 10, 0xFFFF); }, "mesh.offsetBones"},
        Corruption{"boneIndex", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { b.patch32(m.vertices + 16, 9); }, "vertex.boneIndices"},
        Corruption{"index", false, [](Bytes& b, const MeshAt& m, const SkeletonAt&) { putU16(b, m.indices + 2, 3); }, "indices"},
        Corruption{"unknownBone", false,
                   [](Bytes& b, const MeshAt& m, const SkeletonAt&) {
                       uint32_t name;
                       std::memcpy(&name, b.data().data() + m.boneList, 4);
                       b.patch32(name, 0x007A7978); // "xyz"
                   },
                   "'xyz' is not a bone"},
        Corruption{"skeletonType", true, [](Bytes& b, const MeshAt&, const SkeletonAt&) { b.patch32(0x14, 0); }, "must be a skeleton file"},
        Corruption{"hugeBoneCount", true, [](Bytes& b, const MeshAt&, const SkeletonAt&) { putU16(b, 0x1C, 0xFFFF); }, "offsetBoneStructure"},
        Corruption{"parent", true, [](Bytes& b, const MeshAt&, const SkeletonAt& s) { b.patch32(s.bones + 4, 1); }, "bone.parentBoneIndex"},
        Corruption{"nanMatrix", true, [](Bytes& b, const MeshAt&, const SkeletonAt& s) { b.patch32(s.bones + 136 + 8, 0x7FC00000); }, "bone.boneToParent"},
        Corruption{"attachmentName", true, [](Bytes& b, const MeshAt&, const SkeletonAt& s) { b.patch32(s.attachments, 4); }, "attachment.offsetName"},
        Corruption{"hugeAttachmentCount", true, [](Bytes& b, const MeshAt&, const SkeletonAt&) { putU16(b, 0x1E, 0xFFFF); }, "offsetAttachments"}),
    [](const ::testing::TestParamInfo<Corruption>& param) { return std::string(param.param.name); });

TEST(Swtor, ForgedHugeCountsFailBeforeAllocating) {
    MeshAt m;
    Bytes mesh = meshFile(false, &m);
    mesh.patch32(m.header + 16, 0x10000000); // numVertices
    CountingAllocator counting;
    Result<Model> r = loadBytes(mesh.span(), {}, counting);
    ASSERT_FALSE(r);
    EXPECT_EQ(counting.calls, 0);
    EXPECT_NE(r.error().message.find("mesh.offsetMeshVertices: count 268435456"), std::string::npos) << r.error().message;
}

TEST(Swtor, MeshesSharingOneVertexBlockFailBeforeAllocating) {
    // Sixteen copies of one mesh header, all pointing at the same vertices and indices: each
    // fits the file, but together they would make storage grow with the square of its size.
    MeshAt m;
    Bytes one = meshFile(false, &m);
    const std::vector<std::byte>& raw = one.data();
    const size_t trailer = 12; // "EGCD", a word, offsetBNRY: must stay last
    Bytes b;
    for (size_t i = 0; i + trailer < raw.size(); ++i) b.u8(uint8_t(raw[i]));
    const uint32_t table = uint32_t(b.size());
    for (int copy = 0; copy < 16; ++copy)
        for (size_t i = 0; i < 40; ++i) b.u8(uint8_t(raw[m.header + i]));
    for (size_t i = raw.size() - trailer; i < raw.size(); ++i) b.u8(uint8_t(raw[i]));
    b.patch32(0x54, table);
    putU16(b, 0x18, 16);
    CountingAllocator counting;
    Result<Model> r = loadBytes(b.span(), {}, counting);
    ASSERT_FALSE(r);
    EXPECT_EQ(counting.calls, 0);
    EXPECT_NE(r.error().message.find("offsetMeshHeader: the meshes' vertices and indices add up to 1248 bytes, more than the " +
                                     std::to_string(b.size()) + "-byte file holds"),
              std::string::npos)
        << r.error().message;
}

TEST(Swtor, HeadersSharingOneLongNameFailBeforeCopyingItForEach) {
    // 600 empty mesh headers, all naming one 16 KB string: 9.8 MB of names out of a 40 KB file,
    // past the four-times-the-file budget (plus 1 MiB) for what the headers may copy.
    const uint32_t meshes = 600, nameBytes = 16384, headers = 0x70, name = headers + meshes * 40;
    Bytes b;
    b.text("GAWB").u32(4).u32(3).u32(0).u32(0).u32(0);
    b.u16(uint16_t(meshes)).u16(0).u16(0).u16(0); // numMeshes, materials, bones, attachments
    b.zeros(48).u32(0).u32(headers).u32(0).u32(0).u32(0);
    b.zeros(headers - b.size());
    for (uint32_t i = 0; i < meshes; ++i) b.u32(name).u32(0).u16(0).u16(0).u16(0x1).u16(12).u32(0).u32(0).u32(0).u32(0).u32(0).u32(0);
    for (uint32_t i = 0; i < nameBytes; ++i) b.u8('n');
    b.u8(0);
    b.zeros((16 - b.size() % 16) % 16);
    b.text("EGCD").u32(5).u32(0);
    CountingAllocator counting;
    Result<Model> r = loadBytes(b.span(), {}, counting);
    ASSERT_FALSE(r);
    EXPECT_EQ(counting.calls, 0);
    EXPECT_NE(r.error().message.find("mesh.offsetMeshName: the file's headers share names or tables so much that reading them would copy more than " +
                                     std::to_string(4 * b.size() + (1u << 20)) + " bytes"),
              std::string::npos)
        << r.error().message;
}

TEST(Swtor, PositionOnlyMeshesGetFaceNormalsAndCollisionMeshesAreReported) {
    Bytes hull = positionOnlyFile("hull");
    HeapMeshAllocator heap;
    Result<Model> m = loadBytes(hull.span(), {}, heap);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->meshes.size(), 1u);
    const MeshArrays& a = m->meshes[0].arrays();
    EXPECT_EQ(a.positions[1], glm::vec3(1, 0, 0));
    expectNear(a.normals[0], glm::vec3(0, 0, 1), 1e-6f);
    EXPECT_TRUE(a.tangents.empty());
    EXPECT_TRUE(a.uv0.empty());
    ASSERT_EQ(m->meshes[0].submeshes.size(), 1u); // no pieces: one submesh over every index
    EXPECT_EQ(m->meshes[0].submeshes[0].indexCount, 3u);

    Bytes collision = positionOnlyFile("body_collision");
    m = loadBytes(collision.span(), {}, heap);
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_TRUE(m->meshes.empty());
    ASSERT_EQ(m->extras.size(), 1u);
    EXPECT_EQ(m->extras[0].kind, "collision");
}

TEST(Swtor, SocketsRoundTripAsAttachments) {
    Bytes mesh = meshFile(true), skeleton = skeletonFile();
    Files f;
    writeFiles(f, mesh, &skeleton);
    HeapMeshAllocator heap;
    LoadOptions options;
    options.skeleton = f.skeleton;
    Result<Model> m = loadModel(f.mesh, options, heap);
    ASSERT_TRUE(m) << m.error().message;
    auto out = f.dir.path / "again.gr2";
    ASSERT_TRUE(swtorFormat().write(*m, out));
    options.skeleton = f.dir.path / "again_skeleton.gr2";
    Result<Model> back = loadModel(out, options, heap);
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->nodes.size(), 3u); // root, arm, and the socket (not written as a bone)
    EXPECT_EQ(back->nodes[2].name, "hand_socket");
    EXPECT_EQ(back->nodes[2].parent, 1);
    expectNear(back->nodes[2].translation, glm::vec3(0, 0.5f, 0), 1e-6f);
    ASSERT_EQ(back->extras.size(), 1u);
    EXPECT_EQ(back->extras[0].kind, "socket");
    expectNear(back->nodes[1].rotation * glm::vec3(1, 0, 0), glm::vec3(0, 1, 0), 1e-6f);
}
