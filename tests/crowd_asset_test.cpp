// A crowd's offline preparation (crowd/crowd_asset.h) and its memory plan (crowd/memory_plan.h),
// built and checked on the CPU alone: this binary links no Vulkan (tests/cpu_only.cmake checks
// its symbols and `ldd` when it is linked). Expected values are worked out by hand from a Z-up
// quad of two materials, and from the chains and bounds the CPU jobs give for the monster.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/motion_bounds.h"
#include "anim/reference.h"
#include "crowd/crowd_asset.h"
#include "crowd/memory_plan.h"
#include "lod_checks.h"
#include "model/validate.h"
#include "monster.h"

using namespace horde;
using horde::test::tube;

namespace {

// A Z-up quad 2 wide and 3 tall standing in the file's xz plane, placed by its one node: the
// triangle (0,1,2) is "skin", (0,2,3) is "cloth". One clip moves the node, so the model animates.
Model quad() {
    Model model;
    model.axes.up = Axes::Up::Z;
    model.nodes = {Node{"root"}};
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = 4;
    layout.indexCount = 6;
    layout.uvSets = 0;
    Mesh mesh;
    mesh.name = "quad";
    mesh.storage = heap.allocate(layout, mesh.name);
    const glm::vec3 corners[] = {{0, 0, 0}, {2, 0, 0}, {2, 0, 3}, {0, 0, 3}};
    for (uint32_t v = 0; v < 4; ++v) {
        mesh.arrays().positions[v] = corners[v];
        mesh.arrays().normals[v] = {0, -1, 0};
    }
    const uint32_t indices[] = {0, 1, 2, 0, 2, 3};
    for (uint32_t i = 0; i < 6; ++i)
        mesh.arrays().setIndex(i, indices[i]);
    mesh.submeshes = {{"skin", 0, 3}, {"cloth", 3, 3}};
    model.meshes.push_back(std::move(mesh));
    Clip clip;
    clip.name = "slide";
    clip.duration = 1.0f;
    Channel slide;
    slide.node = 0;
    slide.path = ChannelPath::Translation;
    slide.times = {0.0f, 1.0f};
    slide.values = {glm::vec4(0.0f), glm::vec4(1, 0, 0, 0)};
    clip.channels.push_back(slide);
    model.clips.push_back(clip);
    finalizeMeshes(model);
    return model;
}

const Model& monster() {
    static HeapMeshAllocator heap;
    static const Model model = buildMonster(heap, {});
    return model;
}

} // namespace

// A node scaled by -1 along x mirrors its mesh: its triangles wind the other way on screen, so
// the mesh's front face is the other winding (anim/winding.h); the monster mirrors nothing.
TEST(CrowdAsset, AMirroredMeshTakesTheOtherFrontFace) {
    Model model = quad();
    model.nodes[0].scale = {-1, 1, 1};
    EXPECT_EQ(buildCrowdAsset(model, {.crowd = false}).clockwise, std::vector<bool>{true});
    model.nodes[0].scale = {-1, -1, 1}; // two mirrors: a half turn
    EXPECT_EQ(buildCrowdAsset(model, {.crowd = false}).clockwise, std::vector<bool>{false});
    const CrowdAsset monsterAsset = buildCrowdAsset(monster(), {.crowd = false});
    EXPECT_EQ(monsterAsset.clockwise, std::vector<bool>(monster().meshes.size(), false));
}

