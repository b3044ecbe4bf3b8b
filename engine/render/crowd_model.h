#pragma once
// One model made ready for crowds, once: its animation tables, every mesh's LOD chain (level
// index buffers and the vertex order they share), the sphere every pose fits in, and the tables
// the cull and plan passes read. Nothing here changes per frame. The model's meshes must already
// live in GPU memory (uploadMeshes, or a loader given the GPU allocator).
#include <span>
#include <string_view>
#include <vector>

#include "anim/motion_bounds.h"
#include "anim/tables.h"
#include "model/lod.h"
#include "model/model.h"
#include "shaders/gpu_types.h"
#include "vk/memory.h"

namespace horde {

class Device;

constexpr VkBufferUsageFlags kStorageUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// A table the GPU only reads, in device memory (written in place where memory is unified).
Buffer uploadTable(Device& device, std::span<const std::byte> bytes, VkBufferUsageFlags usage, std::string_view name);
template <class T> Buffer uploadTable(Device& device, const std::vector<T>& data, std::string_view name,
                                      VkBufferUsageFlags usage = kStorageUsage) {
    return uploadTable(device, std::as_bytes(std::span(data)), usage, name);
}

// Moves meshes built in heap memory into GPU memory; meshes already there are left alone.
void uploadMeshes(Device& device, Model& model);

struct CrowdModelOptions {
    // Off for one-instance views (render, pose, validate): level 0 alone and the bind pose's
    // sphere, since nothing is culled or simplified there.
    bool crowd = true;
    LodOptions lod{.maxLevels = HORDE_MAX_LEVELS};
    uint32_t bucketsPerClip = 64; // shared poses per clip (animation LOD)
    // World units per model unit, after the axes: a crowd of models from several sources sizes
    // them alike. Scales the placement, and the LOD errors and clip speeds culling compares.
    float scale = 1.0f;
};

class CrowdModel {
  public:
    CrowdModel(Device& device, const Model& model, const CrowdModelOptions& options = {});

    const Model& model() const { return model_; }
    const AnimationTables& tables() const { return tables_; }
    const std::vector<LodChain>& lods() const { return lods_; }
    const MotionBounds& motion() const { return motion_; }
    const glm::mat4& axesToWorld() const { return axesToWorld_; }
    bool clockwise() const { return clockwise_; }
    // The motion sphere in world axes (before each instance's placement).
    glm::vec4 worldSphere() const { return worldSphere_; }
    // The bind pose's box in world axes (before placement): where feet stand, how tall it is.
    const Bounds& worldBindBounds() const { return worldBindBounds_; }
    uint32_t bucketsPerClip() const { return bucketsPerClip_; }
    uint32_t sharedPoses() const { return uint32_t(model_.clips.size()) * bucketsPerClip_ + 1; }
    uint32_t listCount() const { return uint32_t(cullLevels_.size()); }
    uint32_t commandsPerMesh() const { return commandsPerMesh_; }
    uint32_t levelVertexStride() const { return vertexStride_; } // level-0 vertices of every mesh
    const std::vector<gpu::CullMesh>& cullMeshes() const { return cullMeshes_; }
    const std::vector<gpu::CullLevel>& cullLevels() const { return cullLevels_; }
    const std::vector<gpu::LevelSubmesh>& levelSubmeshes() const { return levelSubmeshes_; }
    // The material name of each material slot (LevelSubmesh::material): every mesh's submeshes in
    // order. The scene's MaterialTable turns them into records.
    const std::vector<std::string>& materialSlots() const { return materialSlots_; }
    // Each mesh's first material slot; its slots are one per submesh.
    const std::vector<uint32_t>& meshMaterials() const { return meshMaterials_; }

    struct Buffers {
        Buffer rest, clips, channelTable, channels, times, values, joints, clipSpeed, meshes, levels, submeshes, axes;
        std::vector<Buffer> lodIndices, lodOrder; // per mesh
    };
    const Buffers& buffers() const { return buffers_; }

  private:
    const Model& model_;
    AnimationTables tables_;
    std::vector<LodChain> lods_;
    MotionBounds motion_;
    glm::mat4 axesToWorld_;
    bool clockwise_;
    glm::vec4 worldSphere_;
    Bounds worldBindBounds_;
    uint32_t bucketsPerClip_;
    uint32_t commandsPerMesh_ = 1;
    uint32_t vertexStride_ = 0;
    std::vector<gpu::CullMesh> cullMeshes_;
    std::vector<gpu::CullLevel> cullLevels_;
    std::vector<gpu::LevelSubmesh> levelSubmeshes_;
    std::vector<std::string> materialSlots_;
    std::vector<uint32_t> meshMaterials_;
    Buffers buffers_;
};

} // namespace horde
