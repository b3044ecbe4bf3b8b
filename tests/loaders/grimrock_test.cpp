// Legend of Grimrock MDL1 / ANIM: hand-built files with hand-computed values, the monster
// round trip, and truncated, corrupted and forged files that must fail cleanly.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "anim/reference.h"
#include "grimrock_bytes.h"
#include "loader.h"
#include "model/axes.h"
#include "monster.h"
#include "support/bytes.h"
#include "support/counting_allocator.h"
#include "support/temp_dir.h"
#include "support/warnings.h"

using namespace horde;
using horde::test::Bytes;
using horde::test::str;
using horde::test::vec3;

namespace {

const Format& grimrock() { return grimrockFormat(); }

using horde::test::CountingAllocator;

// Mat4x3: baseX, baseY, baseZ (the columns), translation.
Bytes& mat(Bytes& b, glm::vec3 x, glm::vec3 y, glm::vec3 z, glm::vec3 t) {
    for (glm::vec3 v : {x, y, z, t}) vec3(b, v.x, v.y, v.z);
    return b;
}
Bytes& identity(Bytes& b) { return mat(b, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, 0}); }
Bytes& absent(Bytes& b) { return b.i32(0).i32(0).i32(0); }

// Offsets of the fields the corruption tests overwrite.
struct Layout {
    size_t node1Matrix = 0, node2Type = 0, numVertices = 0, positionStride = 0, boneIndexData = 0, numIndices = 0,
           firstIndex = 0, numNodes = 8;
};

// root; "bone" (90 degrees about Y, scale 2, at 1,2,3); "body" with a 3-vertex skinned mesh
// (float positions, normals, uv; int32 bone indices, float weights, as the game's files);
// "lamp" with a light.
Bytes skinnedModel(Layout* at = nullptr) {
    Layout l;
    Bytes b;
    b.text("MDL1").i32(2).i32(4);
    str(b, "root");
    identity(b).i32(-1).i32(-1);
    str(b, "bone");
    l.node1Matrix = b.size();
    mat(b, {0, 0, -2}, {0, 2, 0}, {2, 0, 0}, {1, 2, 3}).i32(0).i32(-1);
    str(b, "body");
    identity(b).i32(0);
    l.node2Type = b.size();
    b.i32(0);
    b.text("MESH").i32(2);
    l.numVertices = b.size();
    b.i32(3);
    // position: float32 x3, stride 12
    b.i32(3).i32(3);
    l.positionStride = b.size();
    b.i32(12);
    vec3(b, 0, 0, 0);
    vec3(b, 1, 0, 0);
    vec3(b, 0, 1, 0);
    // normal
    b.i32(3).i32(3).i32(12);
    for (int v = 0; v < 3; ++v) vec3(b, 0, 0, -1);
    absent(b), absent(b), absent(b); // tangent, bitangent, colour
    // texcoord0: float32 x2
    b.i32(3).i32(2).i32(8);
    b.f32(0).f32(0).f32(1).f32(0).f32(0).f32(1);
    for (int slot = 6; slot <= 12; ++slot) absent(b);
    // bone index: int32 x4
    b.i32(2).i32(4).i32(16);
    l.boneIndexData = b.size();
    b.i32(0).i32(0).i32(0).i32(0);
    b.i32(0).i32(1).i32(0).i32(0);
    b.i32(1).i32(7).i32(0).i32(0); // bone 7 does not exist but has no weight
    // bone weight: float32 x4
    b.i32(3).i32(4).i32(16);
    b.f32(1).f32(0).f32(0).f32(0);
    b.f32(0.25f).f32(0.75f).f32(0).f32(0);
    b.f32(1).f32(0).f32(0).f32(0);
    l.numIndices = b.size();
    b.i32(3).i32(0).i32(1).i32(2);
    b.i32(1);
    str(b, "stone");
    b.i32(2);
    l.firstIndex = b.size();
    b.i32(0).i32(1);
    b.zeros(40); // bound sphere and box
    b.i32(2);
    b.i32(1);
    identity(b);
    b.i32(0);
    mat(b, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {-1, 0, 0});
    vec3(b, 0, 0, 0).u8(1);
    str(b, "lamp");
    identity(b).i32(0).i32(1);
    b.i32(2);
    vec3(b, 1, 0.5f, 0.25f).f32(5).f32(45).f32(0.5f).u8(1);
    if (at) *at = l;
    return b;
}