TEST(CrowdAsset, AQuadsRecordsAreTheOnesWorkedOutByHand) {
    const Model model = quad();
    const CrowdAsset asset = buildCrowdAsset(model, {.crowd = false, .scale = 2.0f});

    // Z-up (x, y, z) stands as (x, z, -y) in the world, then doubles.
    EXPECT_EQ(asset.worldBindBounds.min, glm::vec3(0, 0, 0));
    EXPECT_EQ(asset.worldBindBounds.max, glm::vec3(4, 6, 0));
    // The bind box's sphere: centre (1, 0, 1.5) -> (2, 3, 0), radius |(2, 0, 3)| / 2, doubled.
    EXPECT_NEAR(asset.worldSphere.x, 2.0f, 1e-6f);
    EXPECT_NEAR(asset.worldSphere.y, 3.0f, 1e-6f);
    EXPECT_NEAR(asset.worldSphere.z, 0.0f, 1e-6f);
    EXPECT_NEAR(asset.worldSphere.w, std::sqrt(13.0f), 1e-6f);
    EXPECT_EQ(asset.clockwise, std::vector<bool>{false});

    ASSERT_EQ(asset.cullMeshes.size(), 1u);
    EXPECT_EQ(asset.cullMeshes[0].firstLevel, 0u);
    EXPECT_EQ(asset.cullMeshes[0].levelCount, 1u);
    EXPECT_EQ(asset.cullMeshes[0].vertexBase, 0u);
    ASSERT_EQ(asset.cullLevels.size(), 1u);
    const gpu::CullLevel& level = asset.cullLevels[0];
    EXPECT_EQ(level.error, 0.0f);
    EXPECT_EQ(level.vertexCount, 4u);
    EXPECT_EQ(level.submeshCount, 2u);
    EXPECT_EQ(level.batch, 64u); // 1024 / 4 vertices, at most 64 instances a draw
    EXPECT_EQ(asset.vertexStride, 4u);
    EXPECT_EQ(asset.commandsPerMesh, 2u); // one level of two submeshes
    EXPECT_EQ(asset.materialSlots, (std::vector<std::string>{"skin", "cloth"}));
    EXPECT_EQ(asset.meshMaterials, std::vector<uint32_t>{0});

    // Each submesh 64 times over, copy k reading vertices 4k .. 4k + 3.
    ASSERT_EQ(asset.levelSubmeshes.size(), 2u);
    EXPECT_EQ(asset.levelSubmeshes[0].firstIndex, 0u);
    EXPECT_EQ(asset.levelSubmeshes[0].indexCount, 3u);
    EXPECT_EQ(asset.levelSubmeshes[0].material, 0u);
    EXPECT_EQ(asset.levelSubmeshes[1].firstIndex, 192u);
    EXPECT_EQ(asset.levelSubmeshes[1].material, 1u);
    const std::vector<uint32_t>& indices = asset.drawIndices[0];
    ASSERT_EQ(indices.size(), 384u);
    for (uint32_t copy = 0; copy < 64; ++copy) {
        EXPECT_EQ(indices[3 * copy + 1], 1 + 4 * copy);
        EXPECT_EQ(indices[192 + 3 * copy + 2], 3 + 4 * copy);
    }

    EXPECT_EQ(asset.tables.rest.size(), 1u);
    EXPECT_EQ(asset.tables.clips.size(), 1u);
    EXPECT_EQ(asset.sharedPoses(), 65u); // 64 buckets of the clip and the bind pose
    ASSERT_EQ(asset.clipSpeed.size(), 1u);
    EXPECT_EQ(asset.clipSpeed[0], 0.0f); // one-instance views measure no motion
}

TEST(CrowdAsset, ACrowdsErrorsSpeedsAndSphereScaleWithTheModel) {
    const Model& model = monster();
    const float scale = 0.25f;
    const CrowdAsset asset = buildCrowdAsset(model, {.scale = scale});
    const MotionBounds motion = motionBounds(model);

    uint32_t stride = 0, list = 0;
    ASSERT_EQ(asset.cullMeshes.size(), model.meshes.size());
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const LodChain chain = buildLodChain(model.meshes[m], model.meshes[m].arrays().positions, {.maxLevels = HORDE_MAX_LEVELS});
        EXPECT_EQ(asset.cullMeshes[m].firstLevel, list);
        EXPECT_EQ(asset.cullMeshes[m].levelCount, chain.levels.size());
        EXPECT_EQ(asset.cullMeshes[m].vertexBase, stride);
        for (size_t l = 0; l < chain.levels.size(); ++l, ++list) {
            EXPECT_FLOAT_EQ(asset.cullLevels[list].error, chain.levels[l].error * scale);
            EXPECT_EQ(asset.cullLevels[list].vertexCount, chain.levels[l].vertexCount);
        }
        EXPECT_EQ(asset.lods[m].order, chain.order);
        stride += chain.levels[0].vertexCount;
    }
    EXPECT_EQ(asset.vertexStride, stride);
    EXPECT_EQ(asset.listCount(), list);
    ASSERT_EQ(asset.clipSpeed.size(), model.clips.size());
    for (size_t c = 0; c < model.clips.size(); ++c)
        EXPECT_FLOAT_EQ(asset.clipSpeed[c], motion.clipSpeed[c] * scale);
    EXPECT_FLOAT_EQ(asset.worldSphere.w, motion.sphere.radius * scale); // the monster's axes are the world's
    EXPECT_EQ(asset.sharedPoses(), uint32_t(model.clips.size()) * 64 + 1);
}

