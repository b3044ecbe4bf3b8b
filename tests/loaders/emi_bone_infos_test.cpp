// EMI bone infos at scale: thousands of vertices of every shape (one to four influences in and
// out of order, crowded vertices, weightless and non-finite weights, bones the skeleton lacks,
// a vertex longer than a whole chunk of entries, vertices no entry reaches), checked bit for bit
// against strongestFour over each vertex's influences; and errors deep in the list named at
// their own byte.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>

#include "model/influences.h"
#include "loader.h"
#include "support/bytes.h"
#include "support/temp_dir.h"

using namespace horde;
using horde::test::Bytes;

namespace {

constexpr uint32_t kJoints = 40;
constexpr uint32_t kGhost = 5; // the mesh's bone list names "ghost" here; the skeleton has no such joint

Bytes& str(Bytes& b, const std::string& s) { return b.u32(uint32_t(s.size() + 1)).text(s).u8(0); }

// Joints j0..j39, each under j0, in the bind pose of their file.
Bytes skeleton() {
    Bytes b;
    b.u32(kJoints);
    for (uint32_t j = 0; j < kJoints; ++j) {
        const std::string name = "j" + std::to_string(j), parent = j == 0 ? "" : "j0";
        b.text(name).zeros(32 - name.size()).text(parent).zeros(32 - parent.size());
        b.f32(float(j)).f32(0).f32(0).f32(0).f32(0).f32(0).f32(1);
    }
    return b;
}

struct Entry {
    uint32_t increment, bone;
    float weight;
};

// One face over the first three vertices; the mesh's bone list is the skeleton's joints with
// "ghost" inserted at kGhost.
Bytes mesh(uint32_t vertices, const std::vector<Entry>& entries, size_t& entriesAt) {
    Bytes b;
    str(b, "crowd");
    b.f32(1).f32(0).f32(0).f32(0).f32(0).f32(0).f32(0).f32(0).f32(0).f32(0);
    b.u32(1).u32(0).u32(0);
    b.u32(19).u32(vertices);
    for (uint32_t v = 0; v < vertices; ++v) b.f32(float(v)).f32(0).f32(0);
    for (uint32_t v = 0; v < vertices; ++v) b.f32(0).f32(0).f32(1);
    for (uint32_t v = 0; v < vertices; ++v) b.u32(0xFFFFFFFFu);
    for (uint32_t v = 0; v < vertices; ++v) b.f32(0).f32(0);
    b.u32(1).u32(0).u32(0).u32(3).u16(0).u16(1).u16(2);
    b.u32(1).u32(kJoints + 1);
    for (uint32_t bone = 0; bone <= kJoints; ++bone) str(b, bone == kGhost ? "ghost" : "J" + std::to_string(bone - (bone > kGhost)));
    b.u32(uint32_t(entries.size()));
    entriesAt = b.size();
    for (const Entry& e : entries) b.u32(e.increment).u32(e.bone).f32(e.weight);
    return b;
}

// The entries of each vertex as the format groups them.
std::vector<std::vector<Entry>> byVertex(const std::vector<Entry>& entries, uint32_t vertices) {
    std::vector<std::vector<Entry>> out(vertices);
    int64_t v = -1;
    for (const Entry& e : entries) {
        v += e.increment == 1;
        out[size_t(v)].push_back(e);
    }
    return out;
}

std::vector<Entry> randomEntries(uint32_t vertices, uint32_t reached, std::mt19937& random) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::uniform_real_distribution<float> weight(0.0f, 1.0f);
    std::uniform_int_distribution<uint32_t> bone(0, kJoints), pick(0, 99);
    std::vector<Entry> entries;
    for (uint32_t v = 0; v < reached; ++v) {
        const uint32_t shape = pick(random);
        uint32_t count = 1 + pick(random) % 4;
        if (shape < 8) count = 5 + pick(random) % 4; // crowded
        if (v == vertices / 2) count = 700;         // longer than a chunk of entries
        std::vector<float> w(count);
        for (float& x : w) x = weight(random);
        if (shape >= 8 && shape < 69) std::sort(w.begin(), w.end(), std::greater<>()); // as skinning tools write them
        if (shape >= 60 && shape < 64) w[pick(random) % count] = 0.0f;
        if (shape == 64) w[pick(random) % count] = -0.25f;
        if (shape == 65) w[pick(random) % count] = nan;
        if (shape == 66) w[pick(random) % count] = inf;
        if (shape == 67) std::fill(w.begin(), w.end(), 0.0f);
        if (shape == 68) w[count - 1] = -0.0f;
        for (uint32_t k = 0; k < count; ++k) {
            const uint32_t increment = k == 0 ? 1 : (shape == 69 ? 7 : 0); // 7 stays on the vertex, as any non-1 does
            entries.push_back({increment, shape == 70 ? kGhost : bone(random), w[k]});
        }
    }
    return entries;
}

