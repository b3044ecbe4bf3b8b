#include "crowd/memory_plan.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace horde {

namespace {

// VkDispatchIndirectCommand and VkDrawIndexedIndirectCommand, which this CPU library cannot name
// (render/crowd_scene.cpp checks them against Vulkan's).
constexpr uint64_t kDispatchBytes = 3 * sizeof(uint32_t);
constexpr uint64_t kDrawCommandBytes = 5 * sizeof(uint32_t);

// Brute force skins and draws its crowd in chunks of instances through one pool of the vertex
// budget: all the work every frame, in memory that does not grow with the crowd. A chunk holds
// a whole number of every mesh's level-0 batch, so no drawn instance straddles two chunks.
uint32_t bruteChunk(const CrowdAsset& asset, uint32_t count, uint64_t vertexBudget) {
    uint32_t align = 1;
    for (const gpu::CullMesh& mesh : asset.cullMeshes)
        align = std::lcm(align, asset.cullLevels[mesh.firstLevel].batch);
    const uint64_t fit = vertexBudget / std::max(asset.vertexStride, 1u) / align * align;
    return uint32_t(std::min<uint64_t>(count, std::max<uint64_t>(fit, align)));
}

} // namespace

uint32_t poseCapacity(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget) {
    if (!budget.lod) return count;
    if (budget.poseBudget > 0) return std::min(count, budget.poseBudget);
    const uint64_t poseBytes = (asset.tables.rest.size() + asset.tables.joints.size()) * sizeof(gpu::Affine) +
                               asset.tables.morphWeightCount * sizeof(uint32_t);
    return uint32_t(std::min<uint64_t>(
        count, std::max<uint64_t>(kPoseBytesPerSlot / std::max<uint64_t>(poseBytes, 1), 1)));
}

uint32_t blendSlots(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget) {
    if (!budget.lod || !budget.blends || asset.tables.clips.size() >= 255 || asset.bucketsPerClip > 64) return 0;
    uint32_t slots = 16;
    while (slots < 256 && slots * 8 < count) slots *= 2;
    return slots;
}

uint64_t poolWant(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget) {
    if (!budget.pool) return 0;
    // Each seen instance skins each mesh once at most, in its own pose or in a shared one, so a
    // frame never skins more than the crowd's level-0 vertices, however many poses could be shared.
    const uint64_t poses = budget.lod ? uint64_t(poseCapacity(asset, count, budget)) + asset.sharedPoses() +
                                            blendSlots(asset, count, budget)
                                      : count;
    return std::min<uint64_t>(poses, count) * asset.vertexStride;
}

PartPlan planPart(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget, uint64_t poolVertices) {
    const bool brute = !budget.lod && !budget.cull;
    const uint64_t lists = asset.listCount(), meshes = asset.cullMeshes.size();
    PartPlan p;
    p.blendSlots = blendSlots(asset, count, budget);
    const uint64_t materials = asset.materialSlots.size(), shared = asset.sharedPoses() + p.blendSlots;
    p.poseCapacity = poseCapacity(asset, count, budget);
    p.sharedCount = uint32_t(shared * meshes * HORDE_MAX_LEVELS);
    p.jobCapacity = p.poseCapacity + (budget.lod ? uint32_t(shared) : 0u);
    p.chunkInstances = brute && budget.pool ? bruteChunk(asset, count, poolVertices) : count;
    if (budget.pool)
        p.vertexCapacity = budget.lod ? std::min(poolVertices, poolWant(asset, count, budget))
                                      : uint64_t(p.chunkInstances) * asset.vertexStride;
    // Draws and fading draws per material slot; entries, skin jobs and fading entries per list.
    p.counterCount = uint32_t(HORDE_COUNT_HEADER + 2 * materials + 3 * lists);
    p.poses = shared + p.poseCapacity;
    p.drawCommands = 2 * materials * asset.commandsPerMesh; // the second run: fading instances' meshes

    PartPlan::Bytes& b = p.bytes;
    b.counters = uint64_t(p.counterCount) * 4;
    // An instance draws each mesh at one level, and one fading, its quad beside them.
    p.fadeCapacity = budget.fades ? std::min(count, kFadingInstances) : 0;
    b.entries = (meshes * count + p.fadeCapacity) * sizeof(gpu::DrawEntry);
    b.sharedRequests = uint64_t(p.sharedCount) * 4;
    b.sharedOffsets = uint64_t(p.sharedCount) * 4;
    b.jobs = lists * p.jobCapacity * sizeof(gpu::SkinJob);
    b.poseInstances = std::max<uint64_t>(p.poseCapacity, shared) * 4;
    b.blendKeys = std::max<uint64_t>(p.blendSlots, 1) * 4;
    b.dispatches = (3 + lists) * kDispatchBytes; // sample, pose, assign, a skin dispatch per list
    b.draws = p.drawCommands * kDrawCommandBytes;
    b.drawInfo = p.drawCommands * sizeof(gpu::DrawInfo);
    b.locals = p.poses * asset.tables.rest.size() * sizeof(gpu::Affine);
    b.palette = p.poses * asset.tables.joints.size() * paletteEntryBytes(budget.skin);
    b.morphWeights = p.poses * asset.tables.morphWeightCount * sizeof(uint32_t);
    b.meshExtras = meshes * sizeof(gpu::MeshExtras);
    // At half precision the positions buffer holds both (HORDE_POOL_WORDS_HALF).
    const bool half = budget.skin.precision == Precision::Fp16;
    b.positions = p.vertexCapacity * (half ? poolVertexBytes(budget.skin) : sizeof(glm::vec3));
    b.normals = half ? 0 : p.vertexCapacity * sizeof(glm::vec3);
    b.worlds = uint64_t(count) * sizeof(gpu::Affine);
    b.visible = uint64_t(count) * sizeof(gpu::VisibleInstance);
    b.demand = 2 * HORDE_DISTANCE_BUCKETS * sizeof(uint32_t);
    // A start and a fill cursor per list and the impostors', a fading entries' cursor per list.
    b.listStarts = (2 * (lists + 1) + lists) * sizeof(uint32_t);
    b.impostorDraw = 4 * sizeof(uint32_t);             // a VkDrawIndirectCommand
    return p;
}

