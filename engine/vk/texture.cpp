#include "vk/texture.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <utility>

#include "vk/check.h"
#include "vk/device.h"
#include "vk/gpu_texture.h"
#include "vk/pipeline.h"

namespace horde {

VkFormat textureFormat(PixelFormat format, bool srgb) {
    switch (format) {
    case PixelFormat::RGBA8:
        return srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM;
    case PixelFormat::BGRA8:
        return srgb ? VK_FORMAT_B8G8R8A8_SRGB : VK_FORMAT_B8G8R8A8_UNORM;
    // BC1 with alpha: its three-colour blocks mark transparent texels (cut-outs).
    case PixelFormat::BC1:
        return srgb ? VK_FORMAT_BC1_RGBA_SRGB_BLOCK : VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
    case PixelFormat::BC2:
        return srgb ? VK_FORMAT_BC2_SRGB_BLOCK : VK_FORMAT_BC2_UNORM_BLOCK;
    case PixelFormat::BC3:
        return srgb ? VK_FORMAT_BC3_SRGB_BLOCK : VK_FORMAT_BC3_UNORM_BLOCK;
    case PixelFormat::BC4:
        return VK_FORMAT_BC4_UNORM_BLOCK;
    case PixelFormat::BC5:
        return VK_FORMAT_BC5_UNORM_BLOCK;
    case PixelFormat::BC7:
        return srgb ? VK_FORMAT_BC7_SRGB_BLOCK : VK_FORMAT_BC7_UNORM_BLOCK;
    }
    return VK_FORMAT_UNDEFINED;
}

std::string textureProblem(Device& device, const Texture& texture, bool srgb) {
    const std::span<const std::byte> bytes = texture.bytes;
    const char* name = pixelFormatName(texture.format);
    if (blockBytes(texture.format) && !device.textureCompressionBC())
        return std::string(
                   "the device cannot sample block-compressed textures (no textureCompressionBC) for ") +
               name;
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(device.physical(), textureFormat(texture.format, srgb), &properties);
    if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT))
        return std::string("the device cannot sample ") + name + " with filtering";
    if (texture.levels.empty() || texture.width == 0 || texture.height == 0) return "it has no texels";
    const uint32_t limit = device.properties().limits.maxImageDimension2D;
    if (texture.width > limit || texture.height > limit)
        return "it is larger than the device's " + std::to_string(limit) + " texels a side";
    if (texture.levels.size() > std::bit_width(std::max(texture.width, texture.height)))
        return "it has more mip levels than halving its size allows";
    for (size_t l = 0; l < texture.levels.size(); ++l) {
        const TextureLevel& level = texture.levels[l];
        const uint32_t w = std::max(texture.width >> l, 1u), h = std::max(texture.height >> l, 1u);
        if (level.width != w || level.height != h)
            return "level " + std::to_string(l) + " is not half the size of the one before";
        if (level.size != levelBytes(texture.format, w, h) || level.offset > bytes.size() ||
            level.size > bytes.size() - level.offset)
            return "level " + std::to_string(l) + " does not lie within its bytes";
    }
    return {};
}

std::vector<Image> uploadTextures(Device& device, std::span<const Texture* const> textures, bool srgb) {
    std::vector<Image> images;
    if (textures.empty()) return images;
    // Textures read into GPU-visible storage (GpuTextureAllocator) are copied from their own
    // buffers; the rest (built in memory, or read into heap storage) go through one staging
    // buffer, each level at a 16-byte aligned offset: a multiple of every format's block or
    // texel size.
    auto gpuStorage = [](const Texture* t) {
        return dynamic_cast<const GpuTextureStorage*>(t->storage.get());
    };
    VkDeviceSize total = 0;
    for (const Texture* t : textures)
        if (!gpuStorage(t))
            for (const TextureLevel& level : t->levels)
                total = (total + 15) / 16 * 16 + level.size;
    std::optional<Buffer> staging;
    if (total > 0)
        staging.emplace(device, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload,
                        "texture staging");
    std::vector<VkBuffer> sources;
    std::vector<std::vector<VkBufferImageCopy>> regions;
    VkDeviceSize at = 0;
    for (const Texture* t : textures) {
        const GpuTextureStorage* own = gpuStorage(t);
        const std::span<const std::byte> bytes = t->bytes;
        sources.push_back(own ? own->buffer().get() : staging->get());
        std::vector<VkBufferImageCopy>& copies = regions.emplace_back();
        for (uint32_t l = 0; l < t->levels.size(); ++l) {
            const TextureLevel& level = t->levels[l];
            VkBufferImageCopy copy{};
            if (own) {
                copy.bufferOffset = level.offset;
            } else {
                at = (at + 15) / 16 * 16;
                std::memcpy(static_cast<std::byte*>(staging->mapped()) + at, bytes.data() + level.offset,
                            level.size);
                copy.bufferOffset = at;
                at += level.size;
            }
            copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
            copy.imageExtent = {level.width, level.height, 1};
            copies.push_back(copy);
        }
        images.emplace_back(device, VkExtent2D{t->width, t->height}, textureFormat(t->format, srgb),
                            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            VK_IMAGE_ASPECT_COLOR_BIT, "texture " + t->file, uint32_t(t->levels.size()));
    }
    device.immediate([&](VkCommandBuffer cmd) {
        for (size_t i = 0; i < images.size(); ++i) {
            const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, images[i].levels(), 0, 1};
            imageBarrier(cmd, images[i].get(), all, VK_IMAGE_LAYOUT_UNDEFINED,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                         VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            vkCmdCopyBufferToImage(cmd, sources[i], images[i].get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                   uint32_t(regions[i].size()), regions[i].data());
            imageBarrier(cmd, images[i].get(), all, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                         VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT,
                         VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                         VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
        }
    });
    return images;
}

Sampler::Sampler(Device& device, std::string_view name, VkSamplerAddressMode address, VkFilter filter)
    : device_(&device) {
    VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    info.magFilter = filter;
    info.minFilter = filter;
    info.mipmapMode =
        filter == VK_FILTER_NEAREST ? VK_SAMPLER_MIPMAP_MODE_NEAREST : VK_SAMPLER_MIPMAP_MODE_LINEAR;
    info.addressModeU = address;
    info.addressModeV = address;
    info.addressModeW = address;
    info.maxLod = VK_LOD_CLAMP_NONE;
    VK_CHECK(vkCreateSampler(device.get(), &info, nullptr, &sampler_));
    device.setName(sampler_, VK_OBJECT_TYPE_SAMPLER, name);
}

Sampler::Sampler(Sampler&& other) noexcept
    : device_(std::exchange(other.device_, nullptr)),
      sampler_(std::exchange(other.sampler_, VK_NULL_HANDLE)) {}

Sampler& Sampler::operator=(Sampler&& other) noexcept {
    if (this != &other) {
        reset();
        device_ = std::exchange(other.device_, nullptr);
        sampler_ = std::exchange(other.sampler_, VK_NULL_HANDLE);
    }
    return *this;
}

Sampler::~Sampler() {
    reset();
}

void Sampler::reset() {
    if (sampler_) vkDestroySampler(device_->get(), sampler_, nullptr);
    sampler_ = VK_NULL_HANDLE;
}

} // namespace horde
