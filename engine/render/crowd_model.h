#pragma once
// One model's crowd asset (crowd/crowd_asset.h) in GPU memory: its tables uploaded in one batch,
// and its meshes' streams as the passes reach them. Nothing here changes per frame. The model's
// meshes must already live in GPU memory (uploadMeshes, or a loader given the GPU allocator).
#include <memory>
#include <span>
#include <vector>

#include "crowd/crowd_asset.h"
#include "vk/gpu_mesh.h"
#include "vk/memory.h"

namespace horde {

class Device;

// The front face mesh `mesh` of the asset is drawn with (CrowdAsset::clockwise).
inline VkFrontFace frontFace(const CrowdAsset& asset, uint32_t mesh) {
    return asset.clockwise[mesh] ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
}

class CrowdModel {
  public:
    CrowdModel(Device& device, const Model& model, CrowdAsset asset);
    CrowdModel(Device& device, const Model& model, const CrowdAssetOptions& options = {})
        : CrowdModel(device, model, buildCrowdAsset(model, options)) {}

    const Model& model() const { return model_; }
    const CrowdAsset& asset() const { return asset_; }
    const std::vector<GpuMesh>& meshes() const { return meshes_; }

    struct Buffers {
        Buffer rest, clips, channelTable, channels, times, values, joints, clipSpeed, meshes, levels,
            submeshes, axes, fadeFloors, poseTiles;
        // Morph targets' tables and the record that names them (gpu::MorphTables); empty buffers
        // and no record where the model has none.
        Buffer morphMeshes, morphChannelTable, morphValues, morphTables;
        std::vector<Buffer> lodIndices, lodOrder; // per mesh
    };
    const Buffers& buffers() const { return buffers_; }

  private:
    const Model& model_;
    CrowdAsset asset_;
    std::vector<GpuMesh> meshes_;
    Buffers buffers_;
};

// Loaded models made ready for crowds: their clips' root motion taken out of them
// (anim/root_motion.h: the crowd moves the instances instead), their meshes moved into GPU memory
// where a loader left them elsewhere, then each one's CrowdModel built with `options[m]` (its
// scale, the clips it plays, how many instances it has).
std::vector<std::unique_ptr<CrowdModel>> crowdModels(Device& device, std::span<Model* const> models,
                                                     std::span<const CrowdAssetOptions> options);
std::vector<const CrowdModel*> pointers(const std::vector<std::unique_ptr<CrowdModel>>& models);

} // namespace horde
