// Escape from Monkey Island .meshb / .sklb / .animb: hand-built files with hand-computed
// values, the monster round trip, and truncated, corrupted and forged files that must fail
// cleanly.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "anim/reference.h"
#include "loader.h"
#include "monster.h"
#include "support/bytes.h"
#include "support/counting_allocator.h"
#include "support/temp_dir.h"
#include "support/warnings.h"

using namespace horde;
using horde::test::Bytes;

namespace {

const Format& emi() { return emiFormat(); }

using horde::test::CountingAllocator;

const float kS45 = 0.70710678f; // sin 45 degrees = cos 45 degrees

// EMI strings count their terminating NUL.
Bytes& str(Bytes& b, const std::string& s) { return b.u32(uint32_t(s.size() + 1)).text(s).u8(0); }
Bytes& v3(Bytes& b, float x, float y, float z) { return b.f32(x).f32(y).f32(z); }
Bytes& v4(Bytes& b, float x, float y, float z, float w) { return b.f32(x).f32(y).f32(z).f32(w); }
Bytes& name32(Bytes& b, const std::string& s) { return b.text(s).zeros(32 - s.size()); }

// "root" at the origin; "arm" under it at (1,0,0), turned 90 degrees about Z.
struct SkeletonAt {
    size_t armParent = 0, armRotation = 0;
};
Bytes skeleton(SkeletonAt* at = nullptr) {
    SkeletonAt l;
    Bytes b;
    b.u32(2);
    name32(b, "root");
    name32(b, "");
    v3(b, 0, 0, 0);
    v4(b, 0, 0, 0, 1);
    name32(b, "arm");
    l.armParent = b.size();
    name32(b, "root");
    v3(b, 1, 0, 0);
    l.armRotation = b.size();
    v4(b, 0, 0, kS45, kS45);
    if (at) *at = l;
    return b;
}

struct MeshAt {
    size_t format = 0, vertexCount = 0, groupCount = 0, texIndex = 0, indexCount0 = 0, index1 = 0, hasBones = 0,
           infoCount = 0, firstIncrement = 0, secondJoint = 0;
};

// Four vertices, two face groups (one textured), bone weights naming "ROOT" (case differs
// from the skeleton) and "arm". `format` 19, 18 or 3 picks which arrays are stored.
Bytes mesh(MeshAt* at = nullptr, uint32_t format = 19, bool bones = true) {
    MeshAt l;
    Bytes b;
    str(b, "mk");
    b.f32(2.0f);
    v3(b, 1, 0.5f, 0);
    v3(b, 0, 0, 0);
    v3(b, 2, 1, 0);
    b.u32(1).u32(0);
    b.u32(2);
    str(b, "skin.tga").u32(0);
    str(b, "glow.tga").u32(0x400);
    l.format = b.size();
    b.u32(format);
    l.vertexCount = b.size();
    b.u32(4);
    v3(b, 0, 0, 0);
    v3(b, 1, 0, 0);
    v3(b, 1, 1, 0);
    v3(b, 2, 0, 0);
    if (format != 18)
        for (int v = 0; v < 4; ++v) v3(b, 0, 0, 1);
    b.u32(0xFF112233u).u32(0xFF112233u).u32(0xFF112233u).u32(0xFF112233u);
    if (format != 3) b.f32(0).f32(0).f32(1).f32(0).f32(1).f32(1).f32(0).f32(1);
    l.groupCount = b.size();
    b.u32(2);
    b.u32(0x304).u32(1);
    l.texIndex = b.size();
    b.u32(0);
    l.indexCount0 = b.size();
    b.u32(3).u16(0).u16(1).u16(2);
    b.u32(0x304).u32(0).u32(3).u16(1);
    l.index1 = b.size();
    b.u16(3).u16(2);
    l.hasBones = b.size();
    b.u32(bones ? 1 : 0);
    if (bones) {
        b.u32(2);
        str(b, "ROOT");
        str(b, "arm");
        l.infoCount = b.size();
        b.u32(6);
        l.firstIncrement = b.size();
        b.u32(1).u32(0).f32(1.0f);
        b.u32(1).u32(0).f32(0.5f);
        l.secondJoint = b.size() + 4;
        b.u32(0).u32(1).f32(0.5f);
        b.u32(1).u32(1).f32(1.0f);
        b.u32(1).u32(1).f32(0.7f);
        b.u32(0).u32(0).f32(0.3f);
    }
    if (at) *at = l;
    return b;
}

struct AnimAt {
    size_t operation = 0, priority = 0, secondTime = 0, keyCount = 0, entryCount = 0;
};

// One second: "arm" turns from rest-less identity to 90 degrees about Z; "root" rises by 2;
// "tail" is not in the skeleton.
Bytes anim(AnimAt* at = nullptr) {
    AnimAt l;
    Bytes b;
    str(b, "data\\walk.anm");
    b.f32(1.0f);
    l.entryCount = b.size();
    b.u32(3);
    str(b, "arm");
    l.operation = b.size();
    b.u32(4);
    l.priority = b.size();
    b.u32(2).u32(0);
    l.keyCount = b.size();
    b.u32(2);
    v4(b, 0, 0, 0, 1).f32(0.0f);
    v4(b, 0, 0, kS45, kS45);
    l.secondTime = b.size();
    b.f32(1.0f);
    str(b, "root");
    b.u32(3).u32(2).u32(0).u32(2);
    v3(b, 0, 0, 0).f32(0.0f);
    v3(b, 0, 2, 0).f32(1.0f);
    str(b, "tail");
    b.u32(3).u32(2).u32(0).u32(1);
    v3(b, 0, 0, 0).f32(0.0f);
    if (at) *at = l;
    return b;
}

// Each test's files in a folder of its own.
struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_emi") {}
};

