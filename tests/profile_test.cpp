// `horde profile` on this device: every technique at two crowd sizes in one process, its JSON
// consistent with itself, and its page in headless Chromium (profile_check.mjs: offline, every
// plot drawn, a row per run, the winners marked).
#include <algorithm>
#include <cstdio>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/shell.h"
#include "support/temp_dir.h"

using nlohmann::json;

namespace {
horde::test::Outcome runCli(const std::string& args) {
    return horde::test::shell(std::string(HORDE_CLI) + " " + args);
}
} // namespace

TEST(Profile, MeasuresEveryTechniqueAndWritesAPageChromiumOpens) {
    horde::test::TempDir dir("horde_profile");
    const std::filesystem::path out = dir.path / "report";
    horde::test::Outcome r = runCli("profile --counts 4,16 --frames 1 --repeats 3 --width 96 --height 54 "
                                    "--validation --out " + out.string());
    ASSERT_EQ(r.code, 0) << r.out;
    const json j = json::parse(std::ifstream(out / "profile.json"));
    EXPECT_FALSE(j["device"].get<std::string>().empty());
    EXPECT_EQ(j["repeats"], 3);
    // The monster keeps four influences: the eight techniques that tell apart, at each size.
    ASSERT_EQ(j["runs"].size(), 16u);
    ASSERT_EQ(j["notes"].size() >= 1, true);
    for (uint32_t count : {4u, 16u}) {
        double best = 1e300, bestMax = 0.0;
        std::string fastest;
        std::vector<std::pair<std::string, double>> fastestRepeats; // each run's least
        for (const json& run : j["runs"]) {
            if (run["count"] != count) continue;
            EXPECT_GT(run["skinned_vertices"].get<uint64_t>(), 0u) << run.dump();
            const double total = run["gpu_ms"]["total"].get<double>();
            EXPECT_NEAR(run["ms_per_thousand_skinned_vertices"]["frame"].get<double>(),
                        total * 1000.0 / double(run["skinned_vertices"].get<uint64_t>()),
                        1e-9 + total * 1e-9);
            if (run["technique"] == "vertex") {
                EXPECT_EQ(run["invocations"]["skin"]["compute"], 0) << run.dump();
            }
            // Three repeats: the figure is the middle one, the spread the other two.
            std::vector<double> repeats = run["repeats_ms"].get<std::vector<double>>();
            ASSERT_EQ(repeats.size(), 3u) << run.dump();
            std::sort(repeats.begin(), repeats.end());
            EXPECT_NEAR(total, repeats[1], 1e-9 * total) << run.dump();
            EXPECT_EQ(run["gpu_ms_spread"]["min"].get<double>(), repeats[0]);
            EXPECT_EQ(run["gpu_ms_spread"]["max"].get<double>(), repeats[2]);
            fastestRepeats.push_back({run["name"], repeats[0]});
            if (total < best) {
                best = total;
                bestMax = repeats[2];
                fastest = run["name"];
            }
        }
        // Named a winner only when its slowest repeat beats every other run's fastest; else every
        // run within reach is listed.
        std::vector<std::string> reach{fastest};
        for (const auto& [name, least] : fastestRepeats)
            if (name != fastest && least <= bestMax) reach.push_back(name);
        size_t found = 0;
        for (const json& w : j["winners"])
            if (w["count"] == count) {
                ++found;
                EXPECT_EQ(w["name"], fastest);
                EXPECT_EQ(reach.size(), 1u);
            }
        for (const json& u : j["undecided"])
            if (u["count"] == count) {
                ++found;
                EXPECT_EQ(u["names"].get<std::vector<std::string>>(), reach);
            }
        EXPECT_EQ(found, 1u);
    }
    EXPECT_NE(r.out.find("fastest at 16:"), std::string::npos) << r.out;

    std::filesystem::create_directories(HORDE_TEST_ARTIFACTS);
    const std::string browser = std::string("node ") + HORDE_PROFILE_CHECK + " " +
                                (out / "index.html").string() + " " + HORDE_TEST_ARTIFACTS + " 16 2 2>&1";
    FILE* pipe = popen(browser.c_str(), "r");
    std::string said;
    char buffer[4096];
    while (size_t n = fread(buffer, 1, sizeof buffer, pipe))
        said.append(buffer, n);
    const int status = pclose(pipe);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << said;
    EXPECT_TRUE(
        std::filesystem::is_regular_file(std::filesystem::path(HORDE_TEST_ARTIFACTS) / "profile_report.png"));
}

TEST(Profile, BadCountsAreAUsageError) {
    horde::test::TempDir dir("horde_profile");
    EXPECT_EQ(runCli("profile --counts 4,lots --out " + (dir.path / "x").string()).code, 1);
}