// "walk" at 10 fps, 2 frames: "bone" with two keys and "ghost", which the model lacks.
Bytes walkAnimation(size_t* numItemsAt = nullptr, size_t* numKeysAt = nullptr,
                    const std::string& name = "walk") {
    Bytes b;
    b.text("ANIM").i32(1);
    str(b, name);
    b.f32(10.0f).i32(2);
    if (numItemsAt) *numItemsAt = b.size();
    b.i32(2);
    str(b, "bone");
    if (numKeysAt) *numKeysAt = b.size();
    b.i32(2);
    vec3(b, 0, 0, 0).f32(0).f32(0).f32(0).f32(2).f32(1).f32(1).f32(1); // rotation (0,0,0,2) normalizes to identity
    vec3(b, 4, 0, 0).f32(0).f32(1).f32(0).f32(0).f32(1).f32(1).f32(1);
    str(b, "ghost");
    b.i32(1);
    vec3(b, 0, 0, 0).f32(0).f32(0).f32(0).f32(1).f32(1).f32(1).f32(1);
    return b;
}

Result<Model> loadBytes(const Bytes& b, MeshAllocator& allocator, const std::string& name = "t.model") {
    return grimrock().readModel(name, b.span(), LoadOptions{}, allocator);
}

std::string loadError(const Bytes& b, CountingAllocator* counting = nullptr) {
    CountingAllocator local;
    Result<Model> m = loadBytes(b, counting ? *counting : local);
    return m ? std::string() : m.error().message;
}

Bytes patched(Bytes b, size_t offset, uint32_t value) { return b.patch32(offset, value), b; }

void expectNear(glm::dvec3 a, glm::dvec3 b, const std::string& what) {
    double scale = std::max(1.0, glm::length(b));
    ASSERT_LE(glm::length(a - b), 1e-5 * scale) << what << ": (" << a.x << ", " << a.y << ", " << a.z << ") vs ("
                                                << b.x << ", " << b.y << ", " << b.z << ")";
}

} // namespace

TEST(Grimrock, DetectsByMagicOnly) {
    Bytes model, anim, other;
    model.text("MDL1").i32(2);
    anim.text("ANIM").i32(1);
    other.text("MDL0").i32(2);
    EXPECT_TRUE(grimrock().detect("x.bin", model.span()));
    EXPECT_TRUE(grimrock().detect("x.bin", anim.span()));
    EXPECT_FALSE(grimrock().detect("x.model", other.span()));
    EXPECT_FALSE(grimrock().detect("x.model", {}));
}

