#pragma once
// Every pipeline a crowd records: the eight compute passes, the draw in one variant per alpha
// mode, and the ground.
#include <array>

#include "anim/skinning.h"
#include "vk/pipeline.h"

namespace horde {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

struct CrowdPipelines {
    Pipeline behaviour, cull, budget, assign, lists, plan, sample, pose, skin, ground;
    std::array<Pipeline, 3> draw;    // by alpha mode: opaque, mask (alpha test), blend
    Pipeline impostorBake, impostor; // when the scene has impostors
    // The meshes of instances fading into their impostors (draw_fade.frag), by alpha mode.
    std::array<Pipeline, 3> drawFade;
};

// How pose, skin and the draw skin (shaders/skinning.glsl's specialization constants): the
// scene's options, and whether a joint of any of its models may scale or shear (jointsMayStretch):
// dual quaternions blend the stretches only then.
struct SkinVariant {
    SkinOptions options;
    bool stretch = false;
};

struct CrowdPipelineInfo {
    bool pool = true; // the draw reads skinned vertices (compute technique), else blends the palette itself
    bool textures = true; // off: nothing is sampled but the impostor atlases
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    VkDescriptorSetLayout materials = VK_NULL_HANDLE; // the material table's set layout
    VkDescriptorSetLayout impostors = VK_NULL_HANDLE; // the atlases' (none: no impostor pipelines)
    SkinVariant skin;
};

CrowdPipelines createCrowdPipelines(Device& device, const CrowdPipelineInfo& info);

} // namespace horde