Result<Model> loadMesh(std::span<const std::byte> bytes, const std::filesystem::path& skeletonFile, MeshAllocator& allocator) {
    LoadOptions options;
    options.skeleton = skeletonFile;
    return emi().readModel("mk.meshb", bytes, options, allocator);
}

bool near(glm::dvec3 a, glm::dvec3 b, double tolerance) {
    return glm::length(a - b) <= tolerance * std::max(1.0, glm::length(b));
}

} // namespace

TEST(Emi, DetectsByExtensionAndFirstFields) {
    Bytes m = mesh(), s = skeleton(), a = anim();
    EXPECT_TRUE(emi().detect("mk.meshb", m.span()));
    EXPECT_TRUE(emi().detect("MK.MESHB", m.span()));
    EXPECT_TRUE(emi().detect("mk.sklb", s.span()));
    EXPECT_TRUE(emi().detect("walk.animb", a.span()));
    EXPECT_FALSE(emi().detect("mk.mdl", m.span())) << "no magic: other extensions are never claimed";
    EXPECT_FALSE(emi().detect("mk.gltf", s.span()));
    Bytes forged;
    forged.u32(0x7FFFFFFF).text("mk");
    EXPECT_FALSE(emi().detect("mk.meshb", forged.span()));
    Bytes noNul;
    noNul.u32(2).text("mk");
    EXPECT_FALSE(emi().detect("mk.meshb", noNul.span()));
    Bytes empty;
    empty.u32(0);
    EXPECT_FALSE(emi().detect("mk.sklb", empty.span()));
}