std::vector<PartPlan> planCrowd(std::span<const CrowdAsset* const> assets, std::span<const uint32_t> counts,
                                const CrowdBudget& budget, uint64_t poolBytes) {
    std::vector<uint64_t> wants;
    uint64_t total = 0;
    for (size_t m = 0; m < assets.size(); ++m)
        total += wants.emplace_back(poolWant(*assets[m], counts[m], budget));
    const uint64_t room = poolBytes / poolVertexBytes(budget.skin);
    std::vector<PartPlan> plans;
    for (size_t m = 0; m < assets.size(); ++m) {
        uint64_t pool = budget.vertexBudget;
        if (pool == 0)
            pool = total <= room ? wants[m] : uint64_t(double(room) * double(wants[m]) / double(total));
        plans.push_back(planPart(*assets[m], counts[m], budget, pool));
    }
    return plans;
}

namespace {
struct Named {
    uint64_t bytes;
    const char* what;
};
std::array<Named, 21> named(const PartPlan::Bytes& b) {
    return {{{b.counters, "crowd counters"},
             {b.entries, "draw lists"},
             {b.sharedRequests, "shared pose requests"},
             {b.sharedOffsets, "shared pose vertex offsets"},
             {b.jobs, "skin jobs"},
             {b.poseInstances, "pose instances"},
             {b.dispatches, "dispatch sizes"},
             {b.draws, "draw commands"},
             {b.drawInfo, "draw info"},
             {b.locals, "local transforms"},
             {b.palette, "palettes"},
             {b.positions, "skinned positions"},
             {b.normals, "skinned normals"},
             {b.worlds, "instance transforms"},
             {b.visible, "visible list"},
             {b.demand, "pool demand by distance"},
             {b.listStarts, "list starts"},
             {b.impostorDraw, "impostor draw"},
             {b.blendKeys, "shared blend keys"},
             {b.morphWeights, "morph weights"},
             {b.meshExtras, "mesh extras"}}};
}
} // namespace

uint64_t planBytes(const PartPlan& plan) {
    uint64_t total = 0;
    for (const Named& n : named(plan.bytes))
        total += n.bytes;
    return total;
}

uint64_t largestBuffer(const PartPlan& plan, std::string* what) {
    Named largest{0, ""};
    for (const Named& n : named(plan.bytes))
        if (n.bytes > largest.bytes) largest = n;
    if (what) *what = largest.what;
    return largest.bytes;
}

std::string planProblem(std::span<const PartPlan> plans, std::span<const std::string> names, uint32_t instances,
                        uint32_t slots, uint64_t heapBytes, uint64_t allocationLimit) {
    const std::string crowd = "a crowd of " + std::to_string(instances) + " needs ";
    uint64_t total = 0, most = 0;
    size_t mostPart = 0;
    for (size_t p = 0; p < plans.size(); ++p) {
        std::string what;
        const uint64_t largest = largestBuffer(plans[p], &what);
        if (largest > allocationLimit)
            return crowd + std::to_string(largest >> 20) + " MiB of " + what + " for " + names[p] +
                   " in one buffer; the device allows " + std::to_string(allocationLimit >> 20) +
                   " MiB (turn LOD on, or fewer instances)";
        const uint64_t bytes = planBytes(plans[p]) * slots;
        total += bytes;
        if (bytes > most) most = bytes, mostPart = p;
    }
    if (total <= heapBytes) return {};
    std::string what;
    largestBuffer(plans[mostPart], &what);
    return crowd + std::to_string(total >> 20) + " MiB of per-frame buffers; the device heap has " +
           std::to_string(heapBytes >> 20) + " MiB. The most is " + names[mostPart] + "'s " +
           std::to_string(most >> 20) + " MiB, mostly " + what +
           ": fewer instances (--count), fewer models or fewer clips (--clips) take less";
}

} // namespace horde