TEST(Grimrock, DecodesNodesMeshSkinAndLight) {
    CountingAllocator allocator;
    Result<Model> m = loadBytes(skinnedModel(), allocator);
    ASSERT_TRUE(m) << m.error().message;
    EXPECT_EQ(allocator.calls, 1);
    EXPECT_EQ(m->format, "grimrock");
    EXPECT_TRUE(m->axes.leftHanded);
    EXPECT_TRUE(m->axes.clockwiseFrontFaces);
    EXPECT_EQ(m->axes.up, Axes::Up::Y);
    ASSERT_EQ(m->nodes.size(), 4u);
    EXPECT_EQ(m->nodes[0].parent, -1);
    const Node& bone = m->nodes[1];
    EXPECT_EQ(bone.name, "bone");
    EXPECT_EQ(bone.parent, 0);
    EXPECT_EQ(bone.translation, glm::vec3(1, 2, 3));
    EXPECT_NEAR(bone.scale.x, 2.0f, 1e-6f);
    EXPECT_NEAR(bone.scale.y, 2.0f, 1e-6f);
    EXPECT_NEAR(bone.scale.z, 2.0f, 1e-6f);
    // baseX = -Z: +90 degrees about Y, w = y = sqrt(1/2).
    EXPECT_NEAR(std::abs(bone.rotation.w), std::sqrt(0.5f), 1e-6f);
    EXPECT_NEAR(bone.rotation.y * (bone.rotation.w < 0 ? -1.0f : 1.0f), std::sqrt(0.5f), 1e-6f);
    EXPECT_NEAR(bone.rotation.x, 0.0f, 1e-6f);
    EXPECT_NEAR(bone.rotation.z, 0.0f, 1e-6f);

    ASSERT_EQ(m->meshes.size(), 1u);
    const Mesh& mesh = m->meshes[0];
    EXPECT_EQ(mesh.name, "body");
    EXPECT_EQ(mesh.node, 2u);
    ASSERT_EQ(mesh.vertexCount(), 3u);
    ASSERT_EQ(mesh.indexCount(), 3u);
    EXPECT_TRUE(mesh.layout().index16);
    EXPECT_EQ(mesh.layout().uvSets, 1u);
    const MeshArrays& a = mesh.arrays();
    EXPECT_EQ(a.positions[1], glm::vec3(1, 0, 0));
    EXPECT_EQ(a.normals[2], glm::vec3(0, 0, -1));
    EXPECT_EQ(a.uv0[2], glm::vec2(0, 1));
    EXPECT_EQ(a.index(2), 2u);
    ASSERT_EQ(mesh.submeshes.size(), 1u);
    EXPECT_EQ(mesh.submeshes[0].material, "stone");
    EXPECT_EQ(mesh.submeshes[0].indexCount, 3u); // count is in triangles

    ASSERT_EQ(mesh.skin, 0);
    const Skin& skin = m->skins[0];
    ASSERT_EQ(skin.joints, (std::vector<uint32_t>{1, 0}));
    EXPECT_EQ(skin.inverseBind[1][3], glm::vec4(-1, 0, 0, 1));
    EXPECT_EQ(a.joints[0].x, 0);
    EXPECT_EQ(a.weights[0], glm::vec4(1, 0, 0, 0));
    // Strongest first: bone 1 at 0.75, bone 0 at 0.25.
    EXPECT_EQ(a.joints[1].x, 1);
    EXPECT_EQ(a.joints[1].y, 0);
    EXPECT_NEAR(a.weights[1].x, 0.75f, 1e-6f);
    EXPECT_NEAR(a.weights[1].y, 0.25f, 1e-6f);
    EXPECT_EQ(a.joints[2].x, 1);

    ASSERT_EQ(m->extras.size(), 1u);
    EXPECT_EQ(m->extras[0].kind, "light");
    EXPECT_EQ(m->extras[0].node, "lamp");
    EXPECT_EQ(m->extras[0].detail, "type 2, colour (1, 0.5, 0.25), range 5, spot angle 45, spot sharpness 0.5, casts shadows");
    // No Lua was given: the one warning says where material definitions are looked for.
    ASSERT_EQ(m->warnings.size(), 1u);
    EXPECT_EQ(m->warnings[0].rfind("no Grimrock material definitions were read", 0), 0u) << m->warnings[0];
}