TEST(Emi, DecodesSkeletonMeshAndWeights) {
    TempDir dir;
    auto sklb = dir.put("mk.sklb", skeleton());
    Bytes m = mesh();
    HeapMeshAllocator heap;
    Result<Model> model = loadMesh(m.span(), sklb, heap);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_EQ(model->format, "emi");
    EXPECT_EQ(model->axes.up, Axes::Up::Y);
    EXPECT_TRUE(model->axes.leftHanded);
    EXPECT_FALSE(model->axes.clockwiseFrontFaces);

    // The skeleton's joints, then the mesh's own identity root.
    ASSERT_EQ(model->nodes.size(), 3u);
    EXPECT_EQ(model->nodes[0].name, "root");
    EXPECT_EQ(model->nodes[0].parent, -1);
    EXPECT_EQ(model->nodes[1].name, "arm");
    EXPECT_EQ(model->nodes[1].parent, 0);
    EXPECT_EQ(model->nodes[1].translation, glm::vec3(1, 0, 0));
    EXPECT_NEAR(model->nodes[1].rotation.z, kS45, 1e-7);
    EXPECT_NEAR(model->nodes[1].rotation.w, kS45, 1e-7);
    EXPECT_EQ(model->nodes[2].name, "mk");
    EXPECT_EQ(model->nodes[2].parent, -1);

    ASSERT_EQ(model->meshes.size(), 1u);
    const Mesh& mesh = model->meshes[0];
    EXPECT_EQ(mesh.node, 2u);
    EXPECT_EQ(mesh.vertexCount(), 4u);
    EXPECT_EQ(mesh.indexCount(), 6u);
    EXPECT_TRUE(mesh.layout().index16);
    const MeshArrays& a = mesh.arrays();
    EXPECT_EQ(a.positions[2], glm::vec3(1, 1, 0));
    EXPECT_EQ(a.normals[3], glm::vec3(0, 0, 1));
    EXPECT_EQ(a.uv0[2], glm::vec2(1, 1)); // not flipped
    EXPECT_EQ(a.index(3), 1u);
    EXPECT_EQ(a.index(4), 3u);
    ASSERT_EQ(mesh.submeshes.size(), 2u);
    EXPECT_EQ(mesh.submeshes[0].material, "skin.tga");
    EXPECT_EQ(mesh.submeshes[0].firstIndex, 0u);
    EXPECT_EQ(mesh.submeshes[1].material, "");
    EXPECT_EQ(mesh.submeshes[1].firstIndex, 3u);
    EXPECT_EQ(mesh.submeshes[1].indexCount, 3u);
    ASSERT_EQ(model->extras.size(), 1u);
    EXPECT_EQ(model->extras[0].kind, "additive-texture");
    EXPECT_EQ(model->extras[0].detail, "glow.tga");

    // "ROOT" finds "root": EMI ignores case.
    ASSERT_TRUE(mesh.skinned());
    const Skin& skin = model->skins[mesh.skin];
    ASSERT_EQ(skin.joints, (std::vector<uint32_t>{0, 1}));
    // arm's bind: T(1,0,0) * Rz(90); its inverse takes (1,1,0) to (1,0,0).
    glm::vec4 local = skin.inverseBind[1] * glm::vec4(1, 1, 0, 1);
    EXPECT_NEAR(local.x, 1.0f, 1e-6);
    EXPECT_NEAR(local.y, 0.0f, 1e-6);
    EXPECT_EQ(a.weights[0], glm::vec4(1, 0, 0, 0));
    EXPECT_EQ(a.joints[1], glm::u16vec4(0, 1, 0, 0));
    EXPECT_EQ(a.weights[1], glm::vec4(0.5f, 0.5f, 0, 0));
    EXPECT_EQ(a.joints[2], glm::u16vec4(1, 0, 0, 0));
    EXPECT_EQ(a.joints[3], glm::u16vec4(1, 0, 0, 0)); // the stronger influence first
    EXPECT_NEAR(a.weights[3].x, 0.7f, 1e-6);
    EXPECT_NEAR(a.weights[3].y, 0.3f, 1e-6);
    EXPECT_TRUE(model->warnings.empty());
}

TEST(Emi, AnimationReplacesRestValuesAndPoses) {
    TempDir dir;
    auto sklb = dir.put("mk.sklb", skeleton());
    auto meshb = dir.put("mk.meshb", mesh());
    auto animb = dir.put("walk.animb", anim());
    LoadOptions options;
    options.skeleton = sklb;
    options.anims = {animb};
    HeapMeshAllocator heap;
    Result<Model> model = loadModel(meshb, options, heap);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->clips.size(), 1u);
    const Clip& clip = model->clips[0];
    EXPECT_EQ(clip.name, "walk"); // the file stem
    EXPECT_EQ(clip.source, "walk.animb");
    EXPECT_EQ(clip.duration, 1.0f);
    EXPECT_EQ(clip.priority, 2);
    EXPECT_EQ(clip.end, ClipEnd::Hold);
    EXPECT_EQ(clip.rotationBlend, RotationBlend::Slerp);
    ASSERT_EQ(clip.channels.size(), 2u);
    EXPECT_EQ(clip.channels[0].node, 1u);
    EXPECT_EQ(clip.channels[0].path, ChannelPath::Rotation);
    EXPECT_EQ(clip.channels[0].times, (std::vector<float>{0.0f, 1.0f}));
    EXPECT_EQ(clip.channels[1].path, ChannelPath::Translation);
    EXPECT_EQ(clip.channels[1].values[1], glm::vec4(0, 2, 0, 0));
    const std::vector<std::string> warnings = test::withoutMissingTextures(model->warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("'tail'"), std::string::npos);

    // At 0.5 s: root at (0,1,0); arm turned 45 degrees (slerp of 0 and 90). Vertex 2 is
    // (1,0,0) in arm space, so it lands at (0,1,0) + (1,0,0) + Rz45 (1,0,0).
    std::vector<PosedMesh> posed = poseModel(*model, Playback{0, 0.0, 1.0, false}, 0.5);
    EXPECT_TRUE(near(posed[0].positions[2], glm::dvec3(1.0 + std::sqrt(0.5), 1.0 + std::sqrt(0.5), 0.0), 1e-6));
    // Vertex 0 follows root only: (0,0,0) + (0,1,0).
    EXPECT_TRUE(near(posed[0].positions[0], glm::dvec3(0, 1, 0), 1e-6));
    // Before the first key: the first; after the last: the last (the arm at 90 degrees).
    Model& m = *model;
    m.clips[0].duration = 2.0f;
    posed = poseModel(m, Playback{0, 0.0, 1.0, false}, 1.5);
    EXPECT_TRUE(near(posed[0].positions[2], glm::dvec3(1, 3, 0), 1e-6));
}

