// Every writer converts a model's axes and units into its file's: what a model measured in
// metres, upright, measures and stands the same once written and read back. Checked against
// the source's own numbers moved to metres by hand (axes map times metres per unit), in double
// precision: vertex positions and each node's rest position in the model.
#include <algorithm>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "anim/reference.h"
#include "model/axes.h"
#include "loader.h"
#include "monster.h"
#include "support/temp_dir.h"

namespace horde {
namespace {

struct Case {
    const char* format;
    Axes source;
    const char* label;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.format << " from " << c.label; }

Axes axes(Axes::Up up, float metresPerUnit) {
    Axes a;
    a.up = up;
    a.metresPerUnit = metresPerUnit;
    return a;
}

glm::dvec3 metres(const Axes& a, glm::dvec3 p) {
    return glm::dmat3(glm::mat3(axesToWorld(a))) * p * double(a.metresPerUnit);
}

// Where each node rests in the model, in its own units and axes.
std::vector<glm::dvec3> restPositions(const Model& m) {
    std::vector<glm::dmat4> world(m.nodes.size());
    std::vector<glm::dvec3> out(m.nodes.size());
    for (size_t n = 0; n < m.nodes.size(); ++n) {
        glm::dmat4 local = toMatrix(restTrs(m.nodes[n]));
        world[n] = m.nodes[n].parent < 0 ? local : world[m.nodes[n].parent] * local;
        out[n] = glm::dvec3(world[n][3]);
    }
    return out;
}

class WriterUnits : public ::testing::TestWithParam<Case> {};

TEST_P(WriterUnits, TheModelKeepsItsSizeAndStandsUpright) {
    const Case& c = GetParam();
    HeapMeshAllocator heap;
    Model source = buildMonster(heap);
    source.axes = c.source;

    test::TempDir dir("writer_units");
    const Format* format = findFormat(c.format);
    ASSERT_NE(format, nullptr);
    const std::filesystem::path path = dir.path / (std::string("m") + format->extension);
    Result<Companions> written = format->write(source, path);
    ASSERT_TRUE(written) << written.error().message;
    LoadOptions options;
    options.skeleton = written->skeleton;
    Result<Model> back = loadModel(path, options, heap);
    ASSERT_TRUE(back) << back.error().message;

    double radius = 0.0;
    for (glm::vec3 p : source.meshes[0].arrays().positions) radius = std::max(radius, glm::length(metres(source.axes, p)));
    ASSERT_GT(radius, 0.0);
    const double tolerance = 1e-5 * radius;

    // The box around every vertex (formats that cut meshes into pieces keep it), then vertex by
    // vertex where the file keeps the mesh whole.
    auto box = [](const Model& m) {
        glm::dvec3 lo(1e30), hi(-1e30);
        for (const Mesh& mesh : m.meshes)
            for (glm::vec3 p : mesh.arrays().positions) lo = glm::min(lo, metres(m.axes, p)), hi = glm::max(hi, metres(m.axes, p));
        return std::pair{lo, hi};
    };
    const auto [loA, hiA] = box(source);
    const auto [loB, hiB] = box(*back);
    EXPECT_LT(glm::length(loB - loA) + glm::length(hiB - hiA), tolerance) << c.label << ": the bind pose's box, in metres";
    const auto& a = source.meshes[0].arrays().positions;
    if (back->meshes.size() == source.meshes.size() && back->meshes[0].vertexCount() == a.size()) {
        const auto& b = back->meshes[0].arrays().positions;
        double worst = 0.0;
        for (size_t v = 0; v < a.size(); ++v)
            worst = std::max(worst, glm::length(metres(back->axes, b[v]) - metres(source.axes, a[v])));
        EXPECT_LT(worst, tolerance) << c.label << ": farthest vertex, in metres, of a model " << radius << " m across";
    } else {
        EXPECT_TRUE(std::string(c.format).starts_with("nwn")) << "only NWN cuts meshes into pieces";
    }

    const std::vector<glm::dvec3> restA = restPositions(source), restB = restPositions(*back);
    size_t compared = 0;
    for (size_t n = 0; n < source.nodes.size(); ++n) {
        int32_t m = findNode(*back, source.nodes[n].name);
        if (m < 0) continue;
        ++compared;
        EXPECT_LT(glm::length(metres(back->axes, restB[m]) - metres(source.axes, restA[n])), tolerance)
            << c.label << ": node '" << source.nodes[n].name << "'";
    }
    EXPECT_EQ(compared, source.nodes.size());
}

INSTANTIATE_TEST_SUITE_P(
    Formats, WriterUnits,
    ::testing::Values(Case{"grimrock", axes(Axes::Up::Y, 0.1f), "decimetres"},
                      Case{"grimrock", axes(Axes::Up::Z, 0.01f), "centimetres, Z up"},
                      Case{"emi", axes(Axes::Up::Y, 0.1f), "decimetres"},
                      Case{"emi", axes(Axes::Up::Z, 0.01f), "centimetres, Z up"},
                      Case{"swtor", axes(Axes::Up::Y, 1.0f), "metres"},
                      Case{"swtor", axes(Axes::Up::Z, 0.01f), "centimetres, Z up"},
                      Case{"nwn", axes(Axes::Up::Y, 0.1f), "decimetres"},
                      Case{"nwn-ascii", axes(Axes::Up::Y, 0.01f), "centimetres"},
                      Case{"gltf", axes(Axes::Up::Z, 0.01f), "centimetres, Z up"}),
    [](const ::testing::TestParamInfo<Case>& param) {
        std::string name = std::string(param.param.format) + "_" + std::to_string(param.index);
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });

} // namespace
} // namespace horde