// Every level's draw list reads only vertices of its own batch copies.
TEST(CrowdAsset, DrawIndicesStayInsideTheirLevelsBatch) {
    const CrowdAsset asset = buildCrowdAsset(monster());
    for (const gpu::CullLevel& level : asset.cullLevels)
        for (uint32_t s = 0; s < level.submeshCount; ++s) {
            const gpu::LevelSubmesh& submesh = asset.levelSubmeshes[level.firstSubmesh + s];
            const std::vector<uint32_t>& indices = asset.drawIndices[level.mesh];
            for (uint32_t i = 0; i < submesh.indexCount * level.batch; ++i)
                ASSERT_LT(indices[submesh.firstIndex + i], level.vertexCount * level.batch);
        }
}

TEST(MemoryPlan, LodAndCullingSizeBuffersByTheBudgetsNotTheCrowd) {
    const Model model = quad();
    const CrowdAsset asset = buildCrowdAsset(model, {.crowd = false});
    const PartPlan plan =
        planPart(asset, 10, {.lod = true, .cull = true, .pool = true, .poseBudget = 4}, 1u << 23);
    EXPECT_EQ(plan.poseCapacity, 4u);            // the budget, not the 10 instances
    EXPECT_EQ(plan.sharedCount, 65u * 12u);      // 65 shared poses x 1 mesh x 12 levels
    EXPECT_EQ(plan.jobCapacity, 4u + 65u);       // own poses and shared poses
    EXPECT_EQ(plan.chunkInstances, 10u);         // not brute force: no chunks
    EXPECT_EQ(plan.vertexCapacity, 10u * 4u);    // each instance's level 0 at most, under the 8 M budget
    EXPECT_EQ(plan.counterCount, 32u + 4u + 3u); // header, 2 per material slot (2), 3 per list
    EXPECT_EQ(plan.blendSlots, 0u);              // nothing cross-fades
    EXPECT_EQ(plan.drawCommands, 8u);            // 2 slots x 2 commands a mesh, then fading
    const PartPlan::Bytes& b = plan.bytes;
    EXPECT_EQ(b.counters, 156u);
    EXPECT_EQ(b.entries, 10u * 16u); // one mesh: one entry an instance, whatever its level
    EXPECT_EQ(b.sharedRequests, 780u * 4u);
    EXPECT_EQ(b.jobs, 69u * 8u);
    EXPECT_EQ(b.poseInstances, 65u * 4u);
    EXPECT_EQ(b.dispatches, 4u * 12u); // sample, pose, assign, one skin dispatch for the one list
    EXPECT_EQ(b.draws, 8u * 20u);
    EXPECT_EQ(b.drawInfo, 8u * 24u);
    EXPECT_EQ(b.locals, 69u * 1u * 48u);  // one node
    EXPECT_EQ(b.palette, 69u * 1u * 48u); // the static mesh's one joint
    EXPECT_EQ(b.positions, 40u * 12u);
    EXPECT_EQ(b.normals, 40u * 12u);
    EXPECT_EQ(b.worlds, 10u * 48u);
    EXPECT_EQ(b.visible, 10u * 16u);
    EXPECT_EQ(b.demand, 2u * 256u * 4u);   // wanted and coarsest vertices per distance bucket
    // A start and a fill cursor for the one list and the impostors', a fading cursor for the list.
    EXPECT_EQ(b.listStarts, (2u * 2u + 1u) * 4u);
    EXPECT_EQ(b.impostorDraw, 4u * 4u);    // a VkDrawIndirectCommand
    EXPECT_EQ(b.blendKeys, 4u);            // a word, though no slot uses it
    EXPECT_EQ(b.morphWeights, 0u);         // no morph targets
    EXPECT_EQ(b.meshExtras, 56u);          // the one mesh's MeshExtras
    EXPECT_EQ(planBytes(plan), 156u + 160u + 3120u + 3120u + 552u + 260u + 48u + 160u + 192u + 3312u + 3312u +
                                   480u + 480u + 480u + 160u + 2048u + 20u + 16u + 4u + 0u + 56u);

    // Cross-fading, the shared-blend table takes its 16 slots (the fewest) beside the 65 bucket
    // poses: their palettes, their requests and their skin jobs.
    const PartPlan blends =
        planPart(asset, 10, {.lod = true, .cull = true, .pool = true, .poseBudget = 4, .blends = true}, 1u << 23);
    EXPECT_EQ(blends.blendSlots, 16u);
    EXPECT_EQ(blends.poses, 65u + 16u + 4u);
    EXPECT_EQ(blends.sharedCount, (65u + 16u) * 12u);
    EXPECT_EQ(blends.jobCapacity, 4u + 65u + 16u);
    EXPECT_EQ(blends.bytes.blendKeys, 16u * 4u);

    // Fading into impostors, an instance may draw its mesh and its quad: two entries; past
    // kFadingInstances, one (the rest draw their meshes alone).
    const CrowdBudget fading{.lod = true, .cull = true, .pool = true, .poseBudget = 4, .fades = true};
    const PartPlan fades = planPart(asset, 10, fading, 1u << 23);
    EXPECT_EQ(fades.fadeCapacity, 10u);
    EXPECT_EQ(fades.bytes.entries, 10u * 2u * 16u);
    const PartPlan many = planPart(asset, 100000, fading, 1u << 23);
    EXPECT_EQ(many.fadeCapacity, 65536u);
    EXPECT_EQ(many.bytes.entries, (100000u + 65536u) * 16u);

    // Fifteen morph targets: every pose (bucket, blend and own) holds the one mesh's run, a count
    // and fifteen (target, weight) pairs: 31 words.
    HeapMeshAllocator heap;
    const CrowdAsset morphing = buildCrowdAsset(buildMonster(heap, {.morphTargets = 15}), {.crowd = false});
    const PartPlan withMorphs =
        planPart(morphing, 10, {.lod = true, .cull = true, .pool = true, .poseBudget = 4, .blends = true}, 1u << 23);
    EXPECT_EQ(withMorphs.bytes.morphWeights, withMorphs.poses * 31u * 4u);
}

