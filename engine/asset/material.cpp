#include "asset/material.h"

#include <cstring>

namespace horde {

const char* pixelFormatName(PixelFormat format) {
    switch (format) {
    case PixelFormat::RGBA8: return "rgba8";
    case PixelFormat::BGRA8: return "bgra8";
    case PixelFormat::BC1: return "bc1";
    case PixelFormat::BC2: return "bc2";
    case PixelFormat::BC3: return "bc3";
    case PixelFormat::BC4: return "bc4";
    case PixelFormat::BC5: return "bc5";
    case PixelFormat::BC7: return "bc7";
    }
    return "?";
}

uint32_t blockBytes(PixelFormat format) {
    switch (format) {
    case PixelFormat::BC1:
    case PixelFormat::BC4: return 8;
    case PixelFormat::BC2:
    case PixelFormat::BC3:
    case PixelFormat::BC5:
    case PixelFormat::BC7: return 16;
    default: return 0;
    }
}

uint64_t levelBytes(PixelFormat format, uint32_t width, uint32_t height) {
    if (uint32_t block = blockBytes(format)) return uint64_t((width + 3) / 4) * ((height + 3) / 4) * block;
    return uint64_t(width) * height * 4;
}

std::shared_ptr<TextureStorage> allocateLevels(Texture& t, TextureAllocator& allocator, uint64_t size) {
    std::shared_ptr<TextureStorage> storage = allocator.allocate(size, t.file);
    t.bytes = storage->bytes;
    t.storage = storage;
    return storage;
}

void copyLevels(Texture& t, std::span<const std::byte> bytes) {
    HeapTextureAllocator heap;
    std::shared_ptr<TextureStorage> storage = allocateLevels(t, heap, bytes.size());
    if (!bytes.empty()) std::memcpy(storage->bytes.data(), bytes.data(), bytes.size());
    storage->commit();
}

const char* textureSlotName(TextureSlot slot) {
    switch (slot) {
    case TextureSlot::Base: return "base";
    case TextureSlot::Normal: return "normal";
    case TextureSlot::Specular: return "specular";
    case TextureSlot::MetalRough: return "metal_rough";
    case TextureSlot::Emissive: return "emissive";
    }
    return "?";
}

const char* alphaModeName(AlphaMode mode) {
    switch (mode) {
    case AlphaMode::Opaque: return "opaque";
    case AlphaMode::Mask: return "mask";
    case AlphaMode::Blend: return "blend";
    }
    return "?";
}

const TextureRef* Material::find(TextureSlot slot) const {
    for (const TextureRef& t : textures)
        if (t.slot == slot) return &t;
    return nullptr;
}

} // namespace horde
