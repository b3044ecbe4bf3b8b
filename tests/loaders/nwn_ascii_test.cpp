// NWN ASCII MDL: the hand-written models in tests/fuzz/seeds/nwn-ascii/ (also the fuzzer's
// seeds), their binary twins written by horde posed the same, supermodel chains mixing the two
// encodings, and hostile text.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "anim/reference.h"
#include "loader.h"
#include "monster.h"
#include "nwn/nwn.h"
#include "support/warnings.h"

using namespace horde;

namespace {
std::string seed(const std::string& name) {
    std::ifstream in(std::string(HORDE_SOURCE_DIR) + "/tests/fuzz/seeds/nwn-ascii/" + name, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    EXPECT_FALSE(s.str().empty()) << name;
    return s.str();
}

std::span<const std::byte> bytesOf(const std::string& text) {
    return std::as_bytes(std::span(text.data(), text.size()));
}

Result<Model> parse(const std::string& text, HeapMeshAllocator& allocator,
                    const std::string& name = "tiny.mdl") {
    Result<Model> model = nwnAsciiFormat().readModel(name, bytesOf(text), {}, allocator);
    if (model) finalizeMeshes(*model);
    return model;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

void expectFails(const std::string& text, const std::string& part) {
    HeapMeshAllocator allocator;
    Result<Model> model = parse(text, allocator);
    ASSERT_FALSE(model) << "expected a failure saying " << part;
    EXPECT_NE(model.error().message.find(part), std::string::npos) << model.error().message;
    EXPECT_EQ(model.error().message.rfind("tiny.mdl: line ", 0), 0u) << model.error().message;
}

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() /
               ("horde_nwn_ascii_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
                std::to_string(reinterpret_cast<uintptr_t>(this)));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

void save(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// Model-space corners (positions of each index, every mesh in order): a model written in the
// other encoding may cut and reorder its vertices, never its triangles.
std::vector<glm::dvec3> corners(const Model& model, const Playback& playback, double time) {
    std::vector<PosedMesh> posed = poseModel(model, playback, time);
    std::vector<glm::dvec3> out;
    for (size_t m = 0; m < model.meshes.size(); ++m)
        for (size_t i = 0; i < model.meshes[m].indexCount(); ++i)
            out.push_back(posed[m].positions[model.meshes[m].arrays().index(i)]);
    return out;
}

// Every clip of `a` at several times (and the bind pose) against the clip of the same name in `b`.
void expectSamePoses(const Model& a, const Model& b, double tolerance = 1e-5) {
    std::vector<std::pair<int32_t, int32_t>> clips{{-1, -1}};
    for (size_t c = 0; c < a.clips.size(); ++c) {
        int32_t other = findClip(b, a.clips[c].name);
        ASSERT_GE(other, 0) << a.clips[c].name;
        clips.emplace_back(int32_t(c), other);
    }
    for (auto [ca, cb] : clips)
        for (double time : {0.0, 0.3, 0.5, 1.0, 1.7}) {
            Playback pa, pb;
            pa.clip = ca;
            pb.clip = cb;
            std::vector<glm::dvec3> x = corners(a, pa, time), y = corners(b, pb, time);
            ASSERT_EQ(x.size(), y.size());
            for (size_t i = 0; i < x.size(); ++i)
                ASSERT_LE(glm::length(x[i] - y[i]), tolerance)
                    << "clip " << ca << " at " << time << " s, corner " << i;
        }
}

Result<Model> loadFile(const std::filesystem::path& path, HeapMeshAllocator& allocator,
                       const LoadOptions& options = {}) {
    return loadModel(path, options, allocator);
}

void expectVec(glm::dvec3 a, glm::dvec3 b, double tolerance = 1e-5) {
    EXPECT_NEAR(a.x, b.x, tolerance);
    EXPECT_NEAR(a.y, b.y, tolerance);
    EXPECT_NEAR(a.z, b.z, tolerance);
}
} // namespace

TEST(NwnAscii, TinyModelGeometry) {
    HeapMeshAllocator allocator;
    Result<Model> model = parse(seed("tiny.mdl"), allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_EQ(model->format, "nwn-ascii");
    EXPECT_EQ(model->axes.up, Axes::Up::Z);
    // Pre-order whatever the file order: "tri" names "arm", defined after it, as its parent.
    std::vector<std::string> names;
    for (const Node& n : model->nodes)
        names.push_back(n.name);
    EXPECT_EQ(names, (std::vector<std::string>{"tiny", "arm", "tri", "lamp", "sparks", "ref", "walk", "spot",
                                               "cape"}));
    EXPECT_EQ(model->nodes[2].parent, 1);
    ASSERT_EQ(model->meshes.size(), 2u); // tri and cape; the walkmesh is reported, not drawn
    const Mesh& tri = model->meshes[0];
    EXPECT_EQ(tri.name, "tri");
    EXPECT_EQ(tri.node, 2u);
    EXPECT_EQ(tri.submeshes.at(0).material, "tex0");
    EXPECT_EQ(model->meshes[1].submeshes.at(0).material, "");
    // Position 2 is used with texture vertices 2 and 4: two vertices, next to each other.
    ASSERT_EQ(tri.vertexCount(), 5u);
    ASSERT_EQ(tri.layout().uvSets, 2u);
    const MeshArrays& a = tri.arrays();
    std::vector<uint32_t> indices;
    for (size_t i = 0; i < tri.indexCount(); ++i)
        indices.push_back(a.index(i));
    EXPECT_EQ(indices, (std::vector<uint32_t>{0, 1, 2, 3, 1, 4}));
    expectVec(a.positions[3], {0, 1, 0});
    EXPECT_EQ(a.uv0[2], glm::vec2(0, 1));
    EXPECT_EQ(a.uv0[3], glm::vec2(0.5f, 0.5f));
    EXPECT_EQ(a.uv1[3], glm::vec2(0.25f, 0.25f));
    for (glm::vec3 n : a.normals)
        expectVec(n, {0, 0, 1});
    // Bind pose: 90 degrees about Z at (1, 2, 3), under "arm" at (0, 0, 1).
    std::vector<PosedMesh> posed = poseModel(*model, Playback{}, 0.0);
    expectVec(posed[0].positions[1], {1, 3, 4});
    std::map<std::string, std::string> extras;
    for (const Extra& e : model->extras)
        extras[e.kind] += e.node + ";";
    EXPECT_EQ(extras["light"], "lamp;");
    EXPECT_EQ(extras["emitter"], "sparks;");
    EXPECT_EQ(extras["reference"], "ref;");
    EXPECT_EQ(extras["walkmesh"], "walk;");
    EXPECT_EQ(extras["patch"], "spot;");
    EXPECT_EQ(extras["dangly"], "cape;");
    EXPECT_EQ(extras["animation"], "tiny;");
    for (const Extra& e : model->extras) {
        if (e.kind == "dangly") {
            EXPECT_NE(e.detail.find("3 constraints, displacement 0.5, tightness 1, period 2"),
                      std::string::npos)
                << e.detail;
        }
        if (e.kind == "animation") {
            EXPECT_NE(e.detail.find("event 'hit' at 0.5 s"), std::string::npos) << e.detail;
        }
        if (e.kind == "skipped") {
            EXPECT_NE(e.detail.find("first 'filedependancy' at line 2"), std::string::npos) << e.detail;
        }
    }
    EXPECT_TRUE(model->warnings.empty()) << model->warnings.front();
}

TEST(NwnAscii, TinyModelAnimation) {
    HeapMeshAllocator allocator;
    Result<Model> model = parse(seed("tiny.mdl"), allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->clips.size(), 1u);
    const Clip& clip = model->clips[0];
    EXPECT_EQ(clip.name, "wave");
    EXPECT_FLOAT_EQ(clip.duration, 2.0f);
    auto channel = [&](uint32_t node, ChannelPath path) -> const Channel& {
        for (const Channel& c : clip.channels)
            if (c.node == node && c.path == path) return c;
        ADD_FAILURE() << "no channel";
        return clip.channels.front();
    };
    // "ARM" binds to "arm" ignoring case; keys counted, and up to endlist.
    expectVec(glm::dvec3(sampleChannel(clip, channel(1, ChannelPath::Translation), 1.0)), {0, 0, 2});
    glm::dvec4 q = sampleChannel(clip, channel(1, ChannelPath::Rotation), 1.0);
    // Half of 3 radians about Z.
    expectVec(glm::dvec3(q), {0, 0, std::sin(0.75)});
    EXPECT_NEAR(q.w, std::cos(0.75), 1e-5);
    expectVec(glm::dvec3(sampleChannel(clip, channel(1, ChannelPath::Scale), 1.0)), {2, 2, 2});
    // Bezier: control points 0, 2, 2, 0 over 2 s give 1.5 at 1 s and 1.125 at 0.5 s.
    const Channel& bezier = channel(2, ChannelPath::Translation);
    EXPECT_EQ(bezier.interpolation, Interpolation::CubicSpline);
    EXPECT_NEAR(sampleChannel(clip, bezier, 1.0).x, 1.5, 1e-5);
    EXPECT_NEAR(sampleChannel(clip, bezier, 0.5).x, 1.125, 1e-5);
}

TEST(NwnAscii, SkinnedModelWithABinarySupermodel) {
    TempDir dir;
    save(dir.path / "skinny.mdl", seed("skinny.mdl"));
    // The supermodel, written binary by horde: a "run" clip that moves bone2 to (0, 0, 5).
    Model base;
    base.axes.up = Axes::Up::Z;
    base.nodes = {Node{"bone1", -1}, Node{"bone2", 0}};
    base.nodes[1].translation = {1, 0, 0};
    Clip run;
    run.name = "run";
    run.duration = 1.0f;
    run.channels.push_back(
        Channel{1, ChannelPath::Translation, Interpolation::Linear, {0.0f}, {glm::vec4(0, 0, 5, 0)}});
    base.clips.push_back(run);
    ASSERT_TRUE(nwnFormat().write(base, dir.path / "BASE.mdl"));

    HeapMeshAllocator allocator;
    Result<Model> model = loadFile(dir.path / "skinny.mdl", allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->skins.size(), 1u);
    const Mesh& body = model->meshes.at(0);
    ASSERT_TRUE(body.skinned());
    // Skin vertices are in the skin node's space (at z = 1); horde keeps them in model space.
    expectVec(body.arrays().positions[1], {1, 0, 1});
    std::vector<std::string> joints;
    for (uint32_t j : model->skins[0].joints)
        joints.push_back(model->nodes[j].name);
    EXPECT_EQ(joints, (std::vector<std::string>{"bone1", "bone2"}));
    EXPECT_EQ(body.arrays().weights[1], glm::vec4(0.5f, 0.5f, 0, 0));
    ASSERT_EQ(model->clips.size(), 2u);
    const Clip& run2 = model->clips[size_t(findClip(*model, "run"))];
    EXPECT_EQ(run2.source, "BASE.mdl");
    // Positions from the supermodel are scaled by the model's animation scale, 2.
    expectVec(glm::dvec3(sampleChannel(run2, run2.channels.at(0), 0.0)), {0, 0, 10});
    // "bend" turns bone2 (at (1, 0, 1)) by 90 degrees about Z: vertex 2 (0, 1, 1), all bone2's,
    // is (-1, 1, 0) from it and turns to (-1, -1, 0) from it.
    Playback bend;
    bend.clip = findClip(*model, "bend");
    bend.loop = false; // 1 s is the clip's end, not its start again
    std::vector<PosedMesh> posed = poseModel(*model, bend, 1.0);
    expectVec(posed[0].positions[2], {0, -1, 1});
}

TEST(NwnAscii, BinarySupermodelChainsIntoAscii) {
    TempDir dir;
    // A binary child whose supermodel is the ASCII skinny model (its own supermodel missing).
    Model child;
    child.axes.up = Axes::Up::Z;
    child.nodes = {Node{"bone1", -1}, Node{"bone2", 0}};
    ASSERT_TRUE(nwnFormat().write(child, dir.path / "child.mdl"));
    {
        std::fstream f(dir.path / "child.mdl", std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(12 + 0xA8);
        char text[64] = "Skinny";
        f.write(text, 64);
    }
    save(dir.path / "skinny.mdl", seed("skinny.mdl"));
    HeapMeshAllocator allocator;
    Result<Model> model = loadFile(dir.path / "child.mdl", allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(findClip(*model, "bend") >= 0, true);
    EXPECT_EQ(model->clips[size_t(findClip(*model, "bend"))].source, "skinny.mdl");
    // The same ASCII file as an --anim file of a binary model.
    ASSERT_TRUE(nwnFormat().write(child, dir.path / "plain.mdl"));
    LoadOptions options;
    options.anims = {dir.path / "skinny.mdl"};
    Result<Model> bound = loadFile(dir.path / "plain.mdl", allocator, options);
    ASSERT_TRUE(bound) << bound.error().message;
    ASSERT_EQ(bound->clips.size(), 1u);
    EXPECT_EQ(bound->clips[0].name, "bend");
    EXPECT_EQ(bound->clips[0].source, "skinny.mdl");
}

TEST(NwnAscii, AsciiBinaryAsciiPosesTheSame) {
    for (const char* name : {"tiny.mdl", "skinny.mdl"}) {
        SCOPED_TRACE(name);
        TempDir dir;
        save(dir.path / name, seed(name));
        HeapMeshAllocator allocator;
        Result<Model> ascii = loadFile(dir.path / name, allocator);
        ASSERT_TRUE(ascii) << ascii.error().message;
        ASSERT_TRUE(nwnFormat().write(*ascii, dir.path / "binary.mdl"));
        Result<Model> binary = loadFile(dir.path / "binary.mdl", allocator);
        ASSERT_TRUE(binary) << binary.error().message;
        EXPECT_EQ(binary->format, "nwn");
        expectSamePoses(*ascii, *binary);
        ASSERT_TRUE(nwnAsciiFormat().write(*binary, dir.path / "again.mdl"));
        Result<Model> again = loadFile(dir.path / "again.mdl", allocator);
        ASSERT_TRUE(again) << again.error().message;
        EXPECT_EQ(again->format, "nwn-ascii");
        expectSamePoses(*ascii, *again);
    }
}

TEST(NwnAscii, MonsterRoundTripsKeepingVertexOrder) {
    HeapMeshAllocator allocator;
    Model source = buildMonster(allocator);
    // The format's scale is one float: drop the scale channels with unequal axes (as nwn_test).
    for (Clip& clip : source.clips)
        std::erase_if(clip.channels, [](const Channel& c) {
            if (c.path != ChannelPath::Scale) return false;
            for (glm::vec4 v : c.values)
                if (v.x != v.y || v.x != v.z) return true;
            return false;
        });
    TempDir dir;
    ASSERT_TRUE(nwnAsciiFormat().write(source, dir.path / "m.mdl"));
    Result<Model> loaded = loadFile(dir.path / "m.mdl", allocator);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_TRUE(test::withoutMissingTextures(loaded->warnings).empty()) << loaded->warnings.front();
    ASSERT_TRUE(nwnAsciiFormat().write(*loaded, dir.path / "m2.mdl"));
    Result<Model> again = loadFile(dir.path / "m2.mdl", allocator);
    ASSERT_TRUE(again) << again.error().message;
    // Written one vertex per position: read back in the same order, vertex for vertex.
    ASSERT_EQ(loaded->meshes.size(), again->meshes.size());
    for (size_t m = 0; m < loaded->meshes.size(); ++m) {
        ASSERT_EQ(loaded->meshes[m].vertexCount(), again->meshes[m].vertexCount());
        for (size_t v = 0; v < loaded->meshes[m].vertexCount(); ++v) {
            ASSERT_EQ(loaded->meshes[m].arrays().positions[v], again->meshes[m].arrays().positions[v]);
            // Normals are normalized again as they are read: within rounding.
            ASSERT_LT(
                glm::length(loaded->meshes[m].arrays().normals[v] - again->meshes[m].arrays().normals[v]),
                1e-6f);
        }
    }
    expectSamePoses(*loaded, *again);
    // Against the source, through the axis change (Y up -> Z up): corners of the bind pose.
    std::vector<glm::dvec3> x = corners(source, Playback{}, 0.0), y = corners(*loaded, Playback{}, 0.0);
    ASSERT_EQ(x.size(), y.size());
    for (size_t i = 0; i < x.size(); ++i)
        ASSERT_LT(glm::length(x[i] - glm::dvec3(y[i].x, y[i].z, -y[i].y)), 1e-4) << i;
}

TEST(NwnAscii, CrlfTabsAndCommentsReadTheSame) {
    std::string text = seed("tiny.mdl"), crlf;
    for (char c : text) {
        if (c == '\n')
            crlf += "   # trailing comment\r\n";
        else if (c == ' ')
            crlf += "\t";
        else
            crlf += c;
    }
    HeapMeshAllocator allocator;
    Result<Model> a = parse(text, allocator), b = parse(crlf, allocator);
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_TRUE(b) << b.error().message;
    expectSamePoses(*a, *b, 0.0);
}

TEST(NwnAscii, HostileTextFailsNamingLineAndColumn) {
    const std::string tiny = seed("tiny.mdl");
    expectFails(replaced(tiny, "position 1 2 3", "position 1 x2 3"),
                "line 14, column 14: position: 'x2' is not a number");
    expectFails(replaced(tiny, "position 1 2 3", "position nan 2 3"), "not finite");
    expectFails(replaced(tiny, "position 1 2 3", "position 1e99 2 3"), "out of range");
    expectFails(replaced(tiny, "position 1 2 3", "position 1 2 3 4"), "unexpected '4'");
    expectFails(replaced(tiny, "position 1 2 3", "position 1 2"), "expected a number");
    expectFails(replaced(tiny, "position 1 2 3", "position 1 2\xC3\xA9 3"), "'2\\xC3\\xA9' is not a number");
    expectFails(replaced(tiny, "verts 4", "verts 5"), "verts: 'tverts' is not a number"); // a count that lies
    expectFails(replaced(tiny, "verts 4", "verts 4000000000"), "cannot fit");
    expectFails(replaced(tiny, "colors 4\n    1 1 1\n", "colors 3\n"),
                "colors: node 'tri': 3 rows for 4 verts");
    expectFails(replaced(tiny, "verts 4", "verts 99999999999"), "out of range");
    expectFails(replaced(tiny, "2 1 3  1  4 1 3", "2 1 7  1  4 1 3"), "face 1 uses position 7 of 4 verts");
    expectFails(replaced(tiny, "2 1 3  1  4 1 3", "2 1 3  1  4 1 9"),
                "face 1 uses texture vertex 9 of 5 tverts");
    expectFails(replaced(tiny, "  parent arm", "  parent leg"),
                "line 13, column 10: parent: 'leg' names no node");
    expectFails(replaced(tiny, "node dummy arm\n  parent tiny", "node dummy arm\n  parent tri"),
                "cycle of parents");
    expectFails(replaced(tiny, "node dummy arm\n  parent tiny", "node dummy arm\n  parent arm"),
                "cycle of parents");
    expectFails(replaced(tiny, "2 1 3  1  4 1 3", "2 1 3  4294967296  4 1 3"), "is not a 32-bit integer");
    expectFails(replaced(tiny, "    0 1 2  1  0 1 2  0\n    2 1 3  1  4 1 3  0\nendnode\n",
                         "    0 1 2  1  0 1 2  0\n    2 1 3  1  4 1 3  0\n"),
                "is not closed before 'node'");
    expectFails(replaced(tiny, "doneanim wave tiny\n", ""),
                "animation 'wave' (line 95) is not closed before 'donemodel'");
    expectFails(replaced(tiny, "donemodel tiny\n", ""), "ends before donemodel");
    expectFails(replaced(tiny, "donemodel tiny", "donemodel other"), "'other' closes model 'tiny'");
    expectFails(replaced(tiny, "      2 0 0 3", "      -1 0 0 3"), "key times decrease");
    expectFails(replaced(tiny, "    endlist\n", ""),
                "orientationkey: 'scalekey' is not a number"); // no end to the list
    const std::string skinny = seed("skinny.mdl");
    HeapMeshAllocator allocator;
    Result<Model> bad = parse(replaced(skinny, "bone2 1\n", "bone3 1\n"), allocator, "skinny.mdl");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("bone 'bone3' names no node"), std::string::npos)
        << bad.error().message;
    bad = parse(replaced(skinny, "bone2 1\n", "a 1 b 1 c 1 d 1 e 1\n"), allocator, "skinny.mdl");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("more than four"), std::string::npos) << bad.error().message;
    bad = parse(replaced(skinny, "weights 3", "weights 2"), allocator, "skinny.mdl");
    ASSERT_FALSE(bad);
}

TEST(NwnAscii, QuirksOfRealFilesAreRead) {
    std::string text = seed("tiny.mdl");
    text = replaced(text, "node patch spot", "node pwk spot"); // a placeable walkmesh node
    text = replaced(text, "2 1 3  1  4 1 3  0",
                    "2 1 3  -2147483648  4 1 3  0"); // smoothing groups written signed
    text = replaced(text, "  birthrate 10\n", "  birthrate 10\n  detonatekey 1\n\n"); // a count and no rows
    // A dummy with the name of the mesh it hangs from.
    text = replaced(text, "endmodelgeom tiny", "node dummy tri\n  parent tri\nendnode\nendmodelgeom tiny");
    HeapMeshAllocator allocator;
    Result<Model> model = parse(text, allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->nodes.size(), 10u);
    EXPECT_EQ(model->nodes[3].name, "tri");
    EXPECT_EQ(model->nodes[3].parent, 2);
    ASSERT_EQ(model->warnings.size(), 1u);
    EXPECT_NE(model->warnings[0].find("shares its name"), std::string::npos) << model->warnings[0];
    EXPECT_EQ(model->meshes.at(0).vertexCount(), 6u); // the second face's smoothing group differs now
    bool reported = false;
    for (const Extra& e : model->extras)
        reported |= e.kind == "node type" && e.node == "spot";
    EXPECT_TRUE(reported);
}

TEST(NwnAscii, LongLinesAndStrayBytesAreReadPast) {
    std::string tiny = seed("tiny.mdl");
    std::string junk(1 << 20, 'x');
    junk[1000] = '\0';
    junk[2000] = '\xFF';
    std::string text = replaced(tiny, "  ambient 0.2 0.2 0.2", "  ambient " + junk + "\n# " + junk);
    HeapMeshAllocator allocator;
    Result<Model> model = parse(text, allocator);
    ASSERT_TRUE(model) << model.error().message;
    EXPECT_EQ(model->meshes.size(), 2u);
}

TEST(NwnAscii, EveryTruncationFailsCleanly) {
    for (const char* name : {"tiny.mdl", "skinny.mdl"}) {
        const std::string text = seed(name);
        std::vector<size_t> cuts;
        for (size_t begin = 0; begin < text.size();) {
            size_t end = std::min(text.find('\n', begin), text.size());
            cuts.push_back(begin);
            cuts.push_back((begin + end) / 2);
            begin = end + 1;
        }
        for (size_t cut : cuts) {
            // Each cut in its own allocation, so the address sanitizer sees a read past its end.
            std::vector<char> copy(text.begin(), text.begin() + std::ptrdiff_t(cut));
            HeapMeshAllocator allocator;
            Result<Model> model =
                nwnAsciiFormat().readModel(name, std::as_bytes(std::span(copy)), {}, allocator);
            EXPECT_FALSE(model) << cut << " bytes of " << name << " loaded";
            if (!model && cut > 0) { // an empty file is not text: the binary header is missing
                EXPECT_EQ(model.error().message.rfind(std::string(name) + ": line ", 0), 0u)
                    << model.error().message;
            }
        }
    }
}
