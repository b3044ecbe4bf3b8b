// `horde_bench --assets`: crowd rows over the user's own models, run as a user runs them. The
// folder holds the built-in monster written as glTF (its clips inside), so what each row drew is
// known by hand: 16 instances, every one seen from the overview, and brute force draws each in
// full (16 x the monster's triangles). Without --assets the rows do not exist.
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "loader.h"
#include "monster.h"
#include "support/shell.h"
#include "support/temp_dir.h"

using nlohmann::json;

namespace {

horde::test::Outcome bench(const std::string& arguments) {
    // stderr dropped: stdout is the JSON report alone.
    return horde::test::shell(std::string(HORDE_BENCH) +
                                  " --quick --benchmark_filter=crowd_assets --benchmark_format=json " +
                                  arguments,
                              false);
}

TEST(BenchAssets, RowsDrawTheFoldersModelsAndAreAbsentWithoutIt) {
    horde::test::TempDir dir("horde_bench_assets");
    horde::HeapMeshAllocator allocator;
    const horde::Model monster = horde::buildMonster(allocator);
    const double triangles = double(monster.meshes[0].indexCount()) / 3.0;
    std::filesystem::create_directories(dir.path / "monsters");
    ASSERT_TRUE(horde::findFormat("gltf")->write(monster, dir.path / "monsters/beast.glb"));

    const horde::test::Outcome run = bench("--assets " + horde::test::quote(dir.path / "monsters"));
    ASSERT_EQ(run.code, 0) << run.out;
    const json report = json::parse(run.out);
    EXPECT_EQ(report["context"]["assets"], (dir.path / "monsters").string());
    std::map<std::string, json> rows;
    for (const json& row : report["benchmarks"]) {
        const std::string name = row["name"];
        rows[name.substr(0, name.find("/iterations"))] = row;
    }
    for (const char* name : {"crowd_assets/lod+cull/overview/16", "crowd_assets/brute/overview/16",
                             "crowd_assets/lod+cull/street/16", "crowd_assets/brute/street/16"}) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(rows.count(name));
        const json& row = rows[name];
        EXPECT_FALSE(row.contains("error_message")) << row.dump();
        EXPECT_EQ(row["instances"], 16.0);
        EXPECT_EQ(row["dropped"], 0.0);
        EXPECT_GT(row["real_time"].get<double>(), 0.0);
    }
    EXPECT_EQ(rows.size(), 4u);
    const json& brute = rows["crowd_assets/brute/overview/16"];
    EXPECT_EQ(brute["visible"], 16.0);
    EXPECT_EQ(brute["triangles"], 16.0 * triangles);
    EXPECT_EQ(rows["crowd_assets/lod+cull/overview/16"]["visible"], 16.0);
    EXPECT_LT(rows["crowd_assets/lod+cull/overview/16"]["triangles"].get<double>(), 16.0 * triangles)
        << "the overview's monsters are small enough for coarser levels";

    // Without --assets nothing matches the filter: Google Benchmark lists and runs no row.
    const horde::test::Outcome without = bench("--benchmark_list_tests=true");
    ASSERT_EQ(without.code, 0) << without.out;
    EXPECT_EQ(without.out.find("crowd_assets"), std::string::npos) << without.out;
    const horde::test::Outcome listed =
        bench("--benchmark_list_tests=true --assets " + horde::test::quote(dir.path / "monsters"));
    EXPECT_NE(listed.out.find("crowd_assets/brute/street/16"), std::string::npos) << listed.out;

    const horde::test::Outcome empty = bench("--assets " + horde::test::quote(dir.path / "nothing"));
    EXPECT_EQ(empty.code, 2);
}

} // namespace