TEST(MemoryPlan, BruteForcePastThePoolGoesInChunksOfWholeBatches) {
    const CrowdAsset asset = buildCrowdAsset(quad(), {.crowd = false});
    // 130 instances of 4 vertices fit; whole batches of 64 make that 128.
    const CrowdBudget budget{.lod = false, .cull = false, .pool = true, .vertexBudget = 4 * 130};
    const PartPlan plan = planPart(asset, 200, budget, budget.vertexBudget);
    EXPECT_EQ(plan.chunkInstances, 128u);
    EXPECT_TRUE(plan.chunked(200));
    EXPECT_EQ(plan.poseCapacity, 200u); // every instance posed
    EXPECT_EQ(plan.vertexCapacity, 128u * 4u);
    // A pool smaller than one batch still holds one.
    EXPECT_EQ(planPart(asset, 200, {.lod = false, .cull = false, .pool = true}, 8).chunkInstances, 64u);
    // The vertex technique skins nothing into a pool.
    EXPECT_EQ(planPart(asset, 200, {.lod = false, .cull = false, .pool = false}, 1u << 23).vertexCapacity,
              0u);
}

TEST(MemoryPlan, ACrowdThatCannotFitIsRefusedInWords) {
    const CrowdAsset asset = buildCrowdAsset(quad(), {.crowd = false});
    const PartPlan plan = planPart(asset, 1000, {.lod = false, .cull = false, .pool = false}, 0);
    const PartPlan plans[] = {plan};
    const std::string names[] = {"quad.gltf"};
    EXPECT_EQ(planProblem(plans, names, 1000, 2, 1ull << 30, 1ull << 30), "");
    std::string largest;
    const uint64_t bytes = largestBuffer(plan, &largest);
    // 65 shared and 1,000 own poses of one node's 48-byte transform: the first of the two largest.
    EXPECT_EQ(largest, "local transforms");
    EXPECT_EQ(bytes, 1065u * 48u);
    EXPECT_NE(planProblem(plans, names, 1000, 2, 1ull << 30, bytes - 1).find("of local transforms for quad.gltf in one buffer"),
              std::string::npos);
    EXPECT_NE(
        planProblem(plans, names, 1000, 2, 2 * planBytes(plan) - 1, 1ull << 30).find("MiB of per-frame buffers"),
        std::string::npos);
    EXPECT_EQ(planProblem(plans, names, 1000, 2, 2 * planBytes(plan), 1ull << 30), "");
}

