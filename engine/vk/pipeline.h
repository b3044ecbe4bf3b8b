#pragma once
// Pipelines with push constants: every pass reaches its buffers through device addresses. The
// draw alone has one descriptor set, its material table's sampler array (render/material_table.h).
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string_view>

#include <volk.h>

#include "shaders/gpu_types.h"

namespace horde {

class Device;

class Pipeline {
  public:
    Pipeline() = default;
    Pipeline(Device& device, VkPipeline pipeline, VkPipelineLayout layout, uint32_t pushSize,
             VkShaderStageFlags pushStages);
    Pipeline(Pipeline&& other) noexcept;
    Pipeline& operator=(Pipeline&& other) noexcept;
    Pipeline(const Pipeline&) = delete;
    Pipeline& operator=(const Pipeline&) = delete;
    ~Pipeline();

    VkPipeline get() const { return pipeline_; }
    VkPipelineLayout layout() const { return layout_; }
    uint32_t pushSize() const { return pushSize_; }
    VkShaderStageFlags pushStages() const { return pushStages_; }

  private:
    void reset();
    Device* device_ = nullptr;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    uint32_t pushSize_ = 0;
    VkShaderStageFlags pushStages_ = 0;
};

// A pipeline's push-constant block: one struct of gpu_types.h, which its shaders declare too.
// Creation checks the shaders' block against it (their SPIR-V, vk/spirv_reflect.h), and every
// push against the pipeline, so neither size is written by hand.
struct PushBlock {
    uint32_t size = 0;
    uint32_t align = 1; // the shader's block ends at its last member, before the struct's padding
};
template <class Push> constexpr PushBlock pushBlock() {
    static_assert(sizeof(Push) <= 128, "push constants beyond the guaranteed 128 bytes");
    return {uint32_t(sizeof(Push)), uint32_t(alignof(Push))};
}

// `specialization`: the shader's specialization constants, when it has any to set.
Pipeline createComputePipeline(Device& device, std::span<const uint32_t> spirv, PushBlock push,
                               std::string_view name, const VkSpecializationInfo* specialization = nullptr);

struct GraphicsPipelineInfo {
    std::span<const uint32_t> vertex;
    std::span<const uint32_t> fragment;
    PushBlock push;
    VkFormat colorFormat = VK_FORMAT_UNDEFINED;
    VkFormat depthFormat = VK_FORMAT_UNDEFINED;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;     // set 0, when the shaders sample textures
    const VkSpecializationInfo* specialization = nullptr; // for both stages
    bool blend = false; // alpha blending over what is drawn, depth tested but not written
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT; // of the attachments drawn into
    VkFormat secondColorFormat = VK_FORMAT_UNDEFINED;      // a second colour attachment (the impostor bake's)
    VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
};
// Viewport, scissor, cull mode and front face are dynamic: one pipeline serves every model.
Pipeline createGraphicsPipeline(Device& device, const GraphicsPipelineInfo& info, std::string_view name);

template <class Push> void pushConstants(VkCommandBuffer cmd, const Pipeline& pipeline, const Push& push) {
    if (sizeof(Push) != pipeline.pushSize())
        throw std::logic_error("push constants of another pass's block for this pipeline");
    vkCmdPushConstants(cmd, pipeline.layout(), pipeline.pushStages(), 0, sizeof(Push), &push);
}

// One invocation per item, in workgroups of HORDE_WORKGROUP (shaders/gpu_types.h).
template <class Push>
void dispatch(VkCommandBuffer cmd, const Pipeline& pipeline, const Push& push, uint64_t invocations) {
    if (invocations == 0) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
    pushConstants(cmd, pipeline, push);
    vkCmdDispatch(cmd, uint32_t((invocations + HORDE_WORKGROUP - 1) / HORDE_WORKGROUP), 1, 1);
}

// A global execution and memory dependency between two stages.
void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
             VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);
void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                  VkImageLayout to, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                  VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);
// The same for `range` (every mip level of a texture, say).
void imageBarrier(VkCommandBuffer cmd, VkImage image, const VkImageSubresourceRange& range,
                  VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
                  VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);
// A depth image's old contents dropped and the image made ready for a pass to test and write
// it: after the last pass that did (in either fragment-test stage).
void depthAttachmentBarrier(VkCommandBuffer cmd, VkImage image);

} // namespace horde
