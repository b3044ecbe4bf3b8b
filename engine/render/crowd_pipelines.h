#pragma once
// Every pipeline a crowd records: the eight compute passes, the draw in one variant per alpha
// mode, and the ground.
#include <array>

#include "vk/pipeline.h"

namespace horde {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct CrowdPipelines {
    Pipeline cull, budget, assign, lists, plan, sample, pose, skin, ground;
    std::array<Pipeline, 3> draw; // by alpha mode: opaque, mask (alpha test), blend
};

// `pool`: the draw reads skinned vertices (compute technique), else it blends the palette itself.
// `textures` off: the draw samples nothing. `materials`: the material table's set layout.
CrowdPipelines createCrowdPipelines(Device& device, bool pool, bool textures, VkFormat colorFormat,
                                    VkSampleCountFlagBits samples, VkDescriptorSetLayout materials);

} // namespace horde
