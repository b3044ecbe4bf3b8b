#include "vk/pipeline.h"

#include <string>
#include <utility>

#include "vk/check.h"
#include "vk/device.h"
#include "vk/spirv_reflect.h"

namespace horde {

Pipeline::Pipeline(Device& device, VkPipeline pipeline, VkPipelineLayout layout, uint32_t pushSize,
                   VkShaderStageFlags pushStages)
    : device_(&device), pipeline_(pipeline), layout_(layout), pushSize_(pushSize), pushStages_(pushStages) {}

Pipeline::Pipeline(Pipeline&& other) noexcept
    : device_(std::exchange(other.device_, nullptr)),
      pipeline_(std::exchange(other.pipeline_, VK_NULL_HANDLE)),
      layout_(std::exchange(other.layout_, VK_NULL_HANDLE)), pushSize_(other.pushSize_),
      pushStages_(other.pushStages_) {}

Pipeline& Pipeline::operator=(Pipeline&& other) noexcept {
    if (this != &other) {
        reset();
        device_ = std::exchange(other.device_, nullptr);
        pipeline_ = std::exchange(other.pipeline_, VK_NULL_HANDLE);
        layout_ = std::exchange(other.layout_, VK_NULL_HANDLE);
        pushSize_ = other.pushSize_;
        pushStages_ = other.pushStages_;
    }
    return *this;
}

Pipeline::~Pipeline() {
    reset();
}

void Pipeline::reset() {
    if (pipeline_) vkDestroyPipeline(device_->get(), pipeline_, nullptr);
    if (layout_) vkDestroyPipelineLayout(device_->get(), layout_, nullptr);
    pipeline_ = VK_NULL_HANDLE;
    layout_ = VK_NULL_HANDLE;
}

namespace {
struct ShaderModule {
    VkDevice device;
    VkShaderModule module = VK_NULL_HANDLE;
    ShaderModule(VkDevice d, std::span<const uint32_t> code) : device(d) {
        VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        info.codeSize = code.size_bytes();
        info.pCode = code.data();
        VK_CHECK(vkCreateShaderModule(device, &info, nullptr, &module));
    }
    ~ShaderModule() { vkDestroyShaderModule(device, module, nullptr); }
};

// A shader whose push-constant block is not the C++ struct would read fields at the wrong
// offsets without any error from the driver or the validation layers.
void checkPushBlock(std::span<const uint32_t> spirv, PushBlock push, std::string_view name) {
    const uint32_t declared = pushConstantBytes(spirv);
    const uint32_t padded = (declared + push.align - 1) / push.align * push.align;
    if (declared != 0 && padded != push.size)
        throw std::logic_error(std::string(name) + ": the shader's push constants take " +
                               std::to_string(declared) + " bytes, the C++ block " +
                               std::to_string(push.size));
}

constexpr VkShaderStageFlags kGraphicsStages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

// Push constants reach only the stages the pipeline has: lavapipe updates every stage a push names
// when it next emits that stage's state, and its pipeline-statistics queries emit the graphics
// state, which with compute pushes marked for every stage and no graphics pipeline bound crashed
// it (Mesa 22.3).
VkPipelineLayout createLayout(Device& device, uint32_t pushSize, VkShaderStageFlags stages,
                              std::string_view name, VkDescriptorSetLayout setLayout = VK_NULL_HANDLE) {
    VkPushConstantRange range{stages, 0, pushSize};
    VkPipelineLayoutCreateInfo info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    info.setLayoutCount = setLayout ? 1 : 0;
    info.pSetLayouts = &setLayout;
    info.pushConstantRangeCount = pushSize ? 1 : 0;
    info.pPushConstantRanges = &range;
    VkPipelineLayout layout;
    VK_CHECK(vkCreatePipelineLayout(device.get(), &info, nullptr, &layout));
    device.setName(layout, VK_OBJECT_TYPE_PIPELINE_LAYOUT, name);
    return layout;
}
} // namespace

Pipeline createComputePipeline(Device& device, std::span<const uint32_t> spirv, PushBlock push,
                               std::string_view name, const VkSpecializationInfo* specialization) {
    checkPushBlock(spirv, push, name);
    ShaderModule module(device.get(), spirv);
    VkPipelineLayout layout = createLayout(device, push.size, VK_SHADER_STAGE_COMPUTE_BIT, name);
    VkComputePipelineCreateInfo info{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    info.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    info.stage.module = module.module;
    info.stage.pName = "main";
    info.stage.pSpecializationInfo = specialization;
    info.layout = layout;
    VkPipeline pipeline;
    VkResult result = vkCreateComputePipelines(device.get(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    if (result != VK_SUCCESS) {
        vkDestroyPipelineLayout(device.get(), layout, nullptr);
        throwVulkanError("vkCreateComputePipelines", result, __FILE__, __LINE__);
    }
    device.setName(pipeline, VK_OBJECT_TYPE_PIPELINE, name);
    return Pipeline(device, pipeline, layout, push.size, VK_SHADER_STAGE_COMPUTE_BIT);
}

Pipeline createGraphicsPipeline(Device& device, const GraphicsPipelineInfo& p, std::string_view name) {
    checkPushBlock(p.vertex, p.push, name);
    checkPushBlock(p.fragment, p.push, name);
    ShaderModule vertex(device.get(), p.vertex), fragment(device.get(), p.fragment);
    VkPipelineLayout layout = createLayout(device, p.push.size, kGraphicsStages, name, p.setLayout);

    VkPipelineShaderStageCreateInfo stages[2] = {{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO},
                                                 {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO}};
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = vertex.module;
    stages[0].pName = "main";
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = fragment.module;
    stages[1].pName = "main";
    stages[0].pSpecializationInfo = p.specialization;
    stages[1].pSpecializationInfo = p.specialization;

    VkPipelineVertexInputStateCreateInfo vertexInput{
        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo assembly{
        VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    assembly.topology = p.topology;
    VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    viewport.viewportCount = 1;
    viewport.scissorCount = 1;
    VkPipelineRasterizationStateCreateInfo raster{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    raster.polygonMode = VK_POLYGON_MODE_FILL;
    raster.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo multisample{
        VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    multisample.rasterizationSamples = p.samples;
    VkPipelineDepthStencilStateCreateInfo depth{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    depth.depthTestEnable = VK_TRUE;
    depth.depthWriteEnable = p.blend ? VK_FALSE : VK_TRUE;
    depth.depthCompareOp = VK_COMPARE_OP_LESS;
    VkPipelineColorBlendAttachmentState attachment{};
    if (p.blend) {
        attachment.blendEnable = VK_TRUE;
        attachment.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
        attachment.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.colorBlendOp = VK_BLEND_OP_ADD;
        attachment.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
        attachment.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
        attachment.alphaBlendOp = VK_BLEND_OP_ADD;
    }
    attachment.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    const VkPipelineColorBlendAttachmentState attachments[2] = {attachment, attachment};
    const VkFormat formats[2] = {p.colorFormat, p.secondColorFormat};
    const uint32_t colorCount = p.secondColorFormat == VK_FORMAT_UNDEFINED ? 1 : 2;
    VkPipelineColorBlendStateCreateInfo blend{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    blend.attachmentCount = colorCount;
    blend.pAttachments = attachments;
    VkDynamicState dynamics[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                                 VK_DYNAMIC_STATE_CULL_MODE, VK_DYNAMIC_STATE_FRONT_FACE};
    VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
    dynamic.dynamicStateCount = 4;
    dynamic.pDynamicStates = dynamics;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    rendering.colorAttachmentCount = colorCount;
    rendering.pColorAttachmentFormats = formats;
    rendering.depthAttachmentFormat = p.depthFormat;

    VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    info.stageCount = 2;
    info.pStages = stages;
    info.pVertexInputState = &vertexInput;
    info.pInputAssemblyState = &assembly;
    info.pViewportState = &viewport;
    info.pRasterizationState = &raster;
    info.pMultisampleState = &multisample;
    info.pDepthStencilState = &depth;
    info.pColorBlendState = &blend;
    info.pDynamicState = &dynamic;
    info.layout = layout;
    VkPipeline pipeline;
    VkResult result = vkCreateGraphicsPipelines(device.get(), VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
    if (result != VK_SUCCESS) {
        vkDestroyPipelineLayout(device.get(), layout, nullptr);
        throwVulkanError("vkCreateGraphicsPipelines", result, __FILE__, __LINE__);
    }
    device.setName(pipeline, VK_OBJECT_TYPE_PIPELINE, name);
    return Pipeline(device, pipeline, layout, p.push.size, kGraphicsStages);
}

void barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
             VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkMemoryBarrier2 memory{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    memory.srcStageMask = srcStage;
    memory.srcAccessMask = srcAccess;
    memory.dstStageMask = dstStage;
    memory.dstAccessMask = dstAccess;
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.memoryBarrierCount = 1;
    dependency.pMemoryBarriers = &memory;
    vkCmdPipelineBarrier2(cmd, &dependency);
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
                  VkImageLayout to, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                  VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    imageBarrier(cmd, image, {aspect, 0, 1, 0, 1}, from, to, srcStage, srcAccess, dstStage, dstAccess);
}

void depthAttachmentBarrier(VkCommandBuffer cmd, VkImage image) {
    constexpr VkPipelineStageFlags2 tests =
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    imageBarrier(cmd, image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, tests,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, tests,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT |
                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, const VkImageSubresourceRange& range,
                  VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 srcStage,
                  VkAccessFlags2 srcAccess, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = srcStage;
    b.srcAccessMask = srcAccess;
    b.dstStageMask = dstStage;
    b.dstAccessMask = dstAccess;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = range;
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.imageMemoryBarrierCount = 1;
    dependency.pImageMemoryBarriers = &b;
    vkCmdPipelineBarrier2(cmd, &dependency);
}

} // namespace horde
