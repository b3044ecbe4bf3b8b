// `horde profile`'s report from runs made by hand: the winner at each size, the cost per thousand
// skinned vertices, the JSON's figures and a page with every plot and row, names escaped.
#include <gtest/gtest.h>

#include "profile.h"
#include "profile_page.h"

using namespace horde;

namespace {

ProfileRun runOf(bool vertex, Skinning skinning, uint32_t count, double skinMs, double drawMs,
                 uint64_t vertices) {
    ProfileRun r;
    r.technique = vertex ? Technique::Vertex : Technique::Compute;
    r.skin.skinning = skinning;
    r.count = count;
    r.gpu = {0.5, 0.25, 0.25, skinMs, drawMs};
    r.counts.skinnedVertices = vertices;
    return r;
}

Profile handMade() {
    Profile p;
    p.device = "Test <GPU>";
    p.driver = "driver 1.0";
    p.command = "horde profile --counts 100,1000";
    p.models = {"monster"};
    p.counts = {100, 1000};
    // At 100 the vertex technique wins (no skin pass); at 1000 dual quaternions in a compute pass.
    p.runs = {runOf(false, Skinning::Lbs, 100, 2.0, 10.0, 8000),
              runOf(false, Skinning::Dqs, 100, 2.5, 10.0, 8000),
              runOf(true, Skinning::Lbs, 100, 0.0, 11.0, 8000),
              runOf(false, Skinning::Lbs, 1000, 20.0, 60.0, 80000),
              runOf(false, Skinning::Dqs, 1000, 15.0, 60.0, 80000),
              runOf(true, Skinning::Lbs, 1000, 0.0, 90.0, 80000)};
    p.runs[0].invocations =
        PassInvocations{{0, 0, 64}, {0, 0, 128}, {0, 0, 128}, {0, 0, 8000}, {9000, 40000, 0}};
    return p;
}

size_t occurrences(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

} // namespace

TEST(ProfileReport, TheWinnerIsTheLeastGpuTimeAtEachSize) {
    const Profile p = handMade();
    ASSERT_NE(p.winner(100), nullptr);
    EXPECT_EQ(p.winner(100)->name(), "vertex-lbs-fp32-4");   // 12 ms against 13 and 13.5
    EXPECT_EQ(p.winner(1000)->name(), "compute-dqs-fp32-4"); // 76 ms against 81 and 91
    EXPECT_EQ(p.winner(5), nullptr);
}

TEST(ProfileReport, CostsArePerThousandSkinnedVertices) {
    const ProfileRun r = handMade().runs[0]; // 13 ms a frame, 12 of them skin and draw, 8,000 vertices
    EXPECT_DOUBLE_EQ(r.frameMsPerThousand(), 13.0 / 8.0);
    EXPECT_DOUBLE_EQ(r.skinDrawMsPerThousand(), 12.0 / 8.0);
    EXPECT_EQ(ProfileRun{}.frameMsPerThousand(), 0.0) << "no vertices, no cost";
}

TEST(ProfileReport, TheJsonHoldsEveryRunAndTheWinners) {
    const nlohmann::json j = handMade().json();
    EXPECT_EQ(j["device"], "Test <GPU>");
    ASSERT_EQ(j["runs"].size(), 6u);
    EXPECT_EQ(j["runs"][0]["name"], "compute-lbs-fp32-4");
    EXPECT_DOUBLE_EQ(j["runs"][0]["gpu_ms"]["total"].get<double>(), 13.0);
    EXPECT_EQ(j["runs"][0]["invocations"]["skin"]["compute"], 8000);
    EXPECT_TRUE(j["runs"][1]["invocations"].is_null());
    ASSERT_EQ(j["winners"].size(), 2u);
    EXPECT_EQ(j["winners"][1]["name"], "compute-dqs-fp32-4");
    EXPECT_EQ(j["winners"][1]["count"], 1000);
}

TEST(ProfileReport, ThePageDrawsEveryPlotAndRowAndFetchesNothing) {
    const std::string page = profilePage(handMade());
    EXPECT_NE(page.find("Test &lt;GPU&gt;"), std::string::npos) << "the device name, escaped";
    EXPECT_EQ(page.find("<GPU>"), std::string::npos);
    EXPECT_EQ(occurrences(page, "<svg class=\"plot\""), 2u + 2u) << "two over the sizes, one per size";
    EXPECT_EQ(occurrences(page, "<polyline class=\"series\""), 2u * 3u) << "a line per technique in each";
    EXPECT_EQ(occurrences(page, "<rect class=\"bar\""), 6u * 5u) << "each run's five passes";
    EXPECT_EQ(occurrences(page, "<tr class=winner"), 2u);
    EXPECT_EQ(page.find("<script"), std::string::npos);
    EXPECT_EQ(page.find("http"), std::string::npos) << "nothing from the network";
}