TEST(Grimrock, HonoursByteWeightsPaddedStridesAndStaticMeshes) {
    Bytes b;
    b.text("MDL1").i32(2).i32(2);
    str(b, "root");
    identity(b).i32(-1).i32(-1);
    str(b, "prop");
    identity(b).i32(0).i32(0);
    b.text("MESH").i32(2).i32(2);
    b.i32(3).i32(3).i32(16); // padded stride: a junk float after each position
    vec3(b, 1, 2, 3).f32(99);
    vec3(b, 4, 5, 6).f32(99);
    for (int slot = 1; slot <= 12; ++slot) absent(b);
    b.i32(0).i32(4).i32(4); // byte bone indices
    b.u8(0).u8(0).u8(0).u8(0).u8(0).u8(0).u8(0).u8(0);
    b.i32(0).i32(4).i32(4); // byte weights, /255
    b.u8(64).u8(191).u8(0).u8(0).u8(255).u8(0).u8(0).u8(0);
    b.i32(0); // no indices
    b.i32(0); // no segments
    b.zeros(40);
    b.i32(0); // bone arrays but no bones: static
    vec3(b, 0, 0, 0).u8(0);
    HeapMeshAllocator allocator;
    Result<Model> m = loadBytes(b, allocator);
    ASSERT_TRUE(m) << m.error().message;
    const Mesh& mesh = m->meshes[0];
    EXPECT_FALSE(mesh.skinned());
    EXPECT_FALSE(mesh.layout().skinned);
    EXPECT_EQ(mesh.layout().uvSets, 0u);
    EXPECT_EQ(mesh.arrays().positions[1], glm::vec3(4, 5, 6));
    EXPECT_EQ(mesh.arrays().normals[0], glm::vec3(0));
    ASSERT_FALSE(m->warnings.empty()); // no normals
}

TEST(Grimrock, NormalizesByteWeights) {
    // One vertex, two byte weights of a skin with two bones.
    Bytes m;
    m.text("MDL1").i32(2).i32(2);
    str(m, "root");
    identity(m).i32(-1).i32(-1);
    str(m, "skin");
    identity(m).i32(0).i32(0);
    m.text("MESH").i32(2).i32(1);
    m.i32(3).i32(3).i32(12);
    vec3(m, 0, 0, 0);
    for (int slot = 1; slot <= 12; ++slot) absent(m);
    m.i32(0).i32(4).i32(4).u8(0).u8(1).u8(0).u8(0);
    m.i32(0).i32(4).i32(4).u8(51).u8(153).u8(0).u8(0); // 0.2 and 0.6 of 255: renormalized 0.25, 0.75
    m.i32(0).i32(0);
    m.zeros(40);
    m.i32(2);
    m.i32(0);
    identity(m);
    m.i32(1);
    identity(m);
    vec3(m, 0, 0, 0).u8(0);
    HeapMeshAllocator allocator;
    Result<Model> r = loadBytes(m, allocator);
    ASSERT_TRUE(r) << r.error().message;
    const MeshArrays& a = r->meshes[0].arrays();
    EXPECT_EQ(a.joints[0].x, 1);
    EXPECT_NEAR(a.weights[0].x, 0.75f, 1e-6f);
    EXPECT_NEAR(a.weights[0].y, 0.25f, 1e-6f);
}

TEST(Grimrock, WarnsOnShear) {
    Layout l;
    Bytes b = skinnedModel(&l);
    b.patch32(l.node1Matrix + 12, std::bit_cast<uint32_t>(1.0f)); // baseY = (1, 2, 0): not orthogonal to baseX
    HeapMeshAllocator allocator;
    Result<Model> m = loadBytes(b, allocator);
    ASSERT_TRUE(m) << m.error().message;
    const std::vector<std::string> warnings = test::withoutUndefinedMaterials(m->warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("'bone'"), std::string::npos);
    EXPECT_NE(warnings[0].find("shear"), std::string::npos);
}