TEST(Emi, LoadsStaticWithoutSkeleton) {
    Bytes m = mesh();
    HeapMeshAllocator heap;
    Result<Model> model = emi().readModel("mk.meshb", m.span(), LoadOptions{}, heap);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->nodes.size(), 1u);
    EXPECT_FALSE(model->meshes[0].skinned());
    EXPECT_FALSE(model->meshes[0].layout().skinned);
    ASSERT_EQ(model->warnings.size(), 1u);
    EXPECT_NE(model->warnings[0].find("no skeleton"), std::string::npos);
}

TEST(Emi, HonoursVertexFormats) {
    HeapMeshAllocator heap;
    // 18: no normals stored; they come from the faces (counter-clockwise in the xy plane: +z).
    Bytes noNormals = mesh(nullptr, 18, false);
    Result<Model> a = emi().readModel("mk.meshb", noNormals.span(), LoadOptions{}, heap);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->meshes[0].arrays().normals[0], glm::vec3(0, 0, 1));
    EXPECT_EQ(a->meshes[0].arrays().uv0[1], glm::vec2(1, 0));
    // 3: no texture coordinates.
    Bytes noUvs = mesh(nullptr, 3, false);
    Result<Model> b = emi().readModel("mk.meshb", noUvs.span(), LoadOptions{}, heap);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->meshes[0].layout().uvSets, 0u);
    EXPECT_EQ(b->meshes[0].arrays().normals[0], glm::vec3(0, 0, 1));
    EXPECT_EQ(b->meshes[0].arrays().positions[3], glm::vec3(2, 0, 0));
}

TEST(Emi, KeepsFourStrongestInfluencesAndSaysSo) {
    MeshAt at;
    Bytes b = mesh(&at);
    // Vertex 3 gets three more influences: 0.7, 0.3, 0.2, 0.15, 0.1 (sum 1.45).
    b.patch32(at.infoCount, 9);
    for (float w : {0.2f, 0.15f, 0.1f}) b.u32(0).u32(0).f32(w);
    TempDir dir;
    auto sklb = dir.put("mk.sklb", skeleton());
    HeapMeshAllocator heap;
    Result<Model> model = loadMesh(b.span(), sklb, heap);
    ASSERT_TRUE(model) << model.error().message;
    glm::vec4 w = model->meshes[0].arrays().weights[3];
    EXPECT_NEAR(w.x, 0.7f / 1.35f, 1e-6);
    EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-6);
    ASSERT_EQ(model->warnings.size(), 1u);
    EXPECT_NE(model->warnings[0].find("1 vertices had more than four influences"), std::string::npos) << model->warnings[0];
    EXPECT_NE(model->warnings[0].find("0.0690"), std::string::npos) << model->warnings[0]; // 0.1 / 1.45
}

TEST(Emi, LoadsSkeletonAloneAndRefusesAnimationAsModel) {
    Bytes s = skeleton(), a = anim();
    HeapMeshAllocator heap;
    Result<Model> skeletonOnly = emi().readModel("mk.sklb", s.span(), LoadOptions{}, heap);
    ASSERT_TRUE(skeletonOnly) << skeletonOnly.error().message;
    EXPECT_EQ(skeletonOnly->nodes.size(), 2u);
    EXPECT_TRUE(skeletonOnly->meshes.empty());
    Result<Model> clip = emi().readModel("walk.animb", a.span(), LoadOptions{}, heap);
    ASSERT_FALSE(clip);
    EXPECT_NE(clip.error().message.find("--anim"), std::string::npos);
}

