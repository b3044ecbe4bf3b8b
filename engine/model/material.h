#pragma once
// Materials and the textures they name. A texture is kept as its file stores it (block-compressed
// data stays compressed) in storage from a TextureAllocator (texture_storage.h), so the GPU takes
// its levels as they are, the way meshes are uploaded.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "model/texture_storage.h"

namespace horde {

// How texels are stored. RGBA8/BGRA8: 4 bytes a texel, rows top-down; BC*: 4x4 blocks of 8 (BC1,
// BC4) or 16 bytes, in rows of blocks top-down (the DirectX layout Vulkan shares).
enum class PixelFormat : uint8_t { RGBA8, BGRA8, BC1, BC2, BC3, BC4, BC5, BC7 };

const char* pixelFormatName(PixelFormat format); // "rgba8", "bc1", ...
uint32_t blockBytes(PixelFormat format);          // per 4x4 block; 0 for uncompressed formats
// Bytes of one level of `width` x `height` texels.
uint64_t levelBytes(PixelFormat format, uint32_t width, uint32_t height);

struct TextureLevel {
    uint32_t width = 0, height = 0;
    uint64_t offset = 0, size = 0; // into Texture::bytes
};

// One texture file, decoded as far as the GPU needs: levels largest first, each within `bytes`.
struct Texture {
    std::string file; // where it was read from
    PixelFormat format = PixelFormat::RGBA8;
    uint32_t width = 0, height = 0;
    std::vector<TextureLevel> levels;
    std::span<const std::byte> bytes;              // every level, within `storage`
    std::shared_ptr<const TextureStorage> storage; // keeps `bytes` alive; a GPU buffer for drawing
};

// Storage of `size` bytes from `allocator` for `t`'s levels: sets t.storage and t.bytes and
// returns it for the reader to write the levels into, then commit.
std::shared_ptr<TextureStorage> allocateLevels(Texture& t, TextureAllocator& allocator, uint64_t size);
// `t`'s levels copied from `bytes` into heap storage (textures built in memory: tests, tools).
void copyLevels(Texture& t, std::span<const std::byte> bytes);
// An RGBA8 texture of `size`² texels (size a power of two) with every level down to 1x1, each
// texel the average of the four below it, in heap storage: textures horde makes itself.
Texture rgba8WithMips(std::string file, uint32_t size, std::vector<uint8_t> texels);

enum class TextureSlot : uint8_t { Base, Normal, Specular, MetalRough, Emissive };
const char* textureSlotName(TextureSlot slot); // "base", "normal", "specular", "metal_rough", "emissive"

struct TextureRef {
    TextureSlot slot = TextureSlot::Base;
    std::string path;                       // as the model or material file names it
    std::string file;                       // the file it was found as; empty when not found
    std::shared_ptr<const Texture> texture; // null when not found or not readable
};

enum class AlphaMode : uint8_t { Opaque, Mask, Blend };
const char* alphaModeName(AlphaMode mode); // "opaque", "mask", "blend"

// Submeshes name their material (Submesh::material); Model::materials holds one per name.
struct Material {
    std::string name;
    glm::vec4 baseColor{1.0f}; // linear RGBA, multiplied with the base texture
    AlphaMode alpha = AlphaMode::Opaque;
    float alphaCutoff = 0.5f; // Mask: texels whose alpha is below it are discarded
    bool doubleSided = false;
    std::vector<TextureRef> textures; // at most one per slot
    // False for a name a submesh gives that no file horde read defines (finalizeMeshes adds it):
    // drawn as the missing-texture checker, and a load warning.
    bool defined = true;

    const TextureRef* find(TextureSlot slot) const;
};

} // namespace horde
