#pragma once
// One material table per scene: every model's material slots as MaterialRecords in one buffer
// the draw indexes by each command's material, and every distinct base-colour texture the scene
// draws as one image (one per texture file however many materials or models share it) with a
// descriptor set of its own, bound for the draws of the materials that use it. Nothing here
// changes after creation: no frame writes a descriptor. (An array of samplers indexed by the
// material would need shaderSampledImageArrayDynamicIndexing, which lavapipe lacks.)
#include <span>
#include <string>
#include <vector>

#include "render/crowd_model.h"
#include "vk/texture.h"

namespace horde {

class MaterialTable {
  public:
    // `textures` off: no texture is uploaded and the array holds only the two built-in images.
    MaterialTable(Device& device, std::span<const CrowdModel* const> models, bool textures);
    ~MaterialTable();
    MaterialTable(const MaterialTable&) = delete;
    MaterialTable& operator=(const MaterialTable&) = delete;

    VkDescriptorSetLayout layout() const { return layout_; }
    // The set of image `texture` (MaterialRecord::texture).
    VkDescriptorSet set(uint32_t texture) const { return sets_[texture]; }
    // Images: the white, the checker and one per texture file drawn.
    uint32_t textureCount() const { return uint32_t(images_.size()); }
    // Where models[m]'s records start (DrawPush::materials).
    VkDeviceAddress records(size_t model) const { return records_.address() + firstRecord_[model] * sizeof(gpu::MaterialRecord); }
    // models[m]'s records, one per material slot (CrowdModel::materialSlots).
    std::span<const gpu::MaterialRecord> modelRecords(size_t model, size_t count) const {
        return std::span(recordList_).subspan(firstRecord_[model], count);
    }
    // Textures found but not drawable on this device, each drawn as the missing-texture checker.
    const std::vector<std::string>& warnings() const { return warnings_; }

  private:
    Device& device_;
    std::vector<Image> images_;
    Sampler sampler_;
    VkDescriptorSetLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
    std::vector<VkDescriptorSet> sets_;
    std::vector<gpu::MaterialRecord> recordList_;
    std::vector<uint32_t> firstRecord_;
    Buffer records_;
    std::vector<std::string> warnings_;
};

} // namespace horde