Result<Model> load(const Bytes& bytes, const horde::test::TempDir& files) {
    LoadOptions options;
    options.skeleton = files.put("crowd.sklb", skeleton());
    HeapMeshAllocator heap;
    return emiFormat().readModel("crowd.meshb", bytes.span(), options, heap);
}

bool sameBits(glm::vec4 a, glm::vec4 b) { return std::memcmp(&a, &b, sizeof a) == 0; }

} // namespace

TEST(EmiBoneInfos, EveryVertexIsTheGeneralSelectionBitForBit) {
    const horde::test::TempDir files("horde_emi_infos");
    std::mt19937 random(7);
    for (uint32_t vertices : {3u, 17u, 1203u, 4099u}) {
        const uint32_t reached = vertices - vertices / 50; // the last few have no entry
        const std::vector<Entry> entries = randomEntries(vertices, reached, random);
        size_t entriesAt = 0;
        Result<Model> model = load(mesh(vertices, entries, entriesAt), files);
        ASSERT_TRUE(model) << model.error().message;
        const MeshArrays& a = model->meshes[0].arrays();

        uint32_t reduced = 0, unbound = 0;
        const std::vector<std::vector<Entry>> groups = byVertex(entries, vertices);
        for (uint32_t v = 0; v < vertices; ++v) {
            std::vector<Influence> influences;
            for (const Entry& e : groups[v])
                if (e.bone != kGhost) influences.push_back({e.bone - (e.bone > kGhost), e.weight}); // skin joints skip the ghost
            const FourInfluences expected = strongestFour(influences);
            reduced += expected.dropped > 0;
            unbound += expected.weights.x == 0.0f;
            ASSERT_EQ(a.joints[v], expected.joints) << vertices << " vertices, vertex " << v;
            ASSERT_TRUE(sameBits(a.weights[v], expected.weights)) << vertices << " vertices, vertex " << v;
        }
        auto warning = [&](const std::string& text) {
            for (const std::string& w : model->warnings)
                if (w.find(text) != std::string::npos) return w;
            return std::string();
        };
        const std::string crowded = warning("vertices had more than four influences"), weightless = warning("vertices have no bone influence");
        EXPECT_EQ(crowded.empty() ? 0u : std::stoul(crowded), reduced) << vertices;
        EXPECT_EQ(weightless.empty() ? 0u : std::stoul(weightless), unbound) << vertices;
        EXPECT_NE(warning("'ghost'"), "");
    }
}

TEST(EmiBoneInfos, AnErrorDeepInTheListIsNamedAtItsByte) {
    const horde::test::TempDir files("horde_emi_infos");
    std::mt19937 random(11);
    const uint32_t vertices = 2000;
    std::vector<Entry> entries = randomEntries(vertices, vertices, random);
    size_t entriesAt = 0;
    {
        std::vector<Entry> bad = entries;
        bad[3001].bone = kJoints + 1; // one past the mesh's bone list
        Result<Model> model = load(mesh(vertices, bad, entriesAt), files);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("offset " + std::to_string(entriesAt + 12 * 3001 + 4) + " "), std::string::npos)
            << model.error().message;
        EXPECT_NE(model.error().message.find("bone info joint: 41 is past the bone count 41"), std::string::npos) << model.error().message;
    }
    {
        // The last entry, which is split on its own when the count is not a multiple of eight.
        std::vector<Entry> bad = entries;
        if (bad.size() % 8 == 0) bad.push_back({0, 0, 0.5f});
        bad.back().bone = 50;
        Result<Model> model = load(mesh(vertices, bad, entriesAt), files);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("offset " + std::to_string(entriesAt + 12 * (bad.size() - 1) + 4) + " "), std::string::npos)
            << model.error().message;
    }
    {
        std::vector<Entry> bad = entries;
        bad.push_back({1, 0, 1.0f}); // opens vertex 2000 of 2000
        Result<Model> model = load(mesh(vertices, bad, entriesAt), files);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("offset " + std::to_string(entriesAt + 12 * (bad.size() - 1)) + " "), std::string::npos)
            << model.error().message;
        EXPECT_NE(model.error().message.find("moves past the last vertex (2000 vertices)"), std::string::npos) << model.error().message;
    }
    {
        // A joint past the bones before, in the same chunk, a vertex past the last: the first is named.
        std::vector<Entry> bad(entries.begin(), entries.begin() + 100);
        const uint32_t opened = uint32_t(std::count_if(bad.begin(), bad.end(), [](const Entry& e) { return e.increment == 1; }));
        bad[40].bone = 99;
        Result<Model> model = load(mesh(opened - 1, bad, entriesAt), files);
        ASSERT_FALSE(model);
        EXPECT_NE(model.error().message.find("offset " + std::to_string(entriesAt + 12 * 40 + 4) + " "), std::string::npos)
            << model.error().message;
    }
}
