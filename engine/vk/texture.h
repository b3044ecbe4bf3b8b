#pragma once
// Textures in GPU memory as their files store them: block-compressed levels stay compressed and
// are copied as they are, every mip level, by one vkCmdCopyBufferToImage per texture.
#include <span>
#include <string>
#include <vector>

#include <volk.h>

#include "model/material.h"
#include "vk/memory.h"

namespace horde {

class Device;

// The Vulkan format of `format`; colour formats in sRGB when `srgb` (base colour), BC4/BC5 have
// no sRGB form and stay UNORM.
VkFormat textureFormat(PixelFormat format, bool srgb);

// Why `texture` cannot be sampled on `device` as stored (a BC format without
// textureCompressionBC, a format the device cannot sample, levels that are not a mip chain of
// the base size lying within its bytes); empty when it can.
std::string textureProblem(Device& device, const Texture& texture, bool srgb);

// One image per texture, with every level, in one submission. Each must have no textureProblem.
std::vector<Image> uploadTextures(Device& device, std::span<const Texture* const> textures, bool srgb);

// A sampler with one owner.
class Sampler {
  public:
    Sampler() = default;
    // Mipmapped; linear and repeating unless told otherwise.
    Sampler(Device& device, std::string_view name,
            VkSamplerAddressMode address = VK_SAMPLER_ADDRESS_MODE_REPEAT,
            VkFilter filter = VK_FILTER_LINEAR);
    Sampler(Sampler&& other) noexcept;
    Sampler& operator=(Sampler&& other) noexcept;
    Sampler(const Sampler&) = delete;
    Sampler& operator=(const Sampler&) = delete;
    ~Sampler();
    VkSampler get() const { return sampler_; }

  private:
    void reset();
    Device* device_ = nullptr;
    VkSampler sampler_ = VK_NULL_HANDLE;
};

} // namespace horde
