#pragma once
// What the files of CrowdScene share, and nothing outside them includes: one model's share of the
// crowd (its instances, its memory plan, its buffers per frame slot) and the barrier between
// passes. crowd_scene.cpp builds parts, crowd_passes.cpp records the compute passes,
// crowd_draw.cpp and crowd_chunks.cpp the two draw paths, crowd_readback.cpp reads results back.
#include "crowd/memory_plan.h"
#include "render/crowd_scene.h"
#include "vk/upload.h"

namespace horde {

constexpr VkBufferUsageFlags kIndirectUsage = kStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
constexpr uint32_t kCommandBytes = sizeof(VkDrawIndexedIndirectCommand);

// Every compute pass's writes reach every later pass, indirect argument and vertex read.
void passBarrier(VkCommandBuffer cmd);

struct CrowdScene::Part {
    const CrowdModel* model = nullptr;
    std::vector<gpu::InstanceRecord> instances;
    PartPlan plan;
    Buffer instanceBuffer;
    // Brute force in chunks: each level-0 submesh's draw record (the chunk's draws are direct).
    struct ChunkDraw {
        uint32_t mesh, material, firstIndex, indexCount, batch;
    };
    std::vector<ChunkDraw> chunkDraws;
    Buffer chunkDrawInfo;
    // The crowd's behaviour as this model plays it (crowd/behaviour.h), and each clip's walk speed
    // and cross-fade (ClipMotionRecord).
    BehaviourTables behaviour;
    std::vector<gpu::ClipMotionRecord> clipMotion;
    Buffer behaviourStates, stateClips, transitions, motion;
    struct PerSlot {
        Buffer frame, counters, entries, sharedRequests, sharedOffsets, jobs, poseInstances, dispatches,
            draws, drawInfo, locals, palette, positions, normals, worlds, visible, demand, listStarts,
            impostorDraw, blendKeys, morphWeights;
        Buffer meshExtras; // gpu::MeshExtras per mesh, naming this slot's morph weights
    };
    std::vector<PerSlot> slots;

    const CrowdAsset& asset() const { return model->asset(); }
    uint32_t count() const { return uint32_t(instances.size()); }
    uint32_t meshCount() const { return uint32_t(asset().cullMeshes.size()); }
    uint32_t materialCount() const { return uint32_t(asset().materialSlots.size()); }
    uint32_t listCount() const { return asset().listCount(); }
    // Pose slots: the bucket poses, the shared-blend table, then the own poses.
    uint32_t ownPoseBase() const { return asset().sharedPoses() + plan.blendSlots; }
    bool behaves() const { return !behaviour.states.empty(); }
};

} // namespace horde
