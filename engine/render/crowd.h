#pragma once
// A crowd of one model on the GPU: the animation passes (sample, pose, skin) and one instanced
// draw per submesh. Per-frame CPU work is a fixed number of commands per chunk of instances,
// however many instances a chunk holds; instance data is uploaded once.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "anim/tables.h"
#include "asset/model.h"
#include "shaders/gpu_types.h"
#include "vk/memory.h"
#include "vk/pipeline.h"

namespace horde {

class Device;

enum class Technique {
    Compute, // skin pass writes skinned vertices, the draw reads them
    Vertex   // the vertex shader skins from the palette; no skin pass
};

struct RenderTarget {
    VkImage color = VK_NULL_HANDLE;
    VkImageView colorView = VK_NULL_HANDLE;
    VkImage depth = VK_NULL_HANDLE;
    VkImageView depthView = VK_NULL_HANDLE;
    VkExtent2D extent{};
    VkImageLayout colorLayoutAfter = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
};

struct PassTimes {
    double sampleMs = 0, poseMs = 0, skinMs = 0, drawMs = 0;
    double totalMs() const { return sampleMs + poseMs + skinMs + drawMs; }
};

// Deterministic crowd: a grid of instances with varied clips, phases, speeds and headings.
std::vector<gpu::InstanceRecord> gridInstances(const Model& model, uint32_t count, uint32_t seed = 1);
// One grid shared by several models: instance i is model i % models.size(). One list per model.
std::vector<std::vector<gpu::InstanceRecord>> mixedGrid(std::span<const Model* const> models, uint32_t count,
                                                        uint32_t seed = 1);

class CrowdRenderer {
  public:
    // `maxChunkBytes` caps each per-frame buffer below the device's storage buffer range (0 =
    // the device limit); crowds beyond it are split into chunks of instances.
    CrowdRenderer(Device& device, Model& model, std::vector<gpu::InstanceRecord> instances, Technique technique,
                  uint32_t slots, VkFormat colorFormat, uint64_t maxChunkBytes = 0);
    ~CrowdRenderer();
    CrowdRenderer(const CrowdRenderer&) = delete;
    CrowdRenderer& operator=(const CrowdRenderer&) = delete;

    // Everything for one frame into `cmd`, with timestamps around each pass.
    void recordFrame(VkCommandBuffer cmd, uint32_t slot, float time, const RenderTarget& target,
                     const glm::mat4& viewProjection);
    // Several crowds in one frame: each pass for all of them, then one render pass drawing all.
    // The frame's timestamps land in the first crowd's slot (its passTimes() covers them all).
    static void recordFrame(VkCommandBuffer cmd, uint32_t slot, std::span<CrowdRenderer* const> crowds, float time,
                            const RenderTarget& target, const glm::mat4& viewProjection);
    // The passes alone (tests and `horde pose` read their results back).
    void recordAnimation(VkCommandBuffer cmd, uint32_t slot, float time);
    // After the slot's frame has finished on the GPU.
    std::optional<PassTimes> passTimes(uint32_t slot) const;

    std::vector<gpu::Affine> readLocals(uint32_t slot);
    std::vector<gpu::Affine> readPalette(uint32_t slot);
    // Skinned positions and normals of one mesh for every instance (compute technique).
    std::vector<glm::vec3> readSkinned(uint32_t slot, uint32_t mesh, bool normals);

    Bounds worldBounds() const { return worldBounds_; }
    uint32_t instanceCount() const { return uint32_t(instances_.size()); }
    uint32_t chunkCount() const { return uint32_t(chunks_.size()); }
    uint64_t skinnedVerticesPerFrame() const;
    uint32_t jointCount() const { return uint32_t(tables_.joints.size()); }
    Technique technique() const { return technique_; }
    // GPU bytes each instance needs per frame slot (animation and skinned buffers).
    uint64_t bytesPerInstance() const;

  private:
    struct Chunk {
        uint32_t first = 0, count = 0;
    };
    struct ChunkBuffers {
        Buffer locals, palette;
        std::vector<Buffer> positions, normals, tangents; // per mesh (compute technique)
    };
    struct Slot {
        std::vector<ChunkBuffers> chunks;
        Buffer globals;
        VkQueryPool queries = VK_NULL_HANDLE;
        bool used = false;
    };
    static constexpr uint32_t kQueries = 5;

    void recordSample(VkCommandBuffer cmd, uint32_t slot, float time);
    void recordPose(VkCommandBuffer cmd, uint32_t slot);
    void recordSkin(VkCommandBuffer cmd, uint32_t slot);
    void recordDraw(VkCommandBuffer cmd, uint32_t slot, const glm::mat4& viewProjection);
    static void beginTarget(VkCommandBuffer cmd, const RenderTarget& target);
    static void endTarget(VkCommandBuffer cmd, const RenderTarget& target);
    std::vector<uint8_t> readBuffer(const Buffer& buffer, VkDeviceSize size);
    VkDeviceAddress instanceAddress(const Chunk& chunk) const;

    Device& device_;
    Model& model_;
    Technique technique_;
    AnimationTables tables_;
    std::vector<gpu::InstanceRecord> instances_;
    std::vector<Chunk> chunks_;
    std::vector<glm::vec4> materialColors_; // per (mesh, submesh), flattened
    Bounds worldBounds_;
    glm::mat4 axesToWorld_;
    bool clockwise_;

    Buffer instanceBuffer_, restBuffer_, clipBuffer_, tableBuffer_, channelBuffer_, timeBuffer_, valueBuffer_,
        jointBuffer_;
    std::vector<Slot> slots_;
    Pipeline samplePipeline_, posePipeline_, skinPipeline_, drawPipeline_;
};

} // namespace horde
