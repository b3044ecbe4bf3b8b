#pragma once
// Texture storage in GPU-visible memory: readers write a file's levels straight into a mapped,
// host-visible buffer, which the renderer copies into an image (vkCmdCopyBufferToImage, one
// region per level at TextureLevel::offset), the way meshes are decoded into their buffers.
#include "model/texture_storage.h"
#include "vk/memory.h"

namespace horde {

class GpuTextureStorage final : public TextureStorage {
  public:
    GpuTextureStorage(Device& device, uint64_t size, std::string_view name);
    const Buffer& buffer() const { return buffer_; }

  private:
    Buffer buffer_;
};

class GpuTextureAllocator final : public TextureAllocator {
  public:
    explicit GpuTextureAllocator(Device& device) : device_(device) {}
    std::unique_ptr<TextureStorage> allocate(uint64_t size, std::string_view name) override;

  private:
    Device& device_;
};

} // namespace horde