TEST(Grimrock, DecodesAnimationAndBindsByName) {
    HeapMeshAllocator allocator;
    Result<Model> m = loadBytes(skinnedModel(), allocator);
    ASSERT_TRUE(m);
    Bytes anim = walkAnimation();
    Result<std::vector<Clip>> clips = grimrock().readClips("walk.animation", anim.span(), *m);
    ASSERT_TRUE(clips) << clips.error().message;
    ASSERT_EQ(clips->size(), 1u);
    const Clip& clip = (*clips)[0];
    EXPECT_EQ(clip.name, "walk");
    EXPECT_FLOAT_EQ(clip.duration, 0.2f); // 2 frames at 10 fps
    EXPECT_EQ(clip.end, ClipEnd::WrapToFirst);
    EXPECT_EQ(clip.rotationBlend, RotationBlend::Nlerp);
    ASSERT_EQ(clip.channels.size(), 3u); // "ghost" skipped
    const std::vector<std::string> warnings = test::withoutUndefinedMaterials(m->warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("'ghost'"), std::string::npos);
    for (const Channel& c : clip.channels) {
        EXPECT_EQ(c.node, 1u);
        ASSERT_EQ(c.times, (std::vector<float>{0.0f, 0.1f}));
    }
    EXPECT_EQ(clip.channels[0].path, ChannelPath::Translation);
    EXPECT_EQ(clip.channels[1].path, ChannelPath::Rotation);
    EXPECT_EQ(clip.channels[2].path, ChannelPath::Scale);
    EXPECT_EQ(clip.channels[0].values[1], glm::vec4(4, 0, 0, 0));
    EXPECT_EQ(clip.channels[1].values[0], glm::vec4(0, 0, 0, 1)); // normalized
    // Halfway between the last key (0.1 s) and the end (0.2 s) it blends back to frame 0.
    EXPECT_NEAR(sampleChannel(clip, clip.channels[0], 0.15).x, 2.0, 1e-6);
    // Rotation nlerp halfway from (0,1,0,0) to identity: normalized (0, .5, 0, .5).
    glm::dvec4 q = sampleChannel(clip, clip.channels[1], 0.15);
    EXPECT_NEAR(q.y, std::sqrt(0.5), 1e-6);
    EXPECT_NEAR(q.w, std::sqrt(0.5), 1e-6);
}

// Real Grimrock animations often leave the name field empty (the skeleton warrior's walk of the
// public mod eob1-waterdeep does): the clip is called after its file, `horde info` and every
// writer show that name, and it survives a glTF round trip.
TEST(Grimrock, AnUnnamedAnimationIsCalledAfterItsFile) {
    const horde::test::TempDir temp("horde_grimrock_unnamed");
    std::filesystem::path model = temp.put("warrior.model", skinnedModel());
    LoadOptions options;
    options.anims = {temp.put("skeleton_warrior_axe_walk.animation", walkAnimation(nullptr, nullptr, "")),
                     temp.put("named.animation", walkAnimation())};
    HeapMeshAllocator allocator;
    Result<Model> m = loadModel(model, options, allocator);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->clips.size(), 2u);
    EXPECT_EQ(m->clips[0].name, "skeleton_warrior_axe_walk");
    EXPECT_EQ(m->clips[1].name, "walk"); // a stored name is kept
    std::filesystem::path glb = temp.path / "warrior.glb";
    ASSERT_TRUE(gltfFormat().write(*m, glb));
    Result<Model> back = loadModel(glb, {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    ASSERT_EQ(back->clips.size(), 2u);
    EXPECT_EQ(back->clips[0].name, "skeleton_warrior_axe_walk");
}

// Bound to a model in other axes (right-handed, Y up, as glTF), the keys move out of Grimrock's
// left-handed axes: Z mirrors, so a translation (1, 2, 3) becomes (1, 2, -3) and a quarter turn
// about X turns the other way, quaternion (s, 0, 0, s) -> (-s, 0, 0, s) with s = sqrt(1/2).
TEST(Grimrock, AnimationBoundToARightHandedModelMovesIntoItsAxes) {
    Model target;
    target.nodes.push_back(Node{.name = "bone"});
    target.axes = Axes{.up = Axes::Up::Y, .leftHanded = false, .clockwiseFrontFaces = false};
    const float s = std::sqrt(0.5f);
    Bytes b;
    b.text("ANIM").i32(1);
    str(b, "turn");
    b.f32(10.0f).i32(1).i32(1);
    str(b, "bone");
    b.i32(1);
    vec3(b, 1, 2, 3).f32(s).f32(0).f32(0).f32(s).f32(1).f32(2).f32(3);
    Result<std::vector<Clip>> clips = grimrock().readClips("turn.animation", b.span(), target);
    ASSERT_TRUE(clips) << clips.error().message;
    const Clip& clip = (*clips)[0];
    ASSERT_EQ(clip.channels.size(), 3u);
    expectNear(glm::dvec3(clip.channels[0].values[0]), glm::dvec3(1, 2, -3), "translation");
    const glm::vec4 q = clip.channels[1].values[0];
    const double sign = q.w < 0 ? -1.0 : 1.0; // q and -q are one rotation
    expectNear(sign * glm::dvec3(q), glm::dvec3(-s, 0, 0), "rotation xyz");
    EXPECT_NEAR(sign * q.w, s, 1e-6);
    expectNear(glm::dvec3(clip.channels[2].values[0]), glm::dvec3(1, 2, 3), "scale"); // mirroring Z keeps each axis's scale
}

TEST(Grimrock, RejectsAnimationAsModelAndModelAsAnimation) {
    HeapMeshAllocator allocator;
    Result<Model> m = loadBytes(walkAnimation(), allocator, "walk.animation");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error().message.find("animation"), std::string::npos);
    Result<Model> model = loadBytes(skinnedModel(), allocator);
    ASSERT_TRUE(model);
    Bytes bytes = skinnedModel();
    Result<std::vector<Clip>> clips = grimrock().readClips("t.model", bytes.span(), *model);
    ASSERT_FALSE(clips);
    EXPECT_NE(clips.error().message.find("magic"), std::string::npos);
}

