#pragma once
// Every model's impostors in one scene: its posed monster seen from HORDE_IMPOSTOR_AZIMUTHS x
// HORDE_IMPOSTOR_ELEVATIONS view directions (the layers of two array images: premultiplied colour
// with coverage as alpha, and normal with depth) in each of its played shared poses (a tile of a
// layer, at most kImpostorTiles), baked on the GPU the first time a frame may show an impostor,
// from the shared poses' palettes, with four samples a
// texel and a mip chain so that a limb thinner than a texel keeps its coverage; and the descriptor
// set each model's impostor draw samples it through. Nothing here changes per frame.
#include <span>
#include <vector>

#include "render/crowd_model.h"
#include "render/material_table.h"
#include "vk/pipeline.h"
#include "vk/texture.h"

namespace horde {

constexpr VkFormat kImpostorColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr VkFormat kImpostorNormalFormat = VK_FORMAT_R8G8B8A8_UNORM;
// Each atlas texel is the average of this many plain pixels a side, drawn at that multiple of the
// atlas's size and filtered down (impostor_atlas.cpp, BakeTargets).
constexpr uint32_t kImpostorBakeScale = 2;

class ImpostorAtlases {
  public:
    // What one model's atlas is baked from.
    struct Source {
        const CrowdModel* model = nullptr;
        size_t materials = 0;        // the model's index in the scene's material table
        VkDeviceAddress palette = 0; // its shared poses' palettes (the first sharedPoses of a slot's)
        VkDeviceAddress extras = 0;  // that slot's MeshExtras, one per mesh (its morph weights)
    };
    struct Atlas {
        Image color, normalDepth;
        Buffer views; // gpu::ImpostorView per view
        VkDescriptorSet set = VK_NULL_HANDLE;
        uint32_t tilesPerRow = 0, tileRows = 0;
    };

    explicit ImpostorAtlases(Device& device);
    ~ImpostorAtlases();
    ImpostorAtlases(const ImpostorAtlases&) = delete;
    ImpostorAtlases& operator=(const ImpostorAtlases&) = delete;

    // The impostor draw's set 0: the two array images.
    VkDescriptorSetLayout layout() const { return layout_; }
    // Bakes one atlas per source, a submission each, with `bake` (impostor_bake.vert/.frag).
    void bake(std::span<const Source> sources, const Pipeline& bake, const MaterialTable& materials);
    const Atlas& atlas(size_t source) const { return atlases_[source]; }

  private:
    Device& device_;
    Sampler sampler_;
    VkDescriptorSetLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<Atlas> atlases_;
};

} // namespace horde
