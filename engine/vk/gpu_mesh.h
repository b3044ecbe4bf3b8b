#pragma once
// Mesh storage in GPU-visible memory: loaders decode straight into it. On unified memory whose
// mapping is host-cached the spans point into the very buffer the GPU reads; elsewhere into a
// host-cached staging buffer that commit() copies to device-local memory and keeps as the CPU's
// view of the mesh. A load reads back what it decoded (face normals, finalizeMeshes,
// validateModel), and memory that is host-visible but not host-cached is write-combined: every
// read would wait on the bus.
#include "model/model.h"
#include "vk/memory.h"

namespace horde {

class GpuMeshStorage final : public MeshStorage {
  public:
    GpuMeshStorage(Device& device, const MeshLayout& layout, std::string_view name);
    void commit() override;

    const Buffer& buffer() const { return device_buffer_; }
    VkDeviceAddress address(size_t streamOffset) const { return device_buffer_.address() + streamOffset; }

  private:
    Device& device_;
    Buffer device_buffer_;
    Buffer staging_; // empty on unified memory
};

class GpuMeshAllocator final : public MeshAllocator {
  public:
    explicit GpuMeshAllocator(Device& device) : device_(device) {}
    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) override;

  private:
    Device& device_;
};

// The GPU storage of a mesh; meshes built in heap memory are moved to the GPU first.
const GpuMeshStorage& gpuStorage(Device& device, Mesh& mesh);
// Moves every mesh of `model` built in heap memory into GPU memory.
void uploadMeshes(Device& device, Model& model);

// A mesh's streams as the passes reach them: addresses, 0 for a stream the mesh lacks.
struct GpuMesh {
    VkBuffer buffer = VK_NULL_HANDLE; // indices and every stream
    VkDeviceAddress positions = 0, normals = 0, uv0 = 0, colors = 0, joints = 0, weights = 0;
    VkDeviceAddress more = 0; // influences five to eight, where the mesh keeps them
    VkDeviceAddress morphPositions = 0, morphNormals = 0; // where the mesh has morph targets
    bool skinned() const { return joints != 0; }
};

// Throws std::logic_error when the mesh is not in GPU memory (uploadMeshes first).
GpuMesh gpuMesh(const Mesh& mesh);

} // namespace horde