// Without budgets, a model's own poses come from its skeleton and its pool from what it can use,
// and models share the memory given to pools in proportion to that.
TEST(MemoryPlan, BudgetsComeFromTheModelsWhenNotGiven) {
    const CrowdAsset quadAsset = buildCrowdAsset(quad(), {.crowd = false});
    const CrowdBudget automatic{.lod = true, .cull = true, .pool = true};
    // One node and one joint: 96 bytes of transforms a pose, so 32 MiB holds 349,525 poses.
    EXPECT_EQ(poseCapacity(quadAsset, 1000000, automatic), 349525u);
    EXPECT_EQ(poseCapacity(quadAsset, 10, automatic), 10u);
    // A frame skins each of the 10 instances' meshes once at most, own pose or shared, however
    // many of the 65 shared poses there are: 10 poses at level 0, 4 vertices each.
    EXPECT_EQ(poolWant(quadAsset, 10, automatic), 10u * 4u);

    const CrowdAsset monsterAsset = buildCrowdAsset(monster());
    const uint64_t monsterPose = (monsterAsset.tables.rest.size() + monsterAsset.tables.joints.size()) * 48;
    const uint32_t monsterPoses = poseCapacity(monsterAsset, 100000, automatic);
    EXPECT_EQ(monsterPoses, uint32_t(kPoseBytesPerSlot / monsterPose));
    const CrowdAsset* assets[] = {&quadAsset, &monsterAsset};
    const uint32_t counts[] = {10, 100000};
    const uint64_t quadWant = poolWant(quadAsset, 10, automatic),
                   monsterWant = poolWant(monsterAsset, 100000, automatic);
    EXPECT_EQ(monsterWant, (uint64_t(monsterPoses) + monsterAsset.sharedPoses()) * monsterAsset.vertexStride);
    // Room for everything: each pool holds what it can use.
    std::vector<PartPlan> roomy =
        planCrowd(assets, counts, automatic, (quadWant + monsterWant) * kPoolVertexBytes);
    EXPECT_EQ(roomy[0].vertexCapacity, quadWant);
    EXPECT_EQ(roomy[1].vertexCapacity, monsterWant);
    // Room for a third: a third each.
    const uint64_t third = (quadWant + monsterWant) / 3;
    std::vector<PartPlan> tight = planCrowd(assets, counts, automatic, third * kPoolVertexBytes);
    EXPECT_NEAR(double(tight[0].vertexCapacity), double(quadWant) / 3.0, 1.0);
    EXPECT_NEAR(double(tight[1].vertexCapacity), double(monsterWant) / 3.0, 1.0);
    // A budget given is each model's own pool, of which the quad's 10 instances use 40 vertices.
    std::vector<PartPlan> given =
        planCrowd(assets, counts, {.lod = true, .cull = true, .pool = true, .vertexBudget = 100}, 0);
    EXPECT_EQ(given[0].vertexCapacity, 40u);
    EXPECT_EQ(given[1].vertexCapacity, 100u);
}

