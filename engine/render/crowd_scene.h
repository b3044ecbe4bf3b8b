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

#include "crowd/cull_reference.h"
#include "anim/skinning.h"
#include "crowd/crowd_settings.h"
#include "crowd/frame_stats.h"
#include "crowd/layout.h"
#include "crowd/view.h"
#include "render/crowd_model.h"
#include "render/crowd_pipelines.h"
#include "render/impostor_atlas.h"
#include "render/material_table.h"
#include "render/pass_statistics.h"

namespace horde {

// What the scene draws into, beside what the user chose of the crowd (crowd/crowd_settings.h).
struct SceneOutput {
    uint32_t slots = 2; // frames in flight
    VkFormat colorFormat = VK_FORMAT_R8G8B8A8_SRGB;
    // Samples per pixel of the pictures drawn (the render target's); resolved before anything reads them.
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
};

struct RenderTarget {
    VkImage color = VK_NULL_HANDLE;
    VkImageView colorView = VK_NULL_HANDLE;
    VkImage depth = VK_NULL_HANDLE; // with the scene's samples per pixel
    VkImageView depthView = VK_NULL_HANDLE;
    // With more than one sample per pixel: the image drawn into, resolved into `color` at the end.
    VkImage samples = VK_NULL_HANDLE;
    VkImageView samplesView = VK_NULL_HANDLE;
    VkExtent2D extent{};
    VkImageLayout colorLayoutAfter = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
};

// What a scene draws with that only its models and its textures setting shape: the material table
// (every texture uploaded) and the impostor atlases (baked once, when first seen). Scenes of the
// same models share them: the profile's techniques, the window's scene made again for a setting.
struct SceneResources {
    std::vector<const CrowdModel*> models; // drawn, in the scene's order
    bool textures = true;
    bool vertexColors = true; // the impostors were baked with glTF's vertex colours
    std::unique_ptr<MaterialTable> materials;
    std::unique_ptr<ImpostorAtlases> impostors; // made by the first scene that draws impostors
    bool impostorsBaked = false;
};

class CrowdScene {
  public:
    // instances[m] stand for models[m]; models must outlive the scene. `resources` (another scene's
    // resources()) are taken where they were made for the same models, textures and vertex colours
    // settings.
    CrowdScene(Device& device, std::span<const CrowdModel* const> models,
               std::vector<std::vector<gpu::InstanceRecord>> instances, const CrowdSettings& settings,
               const SceneOutput& output = {}, std::shared_ptr<SceneResources> resources = {});
    // settings.count instances laid out by settings.layout, shared by every model (instance i is
    // model i % models).
    CrowdScene(Device& device, std::span<const CrowdModel* const> models, const CrowdSettings& settings,
               const SceneOutput& output = {}, std::shared_ptr<SceneResources> resources = {});
    ~CrowdScene();
    CrowdScene(const CrowdScene&) = delete;
    CrowdScene& operator=(const CrowdScene&) = delete;

    // One frame into `cmd`: every pass for every model, timestamps around each, the counts
    // copied back. `cull` decides what is seen (default: `view`; a frozen camera to inspect it).
    void recordFrame(VkCommandBuffer cmd, uint32_t slot, float time, const RenderTarget& target,
                     const ViewCamera& view, const ViewCamera* cull = nullptr);
    // The compute passes alone (tests and `horde pose` read their results back); brute force in
    // chunks skins while it draws, so here it samples and poses only.
    void recordAnimation(VkCommandBuffer cmd, uint32_t slot, float time, const ViewCamera& view);
    // After the slot's frame has finished on the GPU.
    std::optional<PassTimes> passTimes(uint32_t slot) const;
    std::optional<FrameCounts> counts(uint32_t slot) const;
    // Shader invocations per pass, where the device counts them.
    std::optional<PassInvocations> invocations(uint32_t slot) const;
    // The above into `stats`, when the slot had a frame.
    void collectStats(uint32_t slot, FrameStats& stats) const;

    void setTintLevels(bool tint) { tintLevels_ = tint; }
    // Takes `settings` from the next frame on when they differ from the scene's only in what the
    // passes read each frame; false (nothing taken) when the scene must be made again for them.
    bool update(const CrowdSettings& settings);
    const CrowdSettings& settings() const { return settings_; }
    const SceneOutput& output() const { return output_; }
    Bounds worldBounds() const { return worldBounds_; }
    // Where the instances stand: the box of their placements (their feet, not their extent).
    Bounds placementBounds() const { return placementBounds_; }
    // The tallest model's height in the world (a street view's eye height follows it), and where
    // the lowest one's feet are: the ground.
    float modelHeight() const { return modelHeight_; }
    float groundHeight() const { return groundHeight_; }
    uint32_t instanceCount() const;
    // Where `model`'s instances stand (empty when the crowd gave it none).
    std::span<const gpu::InstanceRecord> instancesOf(const CrowdModel* model) const;
    // vkCmd* calls in the last recordFrame: the same for any crowd size.
    uint32_t lastCommandCount() const { return commands_; }
    // GPU bytes per frame slot, and per instance of the crowd.
    uint64_t slotBytes() const { return slotBytes_; }
    // The scene's textures and material records (the draw's material table).
    const MaterialTable& materials() const { return *resources_->materials; }
    const std::shared_ptr<SceneResources>& resources() const { return resources_; }