// A mesh entity with no vertices, indices, segments or bones: nothing to read past, and nothing
// to check an index against.
TEST(Grimrock, AnEmptyMeshLoadsEmpty) {
    Bytes b;
    b.text("MDL1").i32(2).i32(1);
    str(b, "empty");
    identity(b).i32(-1).i32(0);
    b.text("MESH").i32(2).i32(0);
    for (int slot = 0; slot < 15; ++slot) absent(b);
    b.i32(0).i32(0).zeros(40).i32(0);
    vec3(b, 0, 0, 0).u8(0);
    HeapMeshAllocator heap;
    Result<Model> m = loadBytes(b, heap);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_EQ(m->meshes.size(), 1u);
    EXPECT_EQ(m->meshes[0].vertexCount(), 0u);
    EXPECT_EQ(m->meshes[0].indexCount(), 0u);
}

TEST(Grimrock, EveryTruncationFailsCleanly) {
    Bytes model = skinnedModel();
    for (const auto& cut : test::truncations(model.span())) {
        HeapMeshAllocator allocator;
        Result<Model> m = grimrock().readModel("cut.model", cut, LoadOptions{}, allocator);
        ASSERT_FALSE(m) << "prefix of " << cut.size() << " bytes loaded";
        EXPECT_EQ(m.error().message.rfind("cut.model: offset ", 0), 0u) << m.error().message;
    }
    Bytes anim = walkAnimation();
    for (const auto& cut : test::truncations(anim.span())) {
        HeapMeshAllocator allocator;
        Result<Model> target = loadBytes(model, allocator);
        ASSERT_TRUE(target);
        Result<std::vector<Clip>> clips = grimrock().readClips("cut.animation", cut, *target);
        ASSERT_FALSE(clips) << "prefix of " << cut.size() << " bytes loaded";
        EXPECT_EQ(clips.error().message.rfind("cut.animation: offset ", 0), 0u) << clips.error().message;
    }
}