// A model's per-frame memory follows its instances, not its clips alone: the monster built for 8
// instances has 16 buckets a clip (sharedBuckets), so 2 x 16 + 1 shared poses; with 8 own poses,
// its transforms and palettes, 48 bytes a node or joint, and a pool of 8 instances' vertices.
TEST(MemoryPlan, AFewInstancesTakeAFewInstancesMemory) {
    const CrowdAsset asset = buildCrowdAsset(monster(), {.instances = 8});
    ASSERT_EQ(asset.tables.clips.size(), 2u);
    const CrowdBudget automatic{.lod = true, .cull = true, .pool = true};
    const PartPlan plan = planPart(asset, 8, automatic, poolWant(asset, 8, automatic));
    const uint64_t poses = 2 * 16 + 1 + 8, nodes = asset.tables.rest.size(), joints = asset.tables.joints.size();
    EXPECT_EQ(plan.poses, poses);
    EXPECT_EQ(plan.bytes.locals, poses * nodes * 48);
    EXPECT_EQ(plan.bytes.palette, poses * joints * 48);
    EXPECT_EQ(plan.vertexCapacity, 8u * asset.vertexStride);
    EXPECT_EQ(plan.bytes.positions, 8u * asset.vertexStride * 12);
    EXPECT_EQ(plan.bytes.sharedRequests, (2 * 16 + 1) * asset.cullMeshes.size() * HORDE_MAX_LEVELS * 4);
    // Built for a crowd of any size it keeps 64 buckets, four times the shared poses.
    const CrowdAsset most = buildCrowdAsset(monster());
    EXPECT_EQ(planPart(most, 8, automatic, poolWant(most, 8, automatic)).poses, 2u * 64u + 1u + 8u);
}

// A crowd that cannot fit says which model takes the most and what to change.
TEST(MemoryPlan, ARefusalNamesTheLargestModelAndWhatToChange) {
    const CrowdAsset asset = buildCrowdAsset(monster(), {.instances = 8});
    const CrowdBudget automatic{.lod = true, .cull = true, .pool = true};
    const PartPlan small = planPart(asset, 8, automatic, poolWant(asset, 8, automatic)),
                   large = planPart(asset, 800, automatic, poolWant(asset, 800, automatic));
    const PartPlan plans[] = {small, large};
    const std::string names[] = {"small.glb", "large.glb"};
    const std::string problem = planProblem(plans, names, 808, 2, planBytes(small) + planBytes(large), 1ull << 40);
    EXPECT_NE(problem.find("The most is large.glb's"), std::string::npos) << problem;
    EXPECT_NE(problem.find("fewer instances (--count)"), std::string::npos) << problem;
    EXPECT_EQ(planProblem(plans, names, 808, 2, 2 * (planBytes(small) + planBytes(large)), 1ull << 40), "");
}