// No vertices and one empty face group: nothing to read past, and nothing to check an index
// against.
TEST(Emi, AnEmptyMeshLoadsEmpty) {
    Bytes b;
    str(b, "void");
    b.f32(0.0f);
    v3(b, 0, 0, 0), v3(b, 0, 0, 0), v3(b, 0, 0, 0);
    b.u32(1).u32(0).u32(0); // texture set count and type, no textures
    b.u32(19).u32(0);       // vertex format, no vertices
    b.u32(1).u32(0).u32(0).u32(0); // one face group: flags, no texture, no indices
    b.u32(0);               // no bones
    HeapMeshAllocator heap;
    Result<Model> m = emi().readModel("void.meshb", b.span(), LoadOptions{}, heap);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->meshes.size(), 1u);
    EXPECT_EQ(m->meshes[0].vertexCount(), 0u);
    EXPECT_EQ(m->meshes[0].indexCount(), 0u);
}

TEST(Emi, EveryTruncationFailsCleanly) {
    TempDir dir;
    auto sklb = dir.put("mk.sklb", skeleton());
    Bytes m = mesh(), s = skeleton(), a = anim();
    CountingAllocator counting;
    for (const auto& cut : test::truncations(m.span())) {
        Result<Model> model = loadMesh(cut, sklb, counting);
        ASSERT_FALSE(model) << "mesh prefix of " << cut.size() << " bytes loaded";
        EXPECT_EQ(model.error().message.rfind("mk.meshb: offset ", 0), 0u) << model.error().message;
    }
    EXPECT_EQ(counting.calls, 0) << "a truncated mesh is caught before its storage is allocated";
    for (const auto& cut : test::truncations(s.span())) {
        Result<Model> model = emi().readModel("mk.sklb", cut, LoadOptions{}, counting);
        ASSERT_FALSE(model) << "skeleton prefix of " << cut.size() << " bytes loaded";
        EXPECT_EQ(model.error().message.rfind("mk.sklb: offset ", 0), 0u) << model.error().message;
    }
    HeapMeshAllocator heap;
    Result<Model> target = loadMesh(m.span(), sklb, heap);
    ASSERT_TRUE(target);
    for (const auto& cut : test::truncations(a.span())) {
        Result<std::vector<Clip>> clips = emi().readClips("walk.animb", cut, *target);
        ASSERT_FALSE(clips) << "animation prefix of " << cut.size() << " bytes loaded";
        EXPECT_EQ(clips.error().message.rfind("walk.animb: offset ", 0), 0u) << clips.error().message;
    }
}

