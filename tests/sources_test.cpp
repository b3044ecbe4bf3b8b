// Where a crowd's models come from (tools/sources/crowd_sources.h), on the CPU alone: a folder of
// models written by hand, loaded with a loader that counts its calls, so what each model cost is
// known: every drawable model decoded once, the ones without clips left out after that one decode,
// and a file given beside the folder decoded once too. Scales are checked against bind-pose heights
// worked out from the monster's own bounds.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/reference.h"
#include "crowd_sources.h"
#include "loader.h"
#include "monster.h"
#include "support/temp_dir.h"

using namespace horde;

namespace {

struct Counted {
    std::map<std::string, int> decodes;
    std::vector<FolderModelNote> notes;
    ModelLoader loader() {
        return [this](const ModelInput& input) {
            ++decodes[std::filesystem::path(input.model).filename().string()];
            HeapMeshAllocator heap;
            return input.load(heap);
        };
    }
    SourceReport report() {
        return [this](const FolderModelNote& note) { notes.push_back(note); };
    }
};

} // namespace

TEST(Sources, AFolderCrowdDecodesEachModelOnce) {
    test::TempDir dir("horde_sources");
    HeapMeshAllocator heap;
    const Model monster = buildMonster(heap);
    Model still = buildMonster(heap);
    still.clips.clear();
    std::filesystem::create_directories(dir.path / "crowd/more");
    ASSERT_TRUE(findFormat("gltf")->write(monster, dir.path / "crowd/walker.glb"));
    ASSERT_TRUE(findFormat("gltf")->write(monster, dir.path / "crowd/more/runner.glb"));
    ASSERT_TRUE(findFormat("gltf")->write(still, dir.path / "crowd/statue.glb"));

    Counted counted;
    const std::vector<CrowdModelArg> args{{(dir.path / "crowd").string(), {}, {}, {}},
                                          {kMonsterName, {}, {}, {}}};
    Result<CrowdSources> sources = loadCrowdSources(ModelInput{}, args, counted.loader(), counted.report());
    ASSERT_TRUE(sources) << sources.error().message;
    ASSERT_EQ(sources->models.size(), 3u) << "the folder's two animated models and the monster";
    EXPECT_EQ(sources->inputs[0].model, (dir.path / "crowd/more/runner.glb").string());
    EXPECT_EQ(sources->inputs[1].model, (dir.path / "crowd/walker.glb").string());
    EXPECT_EQ(sources->inputs[2].model, kMonsterName);
    for (const auto& model : sources->models)
        EXPECT_EQ(model->clips.size(), monster.clips.size());
    const std::map<std::string, int> once{
        {"runner.glb", 1}, {"walker.glb", 1}, {"statue.glb", 1}, {kMonsterName, 1}};
    EXPECT_EQ(counted.decodes, once);
    ASSERT_EQ(counted.notes.size(), 3u);
    EXPECT_EQ(counted.notes[1].model, "statue.glb");
    EXPECT_FALSE(counted.notes[1].kept);
    EXPECT_EQ(counted.notes[1].why, "no clips");
}

