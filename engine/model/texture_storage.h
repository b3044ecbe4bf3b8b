#pragma once
// Where a texture's levels live, the way mesh_storage.h keeps vertex arrays: a reader asks a
// TextureAllocator for storage sized from the file's header, then writes every level once,
// straight into `bytes`. The engine's GPU allocator (vk/gpu_texture.h) hands out mapped memory
// of a buffer the renderer copies into an image; HeapTextureAllocator plain memory for tools
// that never draw.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace horde {

class TextureStorage {
  public:
    virtual ~TextureStorage() = default;
    // Called once the reader has written every level.
    virtual void commit() {}
    std::span<std::byte> bytes;
};

class TextureAllocator {
  public:
    virtual ~TextureAllocator() = default;
    virtual std::unique_ptr<TextureStorage> allocate(uint64_t size, std::string_view name) = 0;
};

class HeapTextureAllocator final : public TextureAllocator {
  public:
    std::unique_ptr<TextureStorage> allocate(uint64_t size, std::string_view name) override;
};

} // namespace horde
