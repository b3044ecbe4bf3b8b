// NWN per-vertex attributes and what the writers keep: danglymesh constraints and vertex colours
// through the vertex split and both encodings, source node names, and cubic rotation curves the
// ASCII writer resamples (values computed by hand or by the CPU reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "anim/reference.h"
#include "loader.h"
#include "monster.h"
#include "nwn/nwn.h"

using namespace horde;

namespace {
// Four positions, five texture vertices: position 0 is used with texture vertices 0 and 4, so the
// split gives it two vertices. Vertex order (docs/formats/nwn.md): by position, then first use:
// v0 = (p0, t0), v1 = (p0, t4), v2 = p1, v3 = p2, v4 = p3.
const char* kDangly = R"(newmodel dang
setsupermodel dang NULL
beginmodelgeom dang
node dummy dang
  parent NULL
endnode
node danglymesh cape
  parent dang
  displacement 0.25
  tightness 3
  period 1.5
  bitmap NULL
  verts 4
    0 0 0
    1 0 0
    1 1 0
    0 1 0
  tverts 5
    0 0 0
    1 0 0
    1 1 0
    0 1 0
    0.5 0.5 0
  faces 2
    0 1 2  1  0 1 2  0
    0 2 3  1  4 2 3  0
  constraints 4
    10
    20
    30
    40
  colors 4
    1 0 0
    0 1 0
    0 0 1
    0.2 0.4 1.5
endnode
endmodelgeom dang
donemodel dang
)";

