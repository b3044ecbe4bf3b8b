#include "model/material.h"

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

Texture rgba8WithMips(std::string file, uint32_t size, std::vector<uint8_t> texels) {
    Texture t;
    t.file = std::move(file);
    t.format = PixelFormat::RGBA8;
    t.width = t.height = size;
    std::vector<std::byte> bytes;
    for (uint32_t s = size;; s /= 2) {
        t.levels.push_back({s, s, bytes.size(), texels.size()});
        for (uint8_t v : texels) bytes.push_back(std::byte(v));
        if (s <= 1) break;
        const uint32_t h = s / 2;
        std::vector<uint8_t> half(size_t(h) * h * 4);
        for (uint32_t y = 0; y < h; ++y)
            for (uint32_t x = 0; x < h; ++x)
                for (int c = 0; c < 4; ++c) {
                    auto at = [&](uint32_t xx, uint32_t yy) { return uint32_t(texels[(size_t(yy) * s + xx) * 4 + c]); };
                    half[(size_t(y) * h + x) * 4 + c] =
                        uint8_t((at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1) + 2) / 4);
                }
        texels = std::move(half);
    }
    copyLevels(t, bytes);
    return t;
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