    // Brute force only (cull and LOD off): model `part`'s palettes per instance, as the pose pass
    // stored them (paletteEntryBytes(settings().skin) per joint), and one mesh's skinned
    // positions or normals per instance in source vertex order (recordAnimation's skin pass,
    // halves read back as floats; a crowd skinned in chunks has none).
    std::vector<uint32_t> readPalette(uint32_t slot, uint32_t part);
    std::vector<glm::vec3> readSkinned(uint32_t slot, uint32_t part, uint32_t mesh, bool normals);
    // Model `part`'s instances as the behaviour pass left them after the slot's last frame.
    std::vector<gpu::InstanceRecord> readInstances(uint32_t part);
    // Model `part`'s draw lists in the slot's last frame: where each starts (every (mesh, level)
    // list, then the impostors'), and the first `count` entries of all of them.
    std::vector<uint32_t> readListStarts(uint32_t slot, uint32_t part);
    std::vector<gpu::DrawEntry> readEntries(uint32_t slot, uint32_t part, uint32_t count);

    // One model's share of the crowd; defined for the scene's own files (crowd_scene_part.h).
    struct Part;

  private:
    struct Slot {
        Buffer globals, countsReadback;
        VkQueryPool queries = VK_NULL_HANDLE;
        mutable std::vector<uint64_t> stamps; // passTimes' scratch, sized once
        PassStatisticsQueries statistics;
        bool used = false;
    };
    void createSlotBuffers(Part& part);
    gpu::CrowdFrame frameRecord(const Part& part, uint32_t slot) const;
    uint32_t flags() const;
    // Timestamps: before cull, after plan, sample, pose, then after each chunk's skin and draw.
    uint32_t queryCount() const { return 4 + 2 * chunkCount(); }
    uint32_t chunkCount() const;
    // Brute force in chunks: the part's level-0 draws, and the records their draws read.
    std::vector<gpu::DrawInfo> buildChunkDraws(Part& part);
    void beginRendering(VkCommandBuffer cmd, const RenderTarget& target, bool clear);
    void recordGround(VkCommandBuffer cmd, uint32_t slot);
    struct MaterialBinding {
        const Pipeline* pipeline = nullptr;
        uint32_t texture = HORDE_NONE;
        VkCullModeFlags cull = VK_CULL_MODE_FLAG_BITS_MAX_ENUM;
    };
    const Pipeline& bindMaterial(VkCommandBuffer cmd, MaterialBinding& bound,
                                 const gpu::MaterialRecord& record, bool fading);
    gpu::DrawPush drawPush(const Part& part, size_t partIndex, uint32_t slot, uint32_t mesh) const;
    gpu::SkinPush skinPush(const Part& part, uint32_t slot, uint32_t list) const;
    gpu::MeshExtras meshExtras(const Part& part, uint32_t slot, uint32_t mesh) const;
    VkDeviceAddress drawnColors(const Part& part, uint32_t mesh) const; // 0: none drawn
    void recordIndirectDraws(VkCommandBuffer cmd, uint32_t slot, VkExtent2D extent);
    void recordMeshDraws(VkCommandBuffer cmd, uint32_t slot, MaterialBinding& bound, bool blended,
                         bool fading);
    void recordImpostors(VkCommandBuffer cmd, uint32_t slot, VkExtent2D extent);
    // The atlases baked the first time a frame's camera may see an instance small enough to be an
    // impostor: a crowd that never shows one never pays for them.
    void bakeImpostorsIfSeen(const ViewCamera& cull);
    bool impostorsBaked() const { return impostors_ && resources_->impostorsBaked; }
    void recordChunks(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target);
    void writeGlobals(uint32_t slot, const ViewCamera& view, const ViewCamera& cull);
    void recordPasses(VkCommandBuffer cmd, uint32_t slot, float time, bool stamps);
    void recordBehaviour(VkCommandBuffer cmd, uint32_t slot, float time);
    void recordDraw(VkCommandBuffer cmd, uint32_t slot, const RenderTarget& target);
    void computeSharedPoses();
    std::vector<uint8_t> readBuffer(const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size);

    Device& device_;
    CrowdSettings settings_;
    SceneOutput output_;
    std::vector<Part> parts_;
    std::vector<Slot> slots_;
    Bounds worldBounds_, placementBounds_;
    float groundHeight_ = 0.0f, modelHeight_ = 0.0f;
    bool tintLevels_ = false;
    bool chunked_ = false; // brute force through a pool smaller than the crowd
    uint32_t commands_ = 0;
    uint64_t slotBytes_ = 0;
    // The time the last frame was recorded at: the behaviour pass advances by the difference.
    float lastTime_ = 0.0f;
    bool started_ = false;
    std::shared_ptr<SceneResources> resources_;
    ImpostorAtlases* impostors_ = nullptr; // resources_'s; null where the scene draws none
    CrowdPipelines pipelines_;
};

} // namespace horde