TEST(Grimrock, CorruptedFieldsFailNamingTheField) {
    Layout l;
    Bytes b = skinnedModel(&l);
    auto expectField = [](const Bytes& bytes, const std::string& field) {
        std::string error = loadError(bytes);
        EXPECT_NE(error.find(field), std::string::npos) << "expected '" << field << "' in: " << error;
    };
    expectField(patched(b, l.node2Type, 7), "nodes[2].type: entity type 7");
    expectField(patched(b, l.positionStride, 8), "vertexArrays[0] (position).stride");
    expectField(patched(b, l.positionStride - 4, 9), "vertexArrays[0] (position).dim");
    expectField(patched(b, l.positionStride - 8, 5), "vertexArrays[0] (position).dataType");
    expectField(patched(b, l.boneIndexData, 9), "vertexArrays[13] (boneIndex): vertex 0 names bone 9");
    expectField(patched(b, l.numIndices + 8, 3), "MeshData.indices: index 1 = 3");
    expectField(patched(b, l.numIndices, 4), "MeshData.numIndices");
    expectField(patched(b, l.firstIndex, 1), "segments[0].firstIndex");
    expectField(patched(b, l.firstIndex - 4, 4), "segments[0].primitiveType");
    expectField(patched(b, l.node1Matrix + 48, 1), "nodes[1].parent"); // parent 1 is itself
    expectField(patched(b, 4, 3), "version");
    expectField(patched(b, l.node1Matrix, 0x7fc00000u), "nodes[1].localToParent: is not finite");
}

TEST(Grimrock, ForgedCountsFailBeforeAllocating) {
    Layout l;
    Bytes b = skinnedModel(&l);
    for (auto [offset, field] : {std::pair<size_t, const char*>{l.numVertices, "rawVertexData"},
                                 {l.numIndices, "MeshData.indices"},
                                 {l.numNodes, "numNodes"}}) {
        CountingAllocator allocator;
        std::string error = loadError(patched(b, offset, 0x7ffffffeu), &allocator); // a multiple of 3
        EXPECT_NE(error.find(field), std::string::npos) << error;
        EXPECT_NE(error.find("does not fit"), std::string::npos) << error;
        EXPECT_EQ(allocator.calls, 0);
    }
    size_t itemsAt = 0, keysAt = 0;
    Bytes anim = walkAnimation(&itemsAt, &keysAt);
    HeapMeshAllocator heap;
    Result<Model> target = loadBytes(b, heap);
    ASSERT_TRUE(target);
    for (auto [offset, field] : {std::pair<size_t, const char*>{itemsAt, "numItems"}, {keysAt, "items[0].keys"}}) {
        Result<std::vector<Clip>> clips =
            grimrock().readClips("a.animation", patched(anim, offset, 0x7fffffffu).span(), *target);
        ASSERT_FALSE(clips);
        EXPECT_NE(clips.error().message.find(field), std::string::npos) << clips.error().message;
        EXPECT_NE(clips.error().message.find("does not fit"), std::string::npos) << clips.error().message;
    }
}

namespace {
struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_grimrock") {}
};

// Model-space positions of every mesh moved into horde's world by the model's axes.
std::vector<glm::dvec3> worldPositions(const Model& model, const Playback& playback) {
    glm::dmat4 toWorld(axesToWorld(model.axes));
    std::vector<glm::dvec3> out;
    for (const PosedMesh& mesh : poseModel(model, playback, 0.0))
        for (glm::dvec3 p : mesh.positions) out.push_back(glm::dvec3(toWorld * glm::dvec4(p, 1.0)));
    return out;
}
} // namespace

