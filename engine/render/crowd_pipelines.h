#pragma once
// Every pipeline a crowd records: the seven compute passes, the draw in one variant per alpha
// mode, and the ground.
#include <array>

#include "anim/skinning.h"
#include "vk/pipeline.h"

namespace horde {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct CrowdPipelines {
    Pipeline cull, budget, assign, plan, sample, pose, skin, ground;
    std::array<Pipeline, 3> draw; // by alpha mode: opaque, mask (alpha test), blend
};

// How pose, skin and the draw skin (shaders/skinning.glsl's specialization constants): the
// scene's options, and whether a joint of any of its models may scale or shear (jointsMayStretch):
// dual quaternions blend the stretches only then.
struct SkinVariant {
    SkinOptions options;
    bool stretch = false;
};

// `pool`: the draw reads skinned vertices (compute technique), else it blends the palette itself.
// `textures` off: the draw samples nothing. `materials`: the material table's set layout.
CrowdPipelines createCrowdPipelines(Device& device, bool pool, bool textures, VkFormat colorFormat,
                                    VkSampleCountFlagBits samples, VkDescriptorSetLayout materials,
                                    const SkinVariant& skin);

} // namespace horde
