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

namespace {

ProfileSample sampleOf(double drawMs, uint64_t vertices) {
    ProfileSample s;
    s.gpu = {0.0, 0.0, 0.0, 0.0, drawMs};
    s.counts.skinnedVertices = vertices;
    return s;
}

} // namespace

// A run's figures are its median repeat's (the lower middle of an even count), its spread the
// least and greatest repeat.
TEST(ProfileReport, ARunIsItsMedianRepeatWithItsSpread) {
    ProfileRun r;
    r.add(sampleOf(12.0, 100));
    r.add(sampleOf(10.0, 101));
    EXPECT_DOUBLE_EQ(r.gpu.totalMs(), 10.0) << "of 10 and 12, the lower";
    EXPECT_EQ(r.counts.skinnedVertices, 101u) << "the counts come with their repeat";
    r.add(sampleOf(15.0, 102));
    EXPECT_DOUBLE_EQ(r.gpu.totalMs(), 12.0);
    EXPECT_EQ(r.counts.skinnedVertices, 100u);
    const Spread s = r.spread();
    EXPECT_DOUBLE_EQ(s.min, 10.0);
    EXPECT_DOUBLE_EQ(s.median, 12.0);
    EXPECT_DOUBLE_EQ(s.max, 15.0);
}

// A winner only where its slowest repeat beats every other run's fastest: 10-12 ms against
// 12.5-14 wins; against 11.9-14 it is within the spread, and both are named.
TEST(ProfileReport, AWinnerIsNamedOnlyBeyondTheSpread) {
    Profile p;
    p.counts = {100};
    ProfileRun fast = runOf(false, Skinning::Lbs, 100, 0.0, 0.0, 1000);
    for (double ms : {10.0, 11.0, 12.0})
        fast.add(sampleOf(ms, 1000));
    ProfileRun slow = runOf(true, Skinning::Lbs, 100, 0.0, 0.0, 1000);
    for (double ms : {14.0, 12.5, 13.0})
        slow.add(sampleOf(ms, 1000));
    p.runs = {slow, fast};
    ASSERT_NE(p.winner(100), nullptr);
    EXPECT_EQ(p.winner(100)->name(), "compute-lbs-fp32-4");
    EXPECT_EQ(p.undecided(100).size(), 1u);
    EXPECT_EQ(p.json()["winners"].size(), 1u);
    EXPECT_EQ(p.json()["undecided"].size(), 0u);
    EXPECT_EQ(p.verdict(100), "faster in every repeat than any other run");

    p.runs[0].add(sampleOf(11.9, 1000)); // slow: 11.9 to 14
    EXPECT_EQ(p.winner(100), nullptr);
    EXPECT_EQ(p.fastest(100)->name(), "compute-lbs-fp32-4");
    ASSERT_EQ(p.undecided(100).size(), 2u);
    EXPECT_EQ(p.verdict(100), "no winner: within the spread of vertex-lbs-fp32-4");
    const nlohmann::json j = p.json();
    EXPECT_EQ(j["winners"].size(), 0u);
    ASSERT_EQ(j["undecided"].size(), 1u);
    EXPECT_EQ(j["undecided"][0]["names"], nlohmann::json({"compute-lbs-fp32-4", "vertex-lbs-fp32-4"}));
    EXPECT_EQ(j["runs"][0]["repeats_ms"], nlohmann::json({14.0, 12.5, 13.0, 11.9}));
    EXPECT_DOUBLE_EQ(j["runs"][0]["gpu_ms_spread"]["min"].get<double>(), 11.9);
    EXPECT_DOUBLE_EQ(j["runs"][0]["gpu_ms_spread"]["median"].get<double>(), 12.5);
    EXPECT_DOUBLE_EQ(j["runs"][0]["gpu_ms_spread"]["max"].get<double>(), 14.0);
    const std::string page = profilePage(p);
    EXPECT_EQ(occurrences(page, "<tr class=winner"), 0u);
    EXPECT_EQ(occurrences(page, "<tr class=fastest"), 1u);
    EXPECT_NE(page.find("no winner: within the spread of vertex-lbs-fp32-4"), std::string::npos);
}