// NWN's animation models (named a_*) lend their clips to the creatures naming them as supermodel
// and are no creature themselves: a folder crowd leaves them out undecoded, naming who inherits
// from them; the creature plays the clips it inherits.
TEST(Sources, AFolderCrowdLeavesNwnAnimationModelsOut) {
    test::TempDir dir("horde_sources");
    HeapMeshAllocator heap;
    const Model monster = buildMonster(heap);
    Model still = buildMonster(heap);
    still.clips.clear();
    ASSERT_TRUE(findFormat("nwn-ascii")->write(monster, dir.path / "a_lend.mdl"));
    ASSERT_TRUE(findFormat("nwn-ascii")->write(still, dir.path / "c_walker.mdl"));
    std::stringstream read;
    read << std::ifstream(dir.path / "c_walker.mdl").rdbuf();
    std::string text = read.str();
    const std::string line = "setsupermodel c_walker NULL";
    ASSERT_NE(text.find(line), std::string::npos) << text.substr(0, 200);
    text.replace(text.find(line), line.size(), "setsupermodel c_walker a_lend");
    std::ofstream(dir.path / "c_walker.mdl") << text;

    Counted counted;
    const std::vector<CrowdModelArg> args{{dir.path.string(), {}, {}, {}}};
    Result<CrowdSources> sources = loadCrowdSources(ModelInput{}, args, counted.loader(), counted.report());
    ASSERT_TRUE(sources) << sources.error().message;
    ASSERT_EQ(sources->models.size(), 1u);
    EXPECT_EQ(sources->inputs[0].model, (dir.path / "c_walker.mdl").string());
    EXPECT_EQ(sources->models[0]->clips.size(), monster.clips.size()) << "inherited from a_lend";
    EXPECT_EQ(counted.decodes, (std::map<std::string, int>{{"c_walker.mdl", 1}}));
    ASSERT_EQ(counted.notes.size(), 2u);
    EXPECT_EQ(counted.notes[0].model, "a_lend.mdl");
    EXPECT_FALSE(counted.notes[0].kept);
    EXPECT_EQ(counted.notes[0].why, "the animations of c_walker.mdl");
}

TEST(Sources, AFolderWithoutAnimatedModelsIsAnError) {
    test::TempDir dir("horde_sources");
    HeapMeshAllocator heap;
    Model still = buildMonster(heap);
    still.clips.clear();
    ASSERT_TRUE(findFormat("gltf")->write(still, dir.path / "statue.glb"));
    Counted counted;
    const std::vector<CrowdModelArg> args{{dir.path.string(), {}, {}, {}}};
    Result<CrowdSources> sources = loadCrowdSources(ModelInput{}, args, counted.loader(), counted.report());
    ASSERT_FALSE(sources);
    EXPECT_NE(sources.error().message.find("no animated model among its 1 models"), std::string::npos)
        << sources.error().message;
}

// The monster stands along the world's Y as it is stored; at file units one model keeps 1, and a
// mixed crowd scales each to stand kCommonHeight tall: 2 / (its bind pose's height).
TEST(Sources, ScalesStandEveryModelOfAMixedCrowdAtOneHeight) {
    HeapMeshAllocator heap;
    Model monster = buildMonster(heap), small = buildMonster(heap, {4, 8, 2});
    std::vector<Model*> models{&monster, &small};
    for (Units units : {Units::File, Units::Auto}) {
        const std::vector<ModelScale> one = crowdScales(std::span(models).first(1), units);
        EXPECT_EQ(one[0].factor, 1.0f);
        EXPECT_FALSE(one[0].common);
    }
    for (Units units : {Units::Height, Units::Auto}) {
        const std::vector<ModelScale> both = crowdScales(models, units);
        for (size_t m = 0; m < models.size(); ++m) {
            const Bounds b = bindPoseBounds(*models[m]);
            EXPECT_TRUE(both[m].common);
            EXPECT_FALSE(both[m].flat);
            EXPECT_FLOAT_EQ(both[m].height, b.max.y - b.min.y);
            EXPECT_FLOAT_EQ(both[m].factor, kCommonHeight / (b.max.y - b.min.y));
        }
    }
}

// Crowds morph what they draw, so loading says nothing of morph targets; converting to a format
// with no place for them says what is lost, once, with the counts.
TEST(Sources, OnlyAConversionThatDropsMorphTargetsWarnsOfThem) {
    HeapMeshAllocator heap;
    const Model morphing = buildMonster(heap, {.morphTargets = 4});
    EXPECT_TRUE(warningsOf(morphing, true).empty());
    EXPECT_TRUE(conversionWarnings(morphing, "gltf").empty());
    const std::vector<std::string> lost = conversionWarnings(morphing, "grimrock");
    ASSERT_EQ(lost.size(), 1u);
    EXPECT_NE(lost[0].find("1 mesh has morph targets, weighted by 1 clip: grimrock has no place for them"),
              std::string::npos)
        << lost[0];
    EXPECT_TRUE(conversionWarnings(buildMonster(heap), "grimrock").empty());
}