TEST(Emi, CorruptedFieldsFailNamingTheField) {
    TempDir dir;
    auto sklb = dir.put("mk.sklb", skeleton());
    HeapMeshAllocator heap;
    MeshAt at;
    mesh(&at);
    struct Case {
        size_t offset;
        uint32_t value;
        std::string field;
    };
    for (const Case& c : std::vector<Case>{{at.format, 7, "vertex format"},
                                          {at.texIndex, 2, "face group texture index"},
                                          {at.indexCount0, 4, "face group index count"},
                                          {at.hasBones, 2, "has-bones"},
                                          {at.firstIncrement, 0, "bone info increment"},
                                          {at.secondJoint, 2, "bone info joint"}}) {
        Bytes b = mesh();
        b.patch32(c.offset, c.value);
        Result<Model> model = loadMesh(b.span(), sklb, heap);
        ASSERT_FALSE(model) << c.field;
        EXPECT_NE(model.error().message.find(": " + c.field + ": "), std::string::npos) << model.error().message;
    }
    {
        Bytes b = mesh();
        b.patch32(at.index1, 9); // index 9 of 4 vertices (and the next index 0)
        Result<Model> model = loadMesh(b.span(), sklb, heap);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("offset " + std::to_string(at.index1) + " "), std::string::npos);
        EXPECT_NE(model.error().message.find("face group index: 9 is past the vertex count 4"), std::string::npos)
            << model.error().message;
    }
    {
        // Increments that walk past the last vertex.
        Bytes b = mesh();
        b.patch32(at.firstIncrement + 12 * 5, 1);
        b.patch32(at.infoCount, 7);
        b.u32(1).u32(0).f32(1.0f);
        Result<Model> model = loadMesh(b.span(), sklb, heap);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("moves past the last vertex"), std::string::npos) << model.error().message;
    }
    SkeletonAt sat;
    skeleton(&sat);
    {
        Bytes s = skeleton();
        s.patch32(sat.armParent, 0x626f6e); // "nob"
        Result<Model> model = emi().readModel("mk.sklb", s.span(), LoadOptions{}, heap);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("joint parent: 'nob' is not a joint named before 'arm'"), std::string::npos)
            << model.error().message;
    }
    {
        Bytes s = skeleton();
        for (size_t k = 0; k < 4; ++k) s.patch32(sat.armRotation + 4 * k, 0);
        Result<Model> model = emi().readModel("mk.sklb", s.span(), LoadOptions{}, heap);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("offset " + std::to_string(sat.armRotation) + " "), std::string::npos);
        EXPECT_NE(model.error().message.find("joint rotation"), std::string::npos) << model.error().message;
    }
    Bytes m = mesh();
    Result<Model> target = loadMesh(m.span(), sklb, heap);
    ASSERT_TRUE(target);
    AnimAt aat;
    anim(&aat);
    for (const Case& c : std::vector<Case>{{aat.operation, 5, "operation"},
                                          {aat.priority, 8, "priority"},
                                          {aat.secondTime, 0xBF800000u /* -1.0f */, "key time"}}) {
        Bytes b = anim();
        b.patch32(c.offset, c.value);
        Result<std::vector<Clip>> clips = emi().readClips("walk.animb", b.span(), *target);
        ASSERT_FALSE(clips) << c.field;
        EXPECT_NE(clips.error().message.find("offset " + std::to_string(c.offset) + " "), std::string::npos)
            << clips.error().message;
        EXPECT_NE(clips.error().message.find(": " + c.field + ": "), std::string::npos) << clips.error().message;
    }
}

TEST(Emi, ForgedCountsFailBeforeAllocating) {
    TempDir dir;
    auto sklb = dir.put("mk.sklb", skeleton());
    MeshAt at;
    mesh(&at);
    for (auto [offset, field] : std::vector<std::pair<size_t, std::string>>{{at.vertexCount, "vertex count"},
                                                                          {at.groupCount, "face group count"},
                                                                          {at.indexCount0, "face group index count"},
                                                                          {at.infoCount, "bone info count"}}) {
        Bytes b = mesh();
        b.patch32(offset, 0xFFFFFFF0u);
        CountingAllocator counting;
        Result<Model> model = loadMesh(b.span(), sklb, counting);
        ASSERT_FALSE(model) << field;
        EXPECT_EQ(counting.calls, 0) << field;
        EXPECT_NE(model.error().message.find(field + ": count 4294967280"), std::string::npos) << model.error().message;
    }
    Bytes s = skeleton();
    s.patch32(0, 0x7FFFFFFF);
    HeapMeshAllocator heap;
    Result<Model> skeletonModel = emi().readModel("mk.sklb", s.span(), LoadOptions{}, heap);
    ASSERT_FALSE(skeletonModel);
    EXPECT_NE(skeletonModel.error().message.find("joint count: count 2147483647"), std::string::npos);

    Bytes m = mesh();
    Result<Model> target = loadMesh(m.span(), sklb, heap);
    ASSERT_TRUE(target);
    AnimAt aat;
    anim(&aat);
    for (auto [offset, field] : std::vector<std::pair<size_t, std::string>>{{aat.entryCount, "bone entry count"},
                                                                          {aat.keyCount, "key count"}}) {
        Bytes b = anim();
        b.patch32(offset, 0xFFFFFFF0u);
        Result<std::vector<Clip>> clips = emi().readClips("walk.animb", b.span(), *target);
        ASSERT_FALSE(clips);
        EXPECT_NE(clips.error().message.find(field + ": count 4294967280"), std::string::npos) << clips.error().message;
    }
}

