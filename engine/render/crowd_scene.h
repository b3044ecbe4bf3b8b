#pragma once
// A crowd is one thing: every model's instances on one grid, culled, given levels and poses, and
// drawn from one camera, GPU-driven. Per frame the CPU records a fixed number of commands per
// model whatever the crowd's size; the GPU decides what is seen and does only that work:
//   cull (frustum, level per mesh, own or shared pose) -> plan (dispatch and draw sizes) ->
//   sample -> pose (own poses only) -> skin (each drawn level's vertices, once per own pose and
//   once per shared pose in use) -> indirect-count draws.
// With culling and LOD both off it is the brute-force baseline: every instance posed, skinned
// and drawn in full, each in its own slot (deterministic, so tests can read results back); a
// crowd larger than the vertex budget is skinned and drawn a chunk of instances at a time.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "render/crowd_grid.h"
#include "render/crowd_model.h"
#include "render/material_table.h"
#include "render/view.h"
#include "vk/pipeline.h"

namespace horde {

enum class Technique {
    Compute, // skin pass writes skinned vertices, the draw reads them
    Vertex   // the vertex shader skins from the palette; no skin pass
};

struct CrowdSettings {
    Technique technique = Technique::Compute;
    bool cull = true;
    bool lod = true;
    float lodErrorPixels = 1.0f;
    bool ground = false;
    uint32_t slots = 2;
    VkFormat colorFormat = VK_FORMAT_R8G8B8A8_SRGB;
    // Skinned-vertex pool, vertices per slot: what LOD draws in a frame, or (brute force) the
    // chunk of instances skinned and drawn at a time.
    uint64_t vertexBudget = 1u << 23;
    uint32_t poseBudget = 4096;       // own poses per frame with LOD on; the rest share
    bool textures = true;             // off: base colours only, no texture uploaded or sampled
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
    double cullMs = 0, sampleMs = 0, poseMs = 0, skinMs = 0, drawMs = 0;
    double totalMs() const { return cullMs + sampleMs + poseMs + skinMs + drawMs; }
};

// What the GPU decided in one frame, read back after it finished.
struct FrameCounts {
    uint32_t instances = 0;
    uint32_t visible = 0;
    std::array<uint32_t, HORDE_MAX_LEVELS> perLevel{}; // drawn (instance, mesh) pairs per level
    uint64_t triangles = 0;
    uint64_t skinnedVertices = 0; // by the skin pass (compute) or the draw (vertex technique)
    uint32_t ownPoses = 0, sharedPoses = 0;
    uint32_t dropped = 0; // (instance, mesh) pairs the vertex pool could not hold
    std::vector<std::vector<uint32_t>> listCounts; // per model, per (mesh, level): instances drawn
};

// Settings for one instance seen whole (render, pose, validate): nothing culled or simplified.
CrowdSettings singleInstanceSettings(uint32_t slots, VkFormat colorFormat = VK_FORMAT_R8G8B8A8_SRGB);

class CrowdScene {
  public:
    // instances[m] stand for models[m]; models must outlive the scene.
    CrowdScene(Device& device, std::span<const CrowdModel* const> models,
               std::vector<std::vector<gpu::InstanceRecord>> instances, const CrowdSettings& settings);
    // `count` instances on one grid shared by every model (instance i is model i % models).
    CrowdScene(Device& device, std::span<const CrowdModel* const> models, uint32_t count, const CrowdSettings& settings);
    ~CrowdScene();
    CrowdScene(const CrowdScene&) = delete;
    CrowdScene& operator=(const CrowdScene&) = delete;

    // One frame into `cmd`: every pass for every model, timestamps around each, the counts
    // copied back. `cull` decides what is seen (default: `view`; a frozen camera to inspect it).
    void recordFrame(VkCommandBuffer cmd, uint32_t slot, float time, const RenderTarget& target, const ViewCamera& view,
                     const ViewCamera* cull = nullptr);
    // The compute passes alone (tests and `horde pose` read their results back); brute force in
    // chunks skins while it draws, so here it samples and poses only.
    void recordAnimation(VkCommandBuffer cmd, uint32_t slot, float time, const ViewCamera& view);
    // After the slot's frame has finished on the GPU.
    std::optional<PassTimes> passTimes(uint32_t slot) const;
    std::optional<FrameCounts> counts(uint32_t slot) const;