TEST(Grimrock, MonsterRoundTrips) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    TempDir dir;
    std::filesystem::path path = dir.path / "m.model";
    Result<Companions> written = grimrock().write(source, path);
    ASSERT_TRUE(written) << written.error().message;
    LoadOptions options;
    options.anims = {dir.path / "m_walk.animation", dir.path / "m_attack.animation"};
    for (const auto& anim : options.anims) ASSERT_TRUE(std::filesystem::exists(anim)) << anim;
    EXPECT_EQ(written->anims, options.anims);
    EXPECT_TRUE(written->skeleton.empty());
    Result<Model> loaded = loadModel(path, options, allocator);
    ASSERT_TRUE(loaded) << loaded.error().message;
    // The writer keeps material names; their definitions are the mod's Lua, which it does not write.
    EXPECT_TRUE(test::withoutUndefinedMaterials(loaded->warnings).empty()) << loaded->warnings.front();
    EXPECT_EQ(loaded->warnings.size(), 1u + source.materials.size()) << "the hint, then one per material";

    ASSERT_EQ(loaded->nodes.size(), source.nodes.size());
    ASSERT_EQ(loaded->meshes.size(), source.meshes.size());
    const Mesh& a = source.meshes[0];
    const Mesh& b = loaded->meshes[0];
    ASSERT_EQ(b.vertexCount(), a.vertexCount());
    ASSERT_EQ(b.indexCount(), a.indexCount());
    ASSERT_EQ(b.submeshes.size(), a.submeshes.size());
    for (size_t s = 0; s < a.submeshes.size(); ++s) {
        EXPECT_EQ(b.submeshes[s].material, a.submeshes[s].material);
        EXPECT_EQ(b.submeshes[s].indexCount, a.submeshes[s].indexCount);
    }
    const Skin& skinA = source.skins[a.skin];
    const Skin& skinB = loaded->skins[b.skin];
    for (uint32_t v = 0; v < a.vertexCount(); ++v)
        for (int k = 0; k < 4; ++k) {
            float w = a.arrays().weights[v][k];
            ASSERT_NEAR(b.arrays().weights[v][k], w, 1e-6f) << "vertex " << v;
            if (w > 0.0f) {
                ASSERT_EQ(skinB.joints[b.arrays().joints[v][k]], skinA.joints[a.arrays().joints[v][k]]);
            }
        }
    // Bind pose, in horde's world: the file is mirrored, its axes mirror it back.
    std::vector<glm::dvec3> restA = worldPositions(source, Playback{}), restB = worldPositions(*loaded, Playback{});
    ASSERT_EQ(restA.size(), restB.size());
    for (size_t v = 0; v < restA.size(); ++v) expectNear(restB[v], restA[v], "bind vertex " + std::to_string(v));

    ASSERT_EQ(loaded->clips.size(), source.clips.size());
    for (size_t c = 0; c < source.clips.size(); ++c) {
        int32_t clip = findClip(*loaded, source.clips[c].name);
        ASSERT_GE(clip, 0) << source.clips[c].name;
        EXPECT_NEAR(loaded->clips[clip].duration, source.clips[c].duration, 1e-6f);
        // Compare at every key time the writer sampled.
        for (float t : loaded->clips[clip].channels.at(0).times) {
            std::vector<glm::dvec3> posedA = worldPositions(source, Playback{int32_t(c), double(t)});
            std::vector<glm::dvec3> posedB = worldPositions(*loaded, Playback{clip, double(t)});
            for (size_t v = 0; v < posedA.size(); ++v)
                expectNear(posedB[v], posedA[v], source.clips[c].name + " t=" + std::to_string(t) + " vertex " + std::to_string(v));
        }
    }
}

TEST(Grimrock, RandomCorruptionNeverCrashes) {
    Bytes model = skinnedModel(), anim = walkAnimation();
    uint32_t state = 12345;
    auto next = [&state] { return state = state * 1664525u + 1013904223u; };
    for (int round = 0; round < 2000; ++round) {
        std::vector<std::byte> m(model.data()), a(anim.data());
        for (int flips = 0; flips < 4; ++flips) {
            m[next() % m.size()] = std::byte(next() >> 24);
            a[next() % a.size()] = std::byte(next() >> 24);
        }
        HeapMeshAllocator allocator;
        Result<Model> loaded = grimrock().readModel("c.model", m, LoadOptions{}, allocator);
        if (!loaded) {
            EXPECT_EQ(loaded.error().message.rfind("c.model: offset ", 0), 0u) << loaded.error().message;
            continue;
        }
        Result<std::vector<Clip>> clips = grimrock().readClips("c.animation", a, *loaded);
        if (!clips) {
            EXPECT_EQ(clips.error().message.rfind("c.animation: offset ", 0), 0u) << clips.error().message;
        }
    }
}