struct TempDir {
    std::filesystem::path path;
    TempDir() {
        path = std::filesystem::temp_directory_path() /
               ("horde_nwn_attributes_" + std::to_string(reinterpret_cast<uintptr_t>(this)));
        std::filesystem::create_directories(path);
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

std::string read(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

Result<Model> parse(const std::string& text, HeapMeshAllocator& allocator) {
    return nwnAsciiFormat().readModel("dang.mdl", std::as_bytes(std::span(text.data(), text.size())), {},
                                      allocator);
}

Result<Model> saveAndLoad(const std::filesystem::path& path, const std::string& text, HeapMeshAllocator& allocator) {
    std::ofstream(path, std::ios::binary) << text;
    return loadModel(path, {}, allocator);
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

// 1-based line of the first occurrence of `what`.
size_t lineOf(const std::string& text, const std::string& what) {
    return size_t(std::count(text.begin(), text.begin() + std::ptrdiff_t(text.find(what)), '\n')) + 1;
}

// The constraint and colour of each vertex, keyed by its position and texture vertex (the
// encodings may order vertices differently).
struct Corner {
    float constraint;
    glm::vec4 colour;
};
std::map<std::tuple<float, float, float, float>, Corner> byCorner(const Mesh& mesh) {
    std::map<std::tuple<float, float, float, float>, Corner> out;
    for (size_t v = 0; v < mesh.vertexCount(); ++v) {
        glm::vec3 p = mesh.arrays().positions[v];
        glm::vec2 t = mesh.arrays().uv0[v];
        out[{p.x, p.y, t.x, t.y}] = {mesh.dangly->constraints[v], mesh.arrays().colors[v]};
    }
    return out;
}

// What 8-bit storage keeps of a colour channel: round(c * 255) / 255, in double.
double byte(double c) {
    return std::round(c * 255.0) / 255.0;
}
} // namespace

TEST(NwnAttributes, DanglyConstraintsAndColoursFollowTheVertexSplit) {
    HeapMeshAllocator allocator;
    Result<Model> model = parse(kDangly, allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->meshes.size(), 1u);
    const Mesh& cape = model->meshes[0];
    ASSERT_EQ(cape.vertexCount(), 5u);
    ASSERT_TRUE(cape.dangly.has_value());
    EXPECT_EQ(cape.dangly->constraints, (std::vector<float>{10, 10, 20, 30, 40}));
    EXPECT_EQ(cape.dangly->displacement, 0.25f);
    EXPECT_EQ(cape.dangly->tightness, 3.0f);
    EXPECT_EQ(cape.dangly->period, 1.5f);
    ASSERT_TRUE(cape.layout().colors);
    const std::vector<glm::vec4> colours{{1, 0, 0, 1}, {1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {0.2f, 0.4f, 1, 1}};
    for (size_t v = 0; v < 5; ++v) EXPECT_EQ(cape.arrays().colors[v], colours[v]) << v; // 1.5 is clamped to 1
    EXPECT_EQ(cape.arrays().uv0[1], glm::vec2(0.5f, 0.5f));
}

TEST(NwnAttributes, AsciiBinaryAsciiKeepsConstraintsAndColours) {
    TempDir dir;
    HeapMeshAllocator allocator;
    Result<Model> ascii = saveAndLoad(dir.path / "dang.mdl", kDangly, allocator);
    ASSERT_TRUE(ascii) << ascii.error().message;
    ASSERT_TRUE(nwnFormat().write(*ascii, dir.path / "binary.mdl"));
    Result<Model> binary = loadModel(dir.path / "binary.mdl", {}, allocator);
    ASSERT_TRUE(binary) << binary.error().message;
    ASSERT_TRUE(nwnAsciiFormat().write(*binary, dir.path / "again.mdl"));
    const std::string text = read(dir.path / "again.mdl");
    EXPECT_NE(text.find("node danglymesh cape"), std::string::npos) << text;
    EXPECT_NE(text.find("constraints 5"), std::string::npos) << text;
    EXPECT_NE(text.find("colors 5"), std::string::npos) << text;
    Result<Model> again = loadModel(dir.path / "again.mdl", {}, allocator);
    ASSERT_TRUE(again) << again.error().message;
    // Hand-written values per corner (position x, y; texture u, v).
    const std::map<std::tuple<float, float, float, float>, Corner> expected{
        {{0, 0, 0, 0}, {10, {1, 0, 0, 1}}},      {{0, 0, 0.5f, 0.5f}, {10, {1, 0, 0, 1}}},
        {{1, 0, 1, 0}, {20, {0, 1, 0, 1}}},      {{1, 1, 1, 1}, {30, {0, 0, 1, 1}}},
        {{0, 1, 0, 1}, {40, {0.2f, 0.4f, 1, 1}}}};
    for (const Model* m : {&*binary, &*again}) {
        ASSERT_EQ(m->meshes.size(), 1u);
        const Mesh& cape = m->meshes[0];
        ASSERT_TRUE(cape.dangly.has_value());
        EXPECT_EQ(cape.dangly->displacement, 0.25f);
        EXPECT_EQ(cape.dangly->tightness, 3.0f);
        EXPECT_EQ(cape.dangly->period, 1.5f);
        auto got = byCorner(cape);
        ASSERT_EQ(got.size(), expected.size());
        for (const auto& [key, want] : expected) {
            ASSERT_TRUE(got.count(key));
            EXPECT_EQ(got[key].constraint, want.constraint);
            // The binary colour array is 8 bits per channel (R, G, B, A bytes).
            for (int k = 0; k < 4; ++k) EXPECT_NEAR(got[key].colour[k], byte(want.colour[k]), 1e-7) << k;
        }
    }
}

TEST(NwnAttributes, ConstraintCountsThatLieFailNamingLineAndColumn) {
    HeapMeshAllocator allocator;
    // Five rows announced, four given: the next keyword comes too soon.
    std::string more = replaced(kDangly, "constraints 4", "constraints 5");
    Result<Model> a = parse(more, allocator);
    ASSERT_FALSE(a);
    EXPECT_EQ(a.error().message.rfind("dang.mdl: line ", 0), 0u) << a.error().message;
    EXPECT_NE(a.error().message.find("constraints"), std::string::npos) << a.error().message;
    // Three honest rows for four positions: the constraints line, at its count.
    std::string fewer = replaced(replaced(kDangly, "constraints 4", "constraints 3"), "    40\n", "");
    Result<Model> b = parse(fewer, allocator);
    ASSERT_FALSE(b);
    const std::string at = "dang.mdl: line " + std::to_string(lineOf(fewer, "constraints 3")) + ", column 15: constraints";
    EXPECT_EQ(b.error().message.rfind(at, 0), 0u) << b.error().message;
    EXPECT_NE(b.error().message.find("3 rows for 4 verts"), std::string::npos) << b.error().message;
    // The same for colours.
    std::string colours = replaced(replaced(kDangly, "colors 4", "colors 3"), "    0.2 0.4 1.5\n", "");
    Result<Model> c = parse(colours, allocator);
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("line " + std::to_string(lineOf(colours, "colors 3")) + ", column 10: colors"),
              std::string::npos)
        << c.error().message;
}

TEST(NwnAttributes, WritersKeepSourceNodeNames) {
    TempDir dir;
    HeapMeshAllocator allocator;
    Result<Model> ascii = saveAndLoad(dir.path / "dang.mdl", kDangly, allocator);
    ASSERT_TRUE(ascii) << ascii.error().message;
    for (const Format* f : {&nwnFormat(), &nwnAsciiFormat()}) {
        SCOPED_TRACE(f->id);
        ASSERT_TRUE(f->write(*ascii, dir.path / "out.mdl"));
        Result<Model> back = loadModel(dir.path / "out.mdl", {}, allocator);
        ASSERT_TRUE(back) << back.error().message;
        std::vector<std::string> names;
        for (const Node& n : back->nodes) names.push_back(n.name);
        // The model's root, named after the file, then the source's nodes as they were.
        EXPECT_EQ(names, (std::vector<std::string>{"out", "dang", "cape"}));
        ASSERT_EQ(back->meshes.size(), 1u);
        EXPECT_EQ(back->meshes[0].name, "cape");
        EXPECT_EQ(back->meshes[0].node, 2u);
    }
    // The monster's one mesh has three materials (and more bones than one skin node's table
    // holds): its node carries the first piece, the others hang under it as "<node>_1",
    // "<node>_2", ... (one material, at most 17 bones per mesh node).
    Model monster = buildMonster(allocator);
    ASSERT_EQ(monster.meshes.size(), 1u);
    ASSERT_EQ(monster.meshes[0].submeshes.size(), 3u);
    for (Clip& clip : monster.clips) // the format's scale is one float
        std::erase_if(clip.channels, [](const Channel& c) { return c.path == ChannelPath::Scale; });
    const std::string holder = monster.nodes[monster.meshes[0].node].name;
    ASSERT_TRUE(nwnFormat().write(monster, dir.path / "m.mdl"));
    Result<Model> back = loadModel(dir.path / "m.mdl", {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const size_t pieces = back->meshes.size();
    ASSERT_GE(pieces, 3u);
    ASSERT_EQ(back->nodes.size(), monster.nodes.size() + pieces);
    EXPECT_EQ(back->nodes[0].name, "m");
    const int32_t host = findNode(*back, holder);
    ASSERT_GE(host, 0);
    std::set<std::string> materials;
    for (size_t k = 0; k < pieces; ++k) {
        const Mesh& piece = back->meshes[k];
        const Node& node = back->nodes[piece.node];
        ASSERT_EQ(piece.submeshes.size(), 1u);
        materials.insert(piece.submeshes[0].material);
        if (piece.node == uint32_t(host)) continue;
        EXPECT_EQ(node.parent, host) << node.name;
        EXPECT_EQ(node.name.rfind(holder.substr(0, 26) + "_", 0), 0u) << node.name;
    }
    EXPECT_EQ(materials, (std::set<std::string>{"hide", "legs", "bone"}));
    // Every source node keeps its name and its parent's name.
    for (const Node& n : monster.nodes) {
        const int32_t b = findNode(*back, n.name);
        ASSERT_GE(b, 0) << n.name;
        const Node& m = back->nodes[size_t(b)];
        EXPECT_EQ(m.parent < 1 ? std::string() : back->nodes[size_t(m.parent)].name,
                  n.parent < 0 ? std::string() : monster.nodes[size_t(n.parent)].name)
            << n.name;
    }
}

// Names repeat in the game's own files (c_mindflayer hangs a skin mesh named 'head' from a dummy
// named 'head'); the format binds animations by name, to the first node of a name. Both writers
// write such a model as it is, the animation on the node it bound to, and refuse only what the
// format cannot hold: a clip keying a later node of a repeated name.
const char* kRepeated = R"(newmodel dup
setsupermodel dup NULL
beginmodelgeom dup
node dummy dup
  parent NULL
endnode
node dummy head
  parent dup
  position 0 0 1
endnode
node trimesh head
  parent head
  bitmap NULL
  verts 3
    0 0 0
    1 0 0
    0 1 0
  tverts 3
    0 0 0
    1 0 0
    0 1 0
  faces 1
    0 1 2  1  0 1 2  0
endnode
endmodelgeom dup
newanim nod dup
  length 1
  transtime 0.25
  animroot dup
  node dummy dup
    parent NULL
  endnode
  node dummy head
    parent dup
    orientationkey 2
      0 1 0 0 0
      1 1 0 0 1.5
  endnode
doneanim nod dup
donemodel dup
)";

TEST(NwnAttributes, WritersKeepRepeatedNamesAndBindAnimationsToTheFirst) {
    TempDir dir;
    HeapMeshAllocator allocator;
    Result<Model> source = saveAndLoad(dir.path / "dup.mdl", kRepeated, allocator);
    ASSERT_TRUE(source) << source.error().message;
    // The text as read: the dummy first, the mesh under it; the clip keys the dummy.
    ASSERT_EQ(source->nodes.size(), 3u);
    EXPECT_EQ(source->nodes[2].parent, 1);
    ASSERT_EQ(source->clips.size(), 1u);
    ASSERT_EQ(source->clips[0].channels.size(), 1u);
    EXPECT_EQ(source->clips[0].channels[0].node, 1u);
    for (const Format* f : {&nwnFormat(), &nwnAsciiFormat()}) {
        SCOPED_TRACE(f->id);
        const std::filesystem::path out = dir.path / "out.mdl";
        Result<Companions> written = f->write(*source, out);
        ASSERT_TRUE(written) << written.error().message;
        if (f == &nwnAsciiFormat()) {
            EXPECT_NE(read(out).find("node trimesh head\n  parent head\n"), std::string::npos) << read(out);
        }
        Result<Model> back = loadModel(out, {}, allocator);
        ASSERT_TRUE(back) << back.error().message;
        std::vector<std::pair<std::string, int32_t>> tree;
        for (const Node& n : back->nodes)
            tree.emplace_back(n.name, n.parent);
        EXPECT_EQ(tree, (std::vector<std::pair<std::string, int32_t>>{
                            {"out", -1}, {"dup", 0}, {"head", 1}, {"head", 2}}));
        ASSERT_EQ(back->meshes.size(), 1u);
        EXPECT_EQ(back->meshes[0].node, 3u);
        ASSERT_EQ(back->clips.size(), 1u);
        ASSERT_EQ(back->clips[0].channels.size(), 1u);
        EXPECT_EQ(back->clips[0].channels[0].node, 2u) << "the dummy, the first node named 'head'";
        // 1.5 rad about x, halfway: 0.75 rad.
        const glm::vec4 half = sampleChannel(back->clips[0], back->clips[0].channels[0], 0.5);
        EXPECT_NEAR(std::abs(half.x), std::sin(0.375), 1e-5);
        EXPECT_NEAR(std::abs(half.w), std::cos(0.375), 1e-5);
    }
    // A clip keying the mesh, the second 'head': the game would animate the dummy instead.
    source->clips[0].channels[0].node = 2;
    for (const Format* f : {&nwnFormat(), &nwnAsciiFormat()}) {
        Result<Companions> refused = f->write(*source, dir.path / "no.mdl");
        ASSERT_FALSE(refused) << f->id;
        EXPECT_NE(refused.error().message.find(
                      "clip 'nod' keys a node named 'head' that is not the first of that name"),
                  std::string::npos)
            << refused.error().message;
    }
}

TEST(NwnAttributes, CubicRotationCurvesAreWrittenWithinTheStatedBound) {
    TempDir dir;
    HeapMeshAllocator allocator;
    Result<Model> source = saveAndLoad(dir.path / "dang.mdl", kDangly, allocator);
    ASSERT_TRUE(source) << source.error().message;
    const uint32_t cape = uint32_t(findNode(*source, "cape"));
    // Tangents of any length (glTF CUBICSPLINE): control points off the unit sphere.
    const float s = std::sqrt(0.5f);
    Channel ch{cape, ChannelPath::Rotation, Interpolation::CubicSpline, {0.0f, 1.0f, 2.5f}, {}};
    ch.values = {{0, 0, 0, 0},       {0, 0, 0, 1},       {0, 0, 2.0f, 0.3f},     // identity, fast start
                 {0.6f, 0, 0.4f, -0.3f}, {0, 0, s, s},     {1.5f, 0, 0, -0.7f},   // 90 degrees about Z
                 {0.2f, 0.9f, 0, 0},   {0, 1, 0, 0},       {0, 0, 0, 0}};         // 180 degrees about Y
    Clip clip;
    clip.name = "sway";
    clip.duration = 2.5f;
    clip.channels.push_back(ch);
    // A curve whose control points are all unit quaternions stays a bezier curve (exact).
    Channel still{cape, ChannelPath::Rotation, Interpolation::CubicSpline, {0.0f, 2.5f}, {}};
    still.values = {{0, 0, 0, 0}, {0, 0, s, s}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, s, s}, {0, 0, 0, 0}};
    Clip hold;
    hold.name = "hold";
    hold.duration = 2.5f;
    hold.channels.push_back(still);
    source->clips = {clip, hold};
    EXPECT_FALSE(nwn::rotationBezierIsExact(ch));
    EXPECT_TRUE(nwn::rotationBezierIsExact(still));

    ASSERT_TRUE(nwnAsciiFormat().write(*source, dir.path / "out.mdl"));
    const std::string text = read(dir.path / "out.mdl");
    EXPECT_NE(text.find("orientationbezierkey 2"), std::string::npos) << "the unit curve stays exact";
    Result<Model> back = loadModel(dir.path / "out.mdl", {}, allocator);
    ASSERT_TRUE(back) << back.error().message;
    const Clip& sway = back->clips[size_t(findClip(*back, "sway"))];
    ASSERT_EQ(sway.channels.size(), 1u);
    const Channel& written = sway.channels[0];
    EXPECT_EQ(written.interpolation, Interpolation::Linear);
    EXPECT_GT(written.times.size(), 3u);
    // The source's key times are kept exactly.
    for (float t : ch.times) EXPECT_NE(std::find(written.times.begin(), written.times.end(), t), written.times.end()) << t;
    // The stated bound, plus the float rounding of writing axis-angle text (well under 1e-5 rad).
    double worst = 0.0;
    for (int i = 0; i <= 2000; ++i) {
        const double t = 2.5 * i / 2000.0;
        glm::dvec4 a = sampleChannel(clip, ch, t), b = sampleChannel(sway, written, t);
        worst = std::max(worst, 2.0 * std::acos(std::min(1.0, std::abs(glm::dot(a, b)))));
    }
    EXPECT_LE(worst, nwn::kResampleBound + 1e-5);
    EXPECT_GT(worst, 0.0);
    const Clip& held = back->clips[size_t(findClip(*back, "hold"))];
    for (double t : {0.0, 0.7, 1.9})
        EXPECT_NEAR(std::abs(glm::dot(sampleChannel(held, held.channels[0], t), sampleChannel(hold, still, t))), 1.0,
                    1e-6);
}

// The binary writer's bytes read at the offsets the spec gives (nwnexplorer's
// CNwnMdlDanglyMeshNode and mesh header), and the reader reading bytes patched by hand.
TEST(NwnAttributes, BinaryDanglyAndColourBytesSitWhereTheLayoutSays) {
    TempDir dir;
    HeapMeshAllocator allocator;
    Result<Model> ascii = saveAndLoad(dir.path / "dang.mdl", kDangly, allocator);
    ASSERT_TRUE(ascii) << ascii.error().message;
    ASSERT_TRUE(nwnFormat().write(*ascii, dir.path / "binary.mdl"));
    std::string bytes = read(dir.path / "binary.mdl");
    auto u32 = [&](size_t at) {
        uint32_t v;
        std::memcpy(&v, bytes.data() + at, 4);
        return v;
    };
    auto f32 = [&](size_t at) {
        float v;
        std::memcpy(&v, bytes.data() + at, 4);
        return v;
    };
    const size_t model = 12, raw = 12 + u32(4);
    const size_t node = bytes.find(std::string("cape\0", 5)) - 0x20; // the name is at node + 0x20
    ASSERT_EQ(u32(node + 0x6C), 0x121u);                              // header | mesh | dangly
    ASSERT_EQ(u32(node + 0x230) & 0xFFFF, 5u);                        // vertex count
    const uint32_t constraints = u32(node + 0x270);
    ASSERT_EQ(u32(node + 0x274), 5u);
    EXPECT_EQ(f32(node + 0x27C), 0.25f);
    EXPECT_EQ(f32(node + 0x280), 3.0f);
    EXPECT_EQ(f32(node + 0x284), 1.5f);
    // The writer numbers a piece's vertices in order of first use: v0, v2, v3 (face 0), v1, v4.
    const float wantConstraints[5] = {10, 20, 30, 10, 40};
    const uint8_t wantColours[5][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 0, 0, 255},
                                       {51, 102, 255, 255}}; // round(0.2 * 255) = 51, round(0.4 * 255) = 102
    const uint32_t colours = u32(node + 0x248);
    for (size_t v = 0; v < 5; ++v) {
        EXPECT_EQ(f32(model + constraints + 4 * v), wantConstraints[v]) << v;
        for (size_t k = 0; k < 4; ++k) EXPECT_EQ(uint8_t(bytes[raw + colours + 4 * v + k]), wantColours[v][k]) << v;
    }
    // Hand-patched bytes: a constraint and a colour byte read back as written.
    std::string patched = bytes;
    const float seven = 7.0f;
    std::memcpy(patched.data() + model + constraints + 4, &seven, 4);
    patched[raw + colours + 4 * 4 + 1] = char(0);
    auto bytesOf = [](const std::string& s) { return std::as_bytes(std::span(s.data(), s.size())); };
    Result<Model> edited = nwnFormat().readModel("edited.mdl", bytesOf(patched), {}, allocator);
    ASSERT_TRUE(edited) << edited.error().message;
    EXPECT_EQ(edited->meshes[0].dangly->constraints[1], 7.0f);
    EXPECT_EQ(edited->meshes[0].arrays().colors[4], glm::vec4(51 / 255.0f, 0, 1, 1));
    // A constraint count other than the vertex count fails naming the field and its byte.
    std::string lying = bytes;
    const uint32_t four = 4;
    std::memcpy(lying.data() + node + 0x274, &four, 4);
    Result<Model> bad = nwnFormat().readModel("lying.mdl", bytesOf(lying), {}, allocator);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("offset " + std::to_string(node + 0x274)), std::string::npos)
        << bad.error().message;
    EXPECT_NE(bad.error().message.find("dangly constraints: 4 constraints for 5 vertices"), std::string::npos)
        << bad.error().message;
}

// Inherited clips often key nodes a creature lacks (NWN's a_ba keys 'rhand' for skeletons without
// one): each clip names them, and the model gets one warning for all of them, not one a clip.
TEST(NwnAttributes, ClipsKeyingAbsentNodesMakeOneWarning) {
    std::string text = kRepeated;
    const std::string nod = text.substr(text.find("newanim nod dup"));
    std::string kick = nod;
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"newanim nod", "newanim kick"},
                                   {"doneanim nod", "doneanim kick"},
                                   {"node dummy head", "node dummy rhand"}})
        kick.replace(kick.find(from), from.size(), to);
    std::string wave = nod;
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"newanim nod", "newanim wave"},
                                   {"doneanim nod", "doneanim wave"},
                                   {"node dummy head", "node dummy lhand"}})
        wave.replace(wave.find(from), from.size(), to);
    text.insert(text.find("donemodel dup"), kick.substr(0, kick.find("donemodel")) + wave.substr(0, wave.find("donemodel")));
    TempDir dir;
    HeapMeshAllocator allocator;
    Result<Model> model = saveAndLoad(dir.path / "dup.mdl", text, allocator);
    ASSERT_TRUE(model) << model.error().message;
    ASSERT_EQ(model->clips.size(), 3u);
    EXPECT_TRUE(model->clips[0].absentNodes.empty());
    EXPECT_EQ(model->clips[1].absentNodes, (std::vector<std::string>{"rhand"}));
    EXPECT_EQ(model->clips[2].absentNodes, (std::vector<std::string>{"lhand"}));
    // After the repeated name's own warning, one line for both clips.
    ASSERT_EQ(model->warnings.size(), 2u);
    EXPECT_EQ(model->warnings[1], "2 of 3 clips key nodes the model lacks (rhand, lhand); those keys are not read "
                                  "(`--verbose` or `horde info` lists them by clip)");
}
