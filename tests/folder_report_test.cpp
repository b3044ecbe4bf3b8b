// The folder report's row for one model, read from the report.json the per-model validate writes
// (written here by hand in that shape): every failed check, attribute and pose figure is named,
// and the worst figure is said against its own threshold, so rows sort by what really failed.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "folder_report.h"
#include "support/temp_dir.h"

namespace horde {
namespace {

using nlohmann::json;

json report(json checks, json attributes, json poses) {
    return {{"a", "a"},         {"b", "b"},
            {"passed", false},  {"thresholds", {{"max_position_error", 1e-4}, {"max_differing_pixels", 0.5}}},
            {"checks", checks}, {"attributes", attributes},
            {"poses", poses}};
}

json pose(double position, double pixels, double uv = 0.0, double normals = 0.0) {
    return {
        {"label", "bind pose"},
        {"comparable", true},
        {"max_position_error", position},
        {"differing_pixels_percent", pixels},
        {"views",
         {{"uv", {{"differing_pixels_percent", uv}}}, {"normals", {{"differing_pixels_percent", normals}}}}},
        {"passed", false}};
}

json attribute(const char* name, double max, double tolerance, bool passed, const char* unit = "") {
    return {{"name", name}, {"max", max}, {"tolerance", tolerance}, {"passed", passed}, {"unit", unit}};
}

ModelRow read(const json& j) {
    test::TempDir dir("folder_report");
    std::ofstream(dir.path / "report.json") << j.dump();
    ModelRow row;
    readModelReport(dir.path / "report.json", row);
    return row;
}

// Grimrock's zero normals before the repair was reported: only the attribute failed, and the row
// showed no failed check and a worst figure of 0.
TEST(FolderReport, AFailedAttributeIsNamedWithItsFigure) {
    const json checks = json::array({{{"name", "hierarchy"}, {"passed", true}}});
    ModelRow row = read(report(
        checks,
        json::array({attribute("uv0", 0.0, 1e-3, true), attribute("normals", 180.0, 1.0, false, "degrees")}),
        json::array({pose(0.0, 0.0)})));
    EXPECT_EQ(row.failedChecks, std::vector<std::string>{"normals"});
    EXPECT_DOUBLE_EQ(row.worst, 180.0);
    EXPECT_EQ(row.worstFigure, "normals 180 degrees (tolerance 1)");
}

// NWN's unnamed material drawn in another palette colour: only the shaded pixels failed.
TEST(FolderReport, FailedPixelsAreNamedWithTheirShareAndPose) {
    ModelRow row = read(report(json::array(), json::array(), json::array({pose(0.0, 13.44, 0.0, 0.75)})));
    EXPECT_EQ(row.failedChecks, (std::vector<std::string>{"shaded pixels", "normals view pixels"}));
    EXPECT_NEAR(row.worst, 13.44 / 0.5, 1e-9);
    EXPECT_EQ(row.worstFigure, "shaded pixels 13.4% (threshold 0.5%) at bind pose");
    EXPECT_DOUBLE_EQ(row.differingPixels, 13.44);
}

// A failed check has no figure: it sorts past any figure and says what failed.
TEST(FolderReport, AFailedCheckSortsPastEveryFigure) {
    const json checks = json::array({{{"name", "clips"}, {"passed", false}}});
    ModelRow row = read(report(checks, json::array(), json::array({pose(2e-4, 0.0)})));
    EXPECT_EQ(row.failedChecks, (std::vector<std::string>{"clips", "positions"}));
    EXPECT_DOUBLE_EQ(row.worst, 1e6);
    EXPECT_EQ(row.worstFigure, "failed: clips, positions");
    EXPECT_EQ(ModelRow::fromJson(row.json()).worstFigure, row.worstFigure) << "kept through --merge";
}

// A pose compared by its positions only (not pictured) has no pixel figures: its position is read,
// and the pixels are the pictured poses'.
TEST(FolderReport, APoseWithoutPicturesGivesItsPositionOnly) {
    json positionsOnly = {{"label", "walk @ 0.5 s"},   {"comparable", true}, {"max_position_error", 3e-5},
                          {"pictured", false}, {"passed", true}};
    ModelRow row = read(report(json::array(), json::array(), json::array({pose(0.0, 0.2), positionsOnly})));
    EXPECT_TRUE(row.failedChecks.empty());
    EXPECT_DOUBLE_EQ(row.differingPixels, 0.2);
    EXPECT_DOUBLE_EQ(row.maxPositionError, 3e-5);
    EXPECT_NEAR(row.worst, 0.2 / 0.5, 1e-12);
    EXPECT_EQ(row.worstFigure, "shaded pixels 0.2% (threshold 0.5%) at bind pose");
}

} // namespace
} // namespace horde
