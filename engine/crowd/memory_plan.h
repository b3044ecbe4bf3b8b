#pragma once
// What a crowd's per-frame buffers need, worked out before any is allocated: pure arithmetic over
// the models' assets, the instance counts and the budgets, so a crowd that cannot fit is refused
// with a clear message instead of failing halfway through, and the sizes can be tested without a
// device. Per frame slot a model needs buffers sized by what can be drawn, not by crowd x vertices.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "anim/skinning.h"
#include "crowd/crowd_asset.h"

namespace horde {

// Each model's own poses per frame slot may take this much of local transforms and palettes:
// a skeleton of 160 nodes and joints (the standard monster) gets about 4,300 own poses, a small
// one more. The rest share the poses of their time buckets.
constexpr uint64_t kPoseBytesPerSlot = uint64_t(32) << 20;
// Instances of a model that may fade into their impostors in one frame, each taking a draw-list
// entry more for its quad: the band of sizes they fade over holds far fewer on any screen.
constexpr uint32_t kFadingInstances = 1u << 16;
// A skinned vertex in the pool: position and normal (at single precision; half takes half:
// poolVertexBytes, anim/skinning.h).
constexpr uint64_t kPoolVertexBytes = 2 * sizeof(glm::vec3);

struct CrowdBudget {
    bool lod = true, cull = true;
    bool pool = true; // the compute technique: the skin pass writes a vertex pool the draw reads
    // Skinned-vertex pool per model and frame slot, in vertices: what LOD draws in a frame, or
    // (brute force) the chunk of instances skinned and drawn at a time. 0: sized by the models
    // (planCrowd).
    uint64_t vertexBudget = 0;
    // Own poses per model and frame with LOD on; the rest share. 0: by the skeleton
    // (kPoseBytesPerSlot).
    uint32_t poseBudget = 0;
    SkinOptions skin; // palette entries and pooled vertices take its bytes
    bool blends = false; // instances cross-fade (a behaviour): far ones share blends (blendSlots)
    bool fades = false;  // an instance may draw its meshes and an impostor (fading from one to the other)
};

// The shared-blend table's slots for a model of `count` instances: a power of two from 16 to 256,
// about one for every 8 instances; none without LOD or cross-fades, or where a blend's key cannot
// name the clips (255 or more) or buckets (more than 64).
uint32_t blendSlots(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget);

// The own poses a model of `count` instances may have per frame.
uint32_t poseCapacity(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget);
// The most pool a model's frame can use: every own and shared pose at level 0 (brute force:
// every instance), nothing without a pool.
uint64_t poolWant(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget);

// One model's share of a crowd of `count` instances, per frame slot.
struct PartPlan {
    uint32_t poseCapacity = 0;   // own poses (every instance's in brute force)
    uint32_t jobCapacity = 0;    // skin jobs per (mesh, level) list: own poses and shared poses
    uint32_t sharedCount = 0;    // (shared pose or blend, mesh, level) requests
    uint32_t blendSlots = 0;     // the shared-blend table (blendSlots above)
    uint32_t chunkInstances = 0; // brute force: instances skinned and drawn at a time
    uint32_t counterCount = 0;   // the header, two per material slot, three per list
    uint32_t fadeCapacity = 0;   // instances that may fade in a frame (CrowdBudget::fades)
    uint64_t vertexCapacity = 0; // skinned vertices the pool holds (0 without a pool)
    uint64_t poses = 0;          // shared, blend and own poses with locals, palettes and morph weights
    uint64_t drawCommands = 0;   // two per (material slot, level submesh): all, and fading instances
    struct Bytes {
        uint64_t counters, entries, sharedRequests, sharedOffsets, jobs, poseInstances, dispatches, draws,
            drawInfo, locals, palette, positions, normals, worlds, visible, demand, listStarts, impostorDraw,
            blendKeys, morphWeights, meshExtras;
    } bytes{};
    bool chunked(uint32_t count) const { return chunkInstances < count; }
};

// One model's plan with a pool of at most `poolVertices`.
PartPlan planPart(const CrowdAsset& asset, uint32_t count, const CrowdBudget& budget, uint64_t poolVertices);
// Every model's plan: each pool holds what the model can use, or, when all of them would pass
// `poolBytes` per frame slot, a share of it in proportion to what each would use. A budget's
// vertexBudget, when set, is each model's pool instead.
std::vector<PartPlan> planCrowd(std::span<const CrowdAsset* const> assets, std::span<const uint32_t> counts,
                                const CrowdBudget& budget, uint64_t poolBytes);

// The bytes of every slot's buffers together, and the largest one buffer.
uint64_t planBytes(const PartPlan& plan);
uint64_t largestBuffer(const PartPlan& plan, std::string* what = nullptr);

// Empty when `plans` (of the models `names`) fit `slots` times in a heap of `heapBytes` with no
// buffer past `allocationLimit`, else why not and what to change, in words.
std::string planProblem(std::span<const PartPlan> plans, std::span<const std::string> names, uint32_t instances,
                        uint32_t slots, uint64_t heapBytes, uint64_t allocationLimit);

} // namespace horde