TEST(Emi, WriterRefusesWhatEmiCannotHold) {
    TempDir dir;
    HeapMeshAllocator heap;
    Model monster = buildMonster(heap);
    monster.nodes[3].scale = glm::vec3(2.0f);
    Result<Companions> scaled = emi().write(monster, dir.path / "mk.meshb");
    ASSERT_FALSE(scaled);
    EXPECT_NE(scaled.error().message.find("rest scale"), std::string::npos);
    monster.nodes[3].scale = glm::vec3(1.0f);
    monster.nodes[4].name = std::string(32, 'x');
    Result<Companions> longName = emi().write(monster, dir.path / "mk.meshb");
    ASSERT_FALSE(longName);
    EXPECT_NE(longName.error().message.find("1 to 31 bytes"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(dir.path / "mk.meshb")) << "nothing is written when the model is refused";
}

// The monster is right-handed and EMI left-handed: the writer mirrors through z, so the
// loaded positions are the source's with z negated, and its poses (mirrored back) match.
// EMI has no scale keys, so the clips compared are the monster's without its scale channels.
TEST(Emi, MonsterRoundTrips) {
    TempDir dir;
    HeapMeshAllocator heap;
    Model source = buildMonster(heap);
    for (Clip& clip : source.clips)
        std::erase_if(clip.channels, [](const Channel& c) { return c.path == ChannelPath::Scale; });
    Result<Companions> written = emi().write(source, dir.path / "mk.meshb");
    ASSERT_TRUE(written) << written.error().message;
    for (const char* name : {"mk.meshb", "mk.sklb", "mk_walk.animb", "mk_attack.animb"})
        EXPECT_TRUE(std::filesystem::exists(dir.path / name)) << name;

    LoadOptions options;
    options.skeleton = dir.path / "mk.sklb";
    options.anims = {dir.path / "mk_walk.animb", dir.path / "mk_attack.animb"};
    EXPECT_EQ(written->skeleton, options.skeleton);
    EXPECT_EQ(written->anims, options.anims);
    Result<Model> loaded = loadModel(dir.path / "mk.meshb", options, heap);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_TRUE(test::withoutMissingTextures(loaded->warnings).empty()) << loaded->warnings[0];
    ASSERT_EQ(loaded->meshes.size(), 1u);
    const Mesh& a = source.meshes[0];
    const Mesh& b = loaded->meshes[0];
    ASSERT_EQ(b.vertexCount(), a.vertexCount());
    ASSERT_EQ(b.indexCount(), a.indexCount());
    ASSERT_EQ(b.submeshes.size(), a.submeshes.size());
    const Skin& skinA = source.skins[a.skin];
    const Skin& skinB = loaded->skins[b.skin];
    auto mirrored = [](glm::dvec3 p) { return glm::dvec3(p.x, p.y, -p.z); };
    for (size_t v = 0; v < a.vertexCount(); ++v) {
        ASSERT_TRUE(near(glm::dvec3(b.arrays().positions[v]), mirrored(a.arrays().positions[v]), 1e-5)) << v;
        for (int k = 0; k < 4; ++k) {
            ASSERT_NEAR(b.arrays().weights[v][k], a.arrays().weights[v][k], 1e-6) << v;
            if (a.arrays().weights[v][k] > 0.0f) {
                ASSERT_EQ(loaded->nodes[skinB.joints[b.arrays().joints[v][k]]].name,
                          source.nodes[skinA.joints[a.arrays().joints[v][k]]].name);
            }
        }
    }
    // Mirrored triangles are turned back over: corners 1 and 2 swap.
    for (size_t i = 0; i < a.indexCount(); i += 3) {
        ASSERT_EQ(b.arrays().index(i), a.arrays().index(i));
        ASSERT_EQ(b.arrays().index(i + 1), a.arrays().index(i + 2));
    }
    for (size_t s = 0; s < a.submeshes.size(); ++s) EXPECT_EQ(b.submeshes[s].material, a.submeshes[s].material);

    struct Sample {
        const char* source;
        const char* loaded;
        std::vector<double> times;
    };
    for (const Sample& sample : {Sample{"walk", "mk_walk", {0.0, 0.21, 0.5, 0.77, 1.0}},
                                 Sample{"attack", "mk_attack", {0.1, 0.69, 0.75, 0.9, 1.3}}}) {
        int32_t ca = findClip(source, sample.source), cb = findClip(*loaded, sample.loaded);
        ASSERT_GE(cb, 0) << sample.loaded;
        EXPECT_EQ(loaded->clips[cb].duration, source.clips[ca].duration);
        for (double t : sample.times) {
            std::vector<PosedMesh> pa = poseModel(source, Playback{ca, 0.0, 1.0, false}, t);
            std::vector<PosedMesh> pb = poseModel(*loaded, Playback{cb, 0.0, 1.0, false}, t);
            for (size_t v = 0; v < a.vertexCount(); ++v)
                ASSERT_TRUE(near(mirrored(pb[0].positions[v]), pa[0].positions[v], 1e-5))
                    << sample.source << " at " << t << " vertex " << v;
        }
    }
}

// A converted model converts again to the same files' worth: the mesh's own root node, written
// into the skeleton, is found again instead of doubled.
TEST(Emi, ConvertedModelConvertsAgain) {
    TempDir dir;
    HeapMeshAllocator heap;
    Model source = buildMonster(heap);
    ASSERT_TRUE(emi().write(source, dir.path / "a.meshb"));
    LoadOptions options;
    options.skeleton = dir.path / "a.sklb";
    options.anims = {dir.path / "a_walk.animb"};
    Result<Model> first = loadModel(dir.path / "a.meshb", options, heap);
    ASSERT_TRUE(first) << first.error().message;
    ASSERT_EQ(first->nodes.size(), source.nodes.size() + 1);
    ASSERT_TRUE(emi().write(*first, dir.path / "b.meshb"));
    options.skeleton = dir.path / "b.sklb";
    options.anims = {dir.path / "b_a_walk.animb"};
    Result<Model> second = loadModel(dir.path / "b.meshb", options, heap);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->nodes.size(), first->nodes.size());
    EXPECT_EQ(second->meshes[0].node, first->meshes[0].node);
    std::vector<PosedMesh> pa = poseModel(*first, Playback{0, 0.0, 1.0, false}, 0.4);
    std::vector<PosedMesh> pb = poseModel(*second, Playback{0, 0.0, 1.0, false}, 0.4);
    for (size_t v = 0; v < pa[0].positions.size(); ++v)
        ASSERT_TRUE(near(pb[0].positions[v], pa[0].positions[v], 1e-5)) << v;
}

