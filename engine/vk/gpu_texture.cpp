#include "vk/gpu_texture.h"

#include <algorithm>
#include <string>

namespace horde {

// Upload memory is host-coherent: what the reader wrote is what the copy reads, with no flush.
GpuTextureStorage::GpuTextureStorage(Device& device, uint64_t size, std::string_view name)
    : buffer_(device, std::max<VkDeviceSize>(size, 16), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload,
              "texture " + std::string(name)) {
    bytes = {static_cast<std::byte*>(buffer_.mapped()), size_t(size)};
}

std::unique_ptr<TextureStorage> GpuTextureAllocator::allocate(uint64_t size, std::string_view name) {
    return std::make_unique<GpuTextureStorage>(device_, size, name);
}

} // namespace horde
