// A check that compared nothing says so and is not counted as a pass: an attribute figure over
// no vertex pair, a model without a vertex to compare, and the folder row and counts made from
// that model's report.json. On the CPU libraries alone.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "folder_report.h"
#include "model/validate.h"
#include "support/temp_dir.h"
#include "validate_attributes.h"
#include "validate_report.h"

namespace horde {
namespace {

// One static mesh with one UV set: a triangle, or (`vertices` 0) nothing at all.
Model withMesh(uint32_t vertices) {
    Model model;
    model.nodes = {Node{.name = "root"}};
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = vertices;
    layout.indexCount = vertices;
    layout.uvSets = 1;
    Mesh mesh;
    mesh.name = "m";
    mesh.storage = heap.allocate(layout, mesh.name);
    for (uint32_t v = 0; v < vertices; ++v) {
        mesh.arrays().positions[v] = glm::vec3(float(v == 1), float(v == 2), 0.0f);
        mesh.arrays().normals[v] = {0, 0, 1};
        mesh.arrays().uv0[v] = glm::vec2(float(v) * 0.25f);
        mesh.arrays().setIndex(v, v);
    }
    mesh.submeshes = {{"stone", 0, vertices}};
    model.meshes.push_back(std::move(mesh));
    finalizeMeshes(model);
    return model;
}

const AttributeFigure& figure(const AttributeReport& r, const std::string& name) {
    for (const AttributeFigure& f : r.figures)
        if (f.name == name) return f;
    throw std::logic_error("no figure " + name);
}

} // namespace

TEST(ValidateVerdict, AFigureOverNoVertexPairComparedNothing) {
    const Model a = withMesh(3), b = withMesh(3);
    ValidateReport report;
    report.attributes = compareAttributes(a, b, {}, 1e-6);
    report.passed = report.attributes.passed();
    EXPECT_EQ(report.attributes.pairs(), 3u);
    EXPECT_EQ(figure(report.attributes, "uv0").verdict(), Verdict::Pass);
    EXPECT_EQ(figure(report.attributes, "normals").verdict(), Verdict::Pass);
    // Neither side skinned: the weights compared nothing, which costs the model nothing.
    const AttributeFigure& weights = figure(report.attributes, "skin weights");
    EXPECT_EQ(weights.verdict(), Verdict::NothingCompared);
    EXPECT_EQ(weights.detail, "neither side is skinned");
    EXPECT_EQ(report.verdict(), Verdict::Pass);
    const nlohmann::json j = report.json();
    EXPECT_EQ(j["status"], "pass");
    for (const nlohmann::json& f : j["attributes"])
        EXPECT_EQ(f["status"], f["name"] == "skin weights" ? "nothing compared" : "pass") << f["name"];
}

TEST(ValidateVerdict, AModelWithoutAVertexToCompareIsNoPass) {
    const Model a = withMesh(0), b = withMesh(0);
    ValidateReport report;
    report.attributes = compareAttributes(a, b, {}, 1e-6);
    report.passed = report.attributes.passed(); // nothing failed...
    ASSERT_TRUE(report.passed);
    EXPECT_EQ(report.attributes.pairs(), 0u);
    const AttributeFigure& uv = figure(report.attributes, "uv0");
    EXPECT_EQ(uv.pairs, 0u);
    EXPECT_EQ(uv.verdict(), Verdict::NothingCompared); // ...and nothing was compared
    EXPECT_EQ(uv.detail, "no vertex pair holds it on both sides");
    EXPECT_EQ(report.attributes.matching.verdict(), Verdict::NothingCompared);
    EXPECT_EQ(report.attributes.materials.verdict(), Verdict::NothingCompared); // no triangle
    EXPECT_EQ(report.verdict(), Verdict::NothingCompared);
    EXPECT_EQ(report.json()["status"], "nothing compared");
    // A model with no mesh at all (Grimrock's empty_object_gate.model): its nodes are compared,
    // its joints, vertex counts and morph targets are not.
    Model bare;
    bare.nodes = {Node{.name = "root"}, Node{.name = "gate", .parent = 0}};
    const std::vector<Check> structure = compareStructure(bare, bare, "a", "b");
    ASSERT_EQ(structure.size(), 4u);
    EXPECT_EQ(structure[0].name, "hierarchy");
    EXPECT_EQ(structure[0].verdict(), Verdict::Pass);
    for (size_t c = 1; c < 4; ++c) EXPECT_EQ(structure[c].verdict(), Verdict::NothingCompared) << structure[c].name;
    EXPECT_EQ(structure[3].detail, "no morph targets on either side");
    EXPECT_EQ(compareMorphWeights(bare, bare, {}).verdict(), Verdict::NothingCompared);
    // A check that had nothing to compare (no clip on either side) says so too.
    const Check clips{"clips", true, "0 clips found in both", false};
    EXPECT_EQ(clips.verdict(), Verdict::NothingCompared);
    EXPECT_STREQ(verdictName(clips.verdict()), "nothing compared");
}

// The per-model validate exits as for a failure (4), which the folder reads as "fail" until the
// model's report.json says what it was; the folder then counts it apart and does not pass.
TEST(ValidateVerdict, TheFolderCountsAModelThatComparedNothingApart) {
    const Model a = withMesh(0), b = withMesh(0);
    ValidateReport report;
    report.attributes = compareAttributes(a, b, {}, 1e-6);
    report.passed = true;
    const test::TempDir dir("validate_verdict");
    std::ofstream(dir.path / "report.json") << report.json().dump();
    ModelRow row;
    row.status = "fail";
    readModelReport(dir.path / "report.json", row);
    EXPECT_EQ(row.status, kNothingCompared);
    EXPECT_TRUE(row.failedChecks.empty());
    ModelRow passing;
    passing.status = "pass";
    FolderReport folder;
    folder.rows = {passing, row};
    EXPECT_FALSE(folder.passed());
    const nlohmann::json counts = folder.json()["counts"];
    EXPECT_EQ(counts["pass"], 1);
    EXPECT_EQ(counts["nothing_compared"], 1);
    EXPECT_EQ(counts["fail"], 0);
    EXPECT_EQ(counts["error"], 0);
}

} // namespace horde
