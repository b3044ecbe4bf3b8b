// `horde validate` on what conversions really break: a monster carrying two UV sets and tangents
// is exported to .glb, and each corruption is made in the test by editing that file's JSON and
// binary chunk the way a faulty converter would write them. The faithful file passes; each
// corruption fails with a message naming what differs, and a flipped or swapped UV set fails on
// the pixels of the UV checker view as well as on the numbers.
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "loader.h"
#include "monster.h"
#include "support/glb.h"
#include "support/shell.h"
#include "support/temp_dir.h"

using nlohmann::json;

namespace horde {
namespace {

using test::Glb;
using test::Outcome;
using test::quote;

Outcome horde(const std::string& args) {
    return test::shell(std::string(HORDE_CLI) + " " + args);
}

// The monster with what the built-in one lacks: a second UV set, tangents with both handedness
// signs (as mirrored UV islands have) and vertex colours.
Model richMonster(MeshAllocator& allocator) {
    Model m = buildMonster(allocator);
    Mesh& mesh = m.meshes[0];
    MeshLayout layout = mesh.layout();
    layout.uvSets = 2;
    layout.tangents = true;
    layout.colors = true;
    std::unique_ptr<MeshStorage> storage = allocator.allocate(layout, mesh.name);
    const MeshArrays& from = mesh.arrays();
    MeshArrays& to = storage->arrays;
    for (uint32_t v = 0; v < layout.vertexCount; ++v) {
        to.positions[v] = from.positions[v];
        to.normals[v] = from.normals[v];
        to.uv0[v] = from.uv0[v];
        to.uv1[v] = glm::vec2(0.25f + 0.5f * from.uv0[v].y, 0.75f - 0.5f * from.uv0[v].x);
        glm::vec3 side = glm::cross(from.normals[v], glm::vec3(0.3f, 1.0f, 0.2f));
        to.tangents[v] = glm::vec4(glm::normalize(side), v % 3 == 0 ? -1.0f : 1.0f);
        to.colors[v] = glm::vec4(from.uv0[v], 0.5f + 0.5f * from.normals[v].y, 1.0f);
        to.joints[v] = from.joints[v];
        to.weights[v] = from.weights[v];
    }
    for (uint32_t i = 0; i < layout.indexCount; ++i)
        to.setIndex(i, from.index(i));
    mesh.storage = std::move(storage);
    return m;
}

class Corruptions : public ::testing::Test {
  protected:
    void SetUp() override {
        HeapMeshAllocator allocator;
        source_ = dir_.path / "rich.glb";
        ASSERT_TRUE(gltfFormat().write(richMonster(allocator), source_));
    }

    struct Verdict {
        Outcome outcome;
        json report;
        const json* attribute(const std::string& name) const {
            for (const json& a : report["attributes"])
                if (a["name"] == name) return &a;
            return nullptr;
        }
        const json* check(const std::string& name) const {
            for (const json& c : report["checks"])
                if (c["name"] == name) return &c;
            return nullptr;
        }
    };

    // Validates `file` against the source at the bind pose and 0.3 s into each clip.
    Verdict validate(const std::filesystem::path& file) {
        std::filesystem::path report = file.parent_path() / (file.stem().string() + "_report");
        Verdict v;
        v.outcome = horde("validate " + quote(source_) + " " + quote(file) + " --times 0.3 --report " +
                          quote(report));
        std::ifstream in(report / "report.json");
        v.report = json::parse(in, nullptr, false);
        return v;
    }

    Verdict corrupt(const std::string& name, const std::function<void(Glb&)>& edit) {
        Glb glb = Glb::read(source_);
        edit(glb);
        std::filesystem::path out = dir_.path / (name + ".glb");
        glb.write(out);
        return validate(out);
    }

    static void expectFails(const Verdict& v, const std::string& message) {
        EXPECT_EQ(v.outcome.code, 4) << v.outcome.out;
        EXPECT_NE(v.outcome.out.find(message), std::string::npos) << "no '" << message << "' in:\n"
                                                                  << v.outcome.out;
        EXPECT_EQ(v.report["passed"], false);
    }