// A mesh is drawn through its node and bind transforms, and its levels' errors are what the cull
// pass compares with pixels: they must be measured where the mesh is drawn. The tube (radius 1,
// 8 long) stored 128 times smaller under a root scaled 128 times (RobotExpressive's armature), or
// 128 times larger under one scaled 1/128 (the Soldier's), the root also turned half a turn about
// y and moved 3 along x, so each vertex p is drawn at (3 - p.x, p.y, -p.z), worked out by hand
// (every factor a power of two, so exactly). Its levels must be those of the tube built where it
// is drawn, errors and all, each error what brute force measures on the drawn tube; skinned (joint b
// moved and unbound by the same factor), and static (placed by the root itself).
TEST(CrowdAsset, LevelErrorsAreMeasuredWhereNodesAndBindTransformsDrawTheMesh) {
    for (bool skinned : {true, false})
        for (float factor : {128.0f, 1.0f / 128.0f}) {
            Model model = tube(skinned);
            std::vector<glm::vec3> drawn;
            for (glm::vec3& p : model.meshes[0].arrays().positions) {
                drawn.push_back({3.0f - p.x, p.y, -p.z});
                p /= factor;
            }
            model.nodes[0].scale = glm::vec3(factor);
            model.nodes[0].rotation = glm::quat(0.0f, 0.0f, 1.0f, 0.0f);
            model.nodes[0].translation = glm::vec3(3, 0, 0);
            model.nodes[2].translation /= factor;
            model.skins[0].inverseBind[1] = glm::translate(glm::mat4(1.0f), -model.nodes[2].translation);
            const std::string label = std::string(skinned ? "skinned" : "static") + " x" + std::to_string(factor);

            const CrowdAsset asset = buildCrowdAsset(model, {});
            const Mesh& mesh = model.meshes[0];
            const LodChain expected = buildLodChain(mesh, drawn);
            ASSERT_GE(expected.levels.size(), 3u) << label;
            ASSERT_EQ(asset.lods[0].levels.size(), expected.levels.size()) << label;
            EXPECT_EQ(asset.lods[0].order, expected.order) << label;
            EXPECT_EQ(asset.lods[0].indices, expected.indices) << label;
            // The drawn tube as a mesh of its own, for brute force to measure.
            Model atDrawn = tube(skinned);
            for (size_t v = 0; v < drawn.size(); ++v)
                atDrawn.meshes[0].arrays().positions[v] = drawn[v];
            for (size_t l = 1; l < expected.levels.size(); ++l) {
                EXPECT_FLOAT_EQ(asset.cullLevels[l].error, expected.levels[l].error) << label << " level " << l;
                EXPECT_GE(double(asset.cullLevels[l].error),
                          test::bruteForceError(atDrawn.meshes[0], expected, l) * (1.0 - 1e-5))
                    << label << " level " << l;
            }
            EXPECT_GT(asset.cullLevels[expected.levels.size() - 1].error, 0.05f)
                << label << ": the coarsest level of a tube of radius 1 (drawn, not stored, units)";
        }
}

// A shared blend (shaders/cull.comp) rounds both clip times to the middle of their buckets and the
// fade's weight to the middle of its step. Over random fades of the monster, that moves no vertex
// further from the true blend than the cull pass allows for it: half a bucket at the faster clip's
// speed, plus blendError for the weight.
TEST(CrowdAsset, ASharedBlendStaysWithinItsBound) {
    const Model& model = monster();
    const CrowdAsset asset = buildCrowdAsset(model, {});
    ASSERT_GT(asset.blendError, 0.0f);
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const uint32_t buckets = asset.bucketsPerClip;
    auto bucketMiddle = [&](int32_t clip, double t) {
        const double d = model.clips[size_t(clip)].duration;
        const uint32_t b = std::min(uint32_t(t / d * buckets), buckets - 1);
        return double(float(d) * (float(b) + 0.5f) / float(buckets));
    };
    double worstShare = 0.0;
    for (int k = 0; k < 40; ++k) {
        const int32_t a = int32_t(rng() % model.clips.size()), b = int32_t(rng() % model.clips.size());
        const double ta = unit(rng) * model.clips[size_t(a)].duration, tb = unit(rng) * model.clips[size_t(b)].duration;
        const double w = unit(rng);
        const Blend exactBlend{b, tb, w}, sharedBlend{b, bucketMiddle(b, tb),
                                                      (std::min(std::floor(w * HORDE_BLEND_STEPS), HORDE_BLEND_STEPS - 1.0) + 0.5) /
                                                          HORDE_BLEND_STEPS};
        const std::vector<PosedMesh> exact = poseModel(model, Playback{a, ta, 0.0, true}, 0.0, {}, &exactBlend);
        const std::vector<PosedMesh> shared =
            poseModel(model, Playback{a, bucketMiddle(a, ta), 0.0, true}, 0.0, {}, &sharedBlend);
        double moved = 0.0;
        for (size_t m = 0; m < exact.size(); ++m)
            for (size_t v = 0; v < exact[m].positions.size(); ++v)
                moved = std::max(moved, glm::length(exact[m].positions[v] - shared[m].positions[v]));
        const double timeError = std::max(double(asset.clipSpeed[size_t(a)]) * model.clips[size_t(a)].duration,
                                          double(asset.clipSpeed[size_t(b)]) * model.clips[size_t(b)].duration) /
                                 (2.0 * buckets);
        const double bound = timeError + asset.blendError;
        EXPECT_LE(moved, bound) << "clips " << a << " at " << ta << " and " << b << " at " << tb << ", weight " << w;
        worstShare = std::max(worstShare, moved / bound);
    }
    std::printf("shared blends: worst %.0f%% of their bound\n", 100.0 * worstShare);
}