TEST(Emi, RejectsAJointThatIsItsOwnParent) {
    SkeletonAt at;
    Bytes s = skeleton(&at);
    s.patch32(at.armParent, 0x6d7261); // "arm"
    HeapMeshAllocator heap;
    Result<Model> model = emi().readModel("mk.sklb", s.span(), LoadOptions{}, heap);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("joint parent: 'arm' is not a joint named before 'arm'"), std::string::npos)
        << model.error().message;
}

// EMI holds the last key; a clip that wraps back to its first key gets that key again at its
// end, so it plays the same.
TEST(Emi, WrappingClipsGetTheirFirstKeyAtTheEnd) {
    TempDir dir;
    HeapMeshAllocator heap;
    Model source = buildMonster(heap);
    Clip& attack = source.clips[size_t(findClip(source, "attack"))];
    std::erase_if(attack.channels, [](const Channel& c) { return c.path == ChannelPath::Scale; });
    // The attack ends where it starts; without its last keys the wrap has ground to cover.
    for (Channel& c : attack.channels)
        if (c.interpolation == Interpolation::Linear) {
            c.times.pop_back();
            c.values.pop_back();
        }
    attack.duration = 2.0f;
    attack.end = ClipEnd::WrapToFirst;
    ASSERT_TRUE(emi().write(source, dir.path / "mk.meshb"));
    LoadOptions options;
    options.skeleton = dir.path / "mk.sklb";
    options.anims = {dir.path / "mk_attack.animb"};
    Result<Model> loaded = loadModel(dir.path / "mk.meshb", options, heap);
    ASSERT_TRUE(loaded) << loaded.error().message;
    int32_t ca = findClip(source, "attack");
    for (double t : {1.2, 1.7, 1.99}) {
        std::vector<PosedMesh> pa = poseModel(source, Playback{ca, 0.0, 1.0, false}, t);
        std::vector<PosedMesh> pb = poseModel(*loaded, Playback{0, 0.0, 1.0, false}, t);
        for (size_t v = 0; v < pa[0].positions.size(); ++v) {
            glm::dvec3 p = pb[0].positions[v];
            ASSERT_TRUE(near(glm::dvec3(p.x, p.y, -p.z), pa[0].positions[v], 1e-5)) << t << " vertex " << v;
        }
    }
}
