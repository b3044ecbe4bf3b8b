#include "vk/gpu_mesh.h"

#include <cstring>
#include <stdexcept>
#include <string>

#include "vk/device.h"

namespace horde {

namespace {
constexpr VkBufferUsageFlags kMeshUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
}

GpuMeshStorage::GpuMeshStorage(Device& device, const MeshLayout& l, std::string_view name) : device_(device) {
    layout = l;
    offsets = streamOffsets(l);
    VkDeviceSize size = std::max<VkDeviceSize>(offsets.total, 16);
    std::string label = "mesh " + std::string(name);
    const bool direct = device.allocator().supports(MemoryUse::Direct) && device.unifiedMemory();
    device_buffer_ = Buffer(device, size, kMeshUsage, direct ? MemoryUse::Direct : MemoryUse::Device, label);
    if (direct && device_buffer_.hostCached()) {
        bytes = {static_cast<std::byte*>(device_buffer_.mapped()), offsets.total};
    } else {
        staging_ =
            Buffer(device, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Readback, label + " staging");
        bytes = {static_cast<std::byte*>(staging_.mapped()), offsets.total};
    }
    arrays = arraysAt(bytes.data(), layout, offsets);
}

void GpuMeshStorage::commit() {
    if (!staging_) return;
    device_.immediate([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, staging_.size()};
        vkCmdCopyBuffer(cmd, staging_.get(), device_buffer_.get(), 1, &region);
    });
}

std::unique_ptr<MeshStorage> GpuMeshAllocator::allocate(const MeshLayout& layout, std::string_view name) {
    return std::make_unique<GpuMeshStorage>(device_, layout, name);
}

const GpuMeshStorage& gpuStorage(Device& device, Mesh& mesh) {
    if (auto* gpu = dynamic_cast<const GpuMeshStorage*>(mesh.storage.get())) return *gpu;
    auto gpu = std::make_unique<GpuMeshStorage>(device, mesh.layout(), mesh.name);
    std::memcpy(gpu->bytes.data(), mesh.storage->bytes.data(), gpu->offsets.total);
    gpu->commit();
    mesh.storage = std::move(gpu);
    return static_cast<const GpuMeshStorage&>(*mesh.storage);
}

void uploadMeshes(Device& device, Model& model) {
    for (Mesh& mesh : model.meshes)
        gpuStorage(device, mesh);
}

GpuMesh gpuMesh(const Mesh& mesh) {
    const auto* gpu = dynamic_cast<const GpuMeshStorage*>(mesh.storage.get());
    if (!gpu)
        throw std::logic_error("mesh '" + mesh.name + "' is not in GPU memory (call uploadMeshes first)");
    GpuMesh out;
    out.buffer = gpu->buffer().get();
    out.positions = gpu->address(gpu->offsets.positions);
    out.normals = gpu->address(gpu->offsets.normals);
    if (mesh.layout().uvSets > 0) out.uv0 = gpu->address(gpu->offsets.uv0);
    if (mesh.layout().colors) out.colors = gpu->address(gpu->offsets.colors);
    if (mesh.skinned()) {
        out.joints = gpu->address(gpu->offsets.joints);
        out.weights = gpu->address(gpu->offsets.weights);
        if (mesh.layout().moreInfluences) out.more = gpu->address(gpu->offsets.more);
    }
    if (mesh.morphTargets() > 0) {
        out.morphPositions = gpu->address(gpu->offsets.morphPositions);
        if (mesh.layout().morphNormals) out.morphNormals = gpu->address(gpu->offsets.morphNormals);
    }
    return out;
}

} // namespace horde