// The impostor bake draws the poses of the clips a crowd plays and the bind pose, nothing else,
// into an atlas of as many tiles:
// the monster's walk is clip 0 and its attack clip 1, four buckets each, the bind pose 8.
TEST(CrowdAsset, OnlyThePlayedClipsPosesAreBaked) {
    const auto runs = [](std::vector<std::string> clips) {
        const CrowdAsset asset = buildCrowdAsset(monster(), {.bucketsPerClip = 4, .clips = std::move(clips)});
        std::vector<std::pair<uint32_t, uint32_t>> out;
        for (const CrowdAsset::PoseRun& r : asset.playedPoses()) out.emplace_back(r.first, r.count);
        return out;
    };
    using Runs = std::vector<std::pair<uint32_t, uint32_t>>;
    EXPECT_EQ(runs({}), (Runs{{0, 9}}));
    EXPECT_EQ(runs({"attack"}), (Runs{{4, 5}}));
    EXPECT_EQ(runs({"walk"}), (Runs{{0, 4}, {8, 1}}));
    EXPECT_EQ(runs({"@run"}), (Runs{{8, 1}})) << "a pattern that matches nothing leaves the bind pose";
    // The atlas holds those alone, one tile each in pose order.
    const CrowdAsset walk = buildCrowdAsset(monster(), {.bucketsPerClip = 4, .clips = {"walk"}});
    EXPECT_EQ(walk.impostorTiles, 5u);
    EXPECT_EQ(walk.poseTiles, (std::vector<uint32_t>{0, 1, 2, 3, 0, 0, 0, 0, 4}));
    EXPECT_EQ(walk.impostorStride, 1u);
}

// More played poses than an atlas holds (kImpostorTiles, 256) share tiles: both of the monster's
// clips at 256 buckets would take 2 x 256 + 1 = 513 tiles, 2 x 128 + 1 = 257 at every second pose,
// so every fourth pose has one: 2 x 64 + 1 = 129, the bind pose (512) the last.
TEST(CrowdAsset, AnAtlasHoldsAtMostItsTiles) {
    const CrowdAsset asset = buildCrowdAsset(monster(), {.bucketsPerClip = 256});
    ASSERT_EQ(asset.sharedPoses(), 513u);
    EXPECT_EQ(asset.impostorStride, 4u);
    EXPECT_EQ(asset.impostorTiles, 129u);
    for (uint32_t pose : {0u, 1u, 3u}) EXPECT_EQ(asset.poseTiles[pose], 0u) << pose;
    EXPECT_EQ(asset.poseTiles[4], 1u);
    EXPECT_EQ(asset.poseTiles[255], 63u);
    EXPECT_EQ(asset.poseTiles[256], 64u);
    EXPECT_EQ(asset.poseTiles[511], 127u);
    EXPECT_EQ(asset.poseTiles[512], 128u);
}

// A crowd's shared poses follow its instances: about four an instance's bucket, from 16 a clip
// (impostors keep moving) to 64; unknown instances take the most.
TEST(CrowdAsset, TimeBucketsFollowTheInstances) {
    EXPECT_EQ(sharedBuckets(0, 100), 64u);
    EXPECT_EQ(sharedBuckets(27, 100), 16u);     // 108 / 100 rounds up to 2: the floor
    EXPECT_EQ(sharedBuckets(1024, 100), 64u);   // 41: the next power of two
    EXPECT_EQ(sharedBuckets(500, 100), 32u);    // 20
    EXPECT_EQ(sharedBuckets(100000, 3), 64u);
    EXPECT_EQ(buildCrowdAsset(monster(), {.instances = 27}).bucketsPerClip, 64u) << "2 clips: 54 a clip";
    EXPECT_EQ(buildCrowdAsset(monster(), {.instances = 8}).bucketsPerClip, 16u);
    EXPECT_EQ(buildCrowdAsset(monster(), {.bucketsPerClip = 4, .instances = 8}).bucketsPerClip, 4u);
}