    const test::TempDir dir_{"horde_validate_attributes"};
    std::filesystem::path source_;
};

TEST_F(Corruptions, TheFaithfulFilePasses) {
    Verdict v = corrupt("faithful", [](Glb&) {});
    EXPECT_EQ(v.outcome.code, 0) << v.outcome.out;
    for (const char* name : {"uv0", "uv1", "normals", "tangents", "vertex colors", "skin weights"}) {
        const json* a = v.attribute(name);
        ASSERT_TRUE(a) << name;
        EXPECT_EQ((*a)["passed"], true) << a->dump();
        EXPECT_GT((*a)["pairs"].get<size_t>(), 7000u) << a->dump();
    }
}

// A flipped or swapped set fails on the numbers and on the UV checker's pixels of every pictured
// pose (the others compare positions only, which it leaves alone).
void expectUvPixelsDiffer(const json& report) {
    ASSERT_TRUE(report["poses"].is_array());
    for (const json& pose : report["poses"]) {
        if (pose["pictured"] == false) {
            EXPECT_EQ(pose["passed"], true) << pose.dump();
            continue;
        }
        EXPECT_GT(pose["views"]["uv"]["differing_pixels_percent"].get<double>(), 1.0) << pose.dump();
        EXPECT_LT(pose["views"]["normals"]["differing_pixels_percent"].get<double>(), 0.5) << pose.dump();
        EXPECT_EQ(pose["passed"], false);
    }
}

TEST_F(Corruptions, UvsFlipped) {
    Verdict v = corrupt(
        "flipped", [](Glb& g) { g.editAttribute<2>("TEXCOORD_0", [](float* uv) { uv[1] = 1.0f - uv[1]; }); });
    expectFails(v, "uv0            FAIL");
    expectFails(v, "B's is A's flipped (v -> 1 - v)");
    expectUvPixelsDiffer(v.report);
    EXPECT_NEAR((*v.attribute("uv0"))["max"].get<double>(), 1.0, 1e-6);
}

TEST_F(Corruptions, UvsSwapped) {
    Verdict v = corrupt("swapped", [](Glb& g) {
        g.editAttribute<2>("TEXCOORD_0", [](float* uv) { std::swap(uv[0], uv[1]); });
    });
    expectFails(v, "B's is A's swapped (u <-> v)");
    expectUvPixelsDiffer(v.report);
}

TEST_F(Corruptions, UvsOffsetByHalfATile) {
    Verdict v =
        corrupt("offset", [](Glb& g) { g.editAttribute<2>("TEXCOORD_0", [](float* uv) { uv[0] += 0.5f; }); });
    expectFails(v, "B's is A's offset by half a tile in u");
    EXPECT_NEAR((*v.attribute("uv0"))["max"].get<double>(), 0.5, 1e-6);
    EXPECT_GT(v.report["poses"][0]["views"]["uv"]["differing_pixels_percent"].get<double>(), 1.0);
}

TEST_F(Corruptions, SecondUvSetDropped) {
    Verdict v = corrupt("dropped", [](Glb& g) {
        for (json& p : g.doc["meshes"][0]["primitives"])
            p["attributes"].erase("TEXCOORD_1");
    });
    expectFails(v, "uv1            FAIL");
    expectFails(v, "has it in A, not in B (dropped)");
    EXPECT_EQ((*v.attribute("uv0"))["passed"], true);
}

TEST_F(Corruptions, NormalsRotated90Degrees) {
    Verdict v = corrupt("normals", [](Glb& g) {
        g.editAttribute<3>("NORMAL", [](float* n) { // 90 degrees about X
            float y = n[1];
            n[1] = -n[2], n[2] = y;
        });
    });
    expectFails(v, "normals        FAIL");
    EXPECT_NEAR((*v.attribute("normals"))["max"].get<double>(), 90.0, 0.01);
    EXPECT_EQ((*v.attribute("uv0"))["passed"], true);
    EXPECT_GT(v.report["poses"][0]["views"]["normals"]["differing_pixels_percent"].get<double>(), 1.0);
}

TEST_F(Corruptions, TangentSignsFlipped) {
    Verdict v =
        corrupt("tangents", [](Glb& g) { g.editAttribute<4>("TANGENT", [](float* t) { t[3] = -t[3]; }); });
    expectFails(v, "tangents       FAIL");
    expectFails(v, "7908 handedness signs flipped");
    EXPECT_NEAR((*v.attribute("tangents"))["max"].get<double>(), 0.0, 0.01); // directions kept
}

TEST_F(Corruptions, VertexColorsChanged) {
    Verdict v = corrupt("colors",
                        [](Glb& g) { g.editAttribute<4>("COLOR_0", [](float* c) { c[2] = 1.0f - c[2]; }); });
    expectFails(v, "vertex colors  FAIL");
    EXPECT_GT((*v.attribute("vertex colors"))["max"].get<double>(), 0.9);
    EXPECT_EQ((*v.attribute("uv0"))["passed"], true);
}

TEST_F(Corruptions, TwoMaterialsSwapped) {
    Verdict v = corrupt("materials", [](Glb& g) { ASSERT_TRUE(g.swapTwoMaterials()); });
    expectFails(v, "materials      FAIL");
    expectFails(v, "of material 'hide' are 'legs' in B");
}

TEST_F(Corruptions, RenamedMaterialsAreAOneToOneMapping) {
    Verdict v = corrupt("renamed", [](Glb& g) {
        for (json& m : g.doc["materials"])
            m["name"] = "m_" + m["name"].get<std::string>();
    });
    EXPECT_EQ(v.outcome.code, 0) << v.outcome.out;
    EXPECT_NE(v.outcome.out.find("one-to-one mapping: 'bone' -> 'm_bone'"), std::string::npos)
        << v.outcome.out;
}

// Every influence of joint 5 goes to joint 6 where the vertex does not use 6 already. The bind
// pose is the same, since every joint's bind cancels there.
void moveJoint5To6(Glb& g) {
    g.editJoints([](uint16_t* j) {
        bool hasSix = j[0] == 6 || j[1] == 6 || j[2] == 6 || j[3] == 6;
        for (int k = 0; k < 4; ++k)
            if (j[k] == 5 && !hasSix) j[k] = 6;
    });
}

TEST_F(Corruptions, WeightsMovedToAnotherJointWithPositionsKept) {
    std::string from, to;
    Verdict v = corrupt("weights", [&](Glb& g) {
        moveJoint5To6(g);
        const json& skin = g.doc["skins"][0]["joints"];
        from = g.doc["nodes"][skin[5].get<size_t>()]["name"];
        to = g.doc["nodes"][skin[6].get<size_t>()]["name"];
    });
    expectFails(v, "skin weights   FAIL");
    expectFails(v, "weight moved from '" + from + "' to '" + to + "'");
    EXPECT_LT(v.report["poses"][0]["max_position_error"].get<double>(), 1e-5); // the bind pose is unchanged
}

TEST_F(Corruptions, AClipTimeScaled) {
    Verdict v = corrupt("timescaled", [](Glb& g) { g.scaleClip(0, 2.0f); });
    expectFails(v, "clips          FAIL");
    expectFails(v, "clip 'walk' lasts 1 s in A, 2 s in B");
}

// An older export named the attack `animation1`: the walk matches by name, the attack by order,
// and the output says so.
TEST_F(Corruptions, ClipsWithoutACommonNameMatchByOrder) {
    Verdict v = corrupt("renamed_clip", [](Glb& g) { g.doc["animations"][1]["name"] = "animation1"; });
    EXPECT_EQ(v.outcome.code, 0) << v.outcome.out;
    EXPECT_NE(v.outcome.out.find(
                  "2 clips found in both (1 by name); 'attack' matched to B's 'animation1' by order"),
              std::string::npos)
        << v.outcome.out;
}

// A writer that splits every vertex per triangle (the extreme of splitting at seams): counts
// differ, so vertices pair by position and attributes; the faithful split passes and a flipped
// UV set on top of it still fails.
TEST_F(Corruptions, SplitSeamsMatchByPosition) {
    HeapMeshAllocator allocator;
    Result<Model> welded = loadModel(source_, {}, allocator);
    ASSERT_TRUE(welded) << welded.error().message;
    for (bool flip : {false, true}) {
        Mesh& mesh = welded->meshes[0];
        MeshLayout layout = mesh.layout();
        layout.vertexCount = layout.indexCount;
        layout.index16 = false;
        std::unique_ptr<MeshStorage> storage = allocator.allocate(layout, mesh.name);
        const MeshArrays& from = mesh.arrays();
        MeshArrays& to = storage->arrays;
        for (uint32_t i = 0; i < layout.indexCount; ++i) {
            uint32_t v = from.index(i);
            to.positions[i] = from.positions[v];
            to.normals[i] = from.normals[v];
            to.tangents[i] = from.tangents[v];
            to.uv0[i] = flip ? glm::vec2(from.uv0[v].x, 1.0f - from.uv0[v].y) : from.uv0[v];
            to.uv1[i] = from.uv1[v];
            to.colors[i] = from.colors[v];
            to.joints[i] = from.joints[v];
            to.weights[i] = from.weights[v];
            to.setIndex(i, i);
        }
        Model split;
        split.format = welded->format;
        split.nodes = welded->nodes;
        split.skins = welded->skins;
        split.clips = welded->clips;
        split.axes = welded->axes;
        split.meshes.emplace_back();
        split.meshes[0].name = mesh.name;
        split.meshes[0].node = mesh.node;
        split.meshes[0].skin = mesh.skin;
        split.meshes[0].submeshes = mesh.submeshes;
        split.meshes[0].storage = std::move(storage);
        std::filesystem::path out = dir_.path / (flip ? "split_flipped.glb" : "split.glb");
        ASSERT_TRUE(gltfFormat().write(split, out));
        Verdict v = validate(out);
        EXPECT_NE(v.outcome.out.find("by position and attributes"), std::string::npos) << v.outcome.out;
        const json* match = v.check("vertex match");
        ASSERT_TRUE(match);
        EXPECT_EQ((*match)["passed"], true) << match->dump(); // every vertex finds its partner
        const json& counts = v.report["vertex_match"][0];
        EXPECT_EQ(counts["by_order"], false);
        EXPECT_EQ(counts["vertices_a"], 7908);
        EXPECT_EQ(counts["vertices_b"], 15744 * 3);
        EXPECT_EQ(counts["unmatched_a"], 0);
        EXPECT_EQ(counts["unmatched_b"], 0);
        if (!flip) {
            EXPECT_EQ(v.outcome.code, 0) << v.outcome.out;
            EXPECT_EQ(v.check("materials")->at("passed"), true);
        } else {
            expectFails(v, "B's is A's flipped (v -> 1 - v)");
            expectUvPixelsDiffer(v.report);
        }
    }
}

} // namespace
} // namespace horde