    void setLodErrorPixels(float pixels) { settings_.lodErrorPixels = pixels; }
    void setTintLevels(bool tint) { tintLevels_ = tint; }
    const CrowdSettings& settings() const { return settings_; }
    Bounds worldBounds() const { return worldBounds_; }
    // The tallest model's height in the world (a street view's eye height follows it), and where
    // the lowest one's feet are: the ground.
    float modelHeight() const { return modelHeight_; }
    float groundHeight() const { return groundHeight_; }
    uint32_t instanceCount() const;
    // vkCmd* calls in the last recordFrame: the same for any crowd size.
    uint32_t lastCommandCount() const { return commands_; }
    // GPU bytes per frame slot, and per instance of the crowd.
    uint64_t slotBytes() const { return slotBytes_; }
    // The scene's textures and material records (the draw's material table).
    const MaterialTable& materials() const { return *materials_; }

    // Brute force only (cull and LOD off): model `part`'s palettes per instance, and one mesh's
    // skinned positions or normals per instance in source vertex order (recordAnimation's skin
    // pass; a crowd skinned in chunks has none).
    std::vector<gpu::Affine> readPalette(uint32_t slot, uint32_t part);
    std::vector<glm::vec3> readSkinned(uint32_t slot, uint32_t part, uint32_t mesh, bool normals);

  private:
    struct Part;
    struct Slot {
        Buffer globals, countsReadback;
        VkQueryPool queries = VK_NULL_HANDLE;
        mutable std::vector<uint64_t> stamps; // passTimes' scratch, sized once
        bool used = false;
    };
    uint32_t flags() const;
    // Timestamps: before cull, after plan, sample, pose, then after each chunk's skin and draw.
    uint32_t queryCount() const { return 4 + 2 * chunkCount(); }
    uint32_t chunkCount() const;
    void buildChunkDraws(Part& part);
    void beginRendering(VkCommandBuffer cmd, const RenderTarget& target, bool clear);
    void recordGround(VkCommandBuffer cmd, uint32_t slot);
    struct MaterialBinding {
        const Pipeline* pipeline = nullptr;
        uint32_t texture = HORDE_NONE;
        VkCullModeFlags cull = VK_CULL_MODE_FLAG_BITS_MAX_ENUM;
    };
    const Pipeline& bindMaterial(VkCommandBuffer cmd, MaterialBinding& bound, const gpu::MaterialRecord& record);
    gpu::DrawPush drawPush(const Part& part, size_t partIndex, uint32_t slot, uint32_t mesh) const;
    void recordIndirectDraws(VkCommandBuffer cmd, uint32_t slot);
    void recordChunks(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target);
    void writeGlobals(uint32_t slot, const ViewCamera& view, const ViewCamera& cull);
    void recordPasses(VkCommandBuffer cmd, uint32_t slot, float time, bool stamps);
    void recordDraw(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target);
    void computeSharedPoses();
    std::vector<uint8_t> readBuffer(const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size);

    Device& device_;
    CrowdSettings settings_;
    std::vector<Part> parts_;
    std::vector<Slot> slots_;
    Bounds worldBounds_;
    float groundHeight_ = 0.0f, modelHeight_ = 0.0f;
    bool tintLevels_ = false;
    bool chunked_ = false; // brute force through a pool smaller than the crowd
    uint32_t commands_ = 0;
    uint64_t slotBytes_ = 0;
    std::unique_ptr<MaterialTable> materials_;
    Pipeline cullPipeline_, planPipeline_, samplePipeline_, posePipeline_, skinPipeline_, groundPipeline_;
    std::array<Pipeline, 3> drawPipelines_; // by alpha mode: opaque, mask (alpha test), blend
};

} // namespace horde
