// Each push-constant block is declared once (shaders/gpu_types.h): the size glslc gave every
// shader's block, read back from its SPIR-V, is the C++ struct's, and a pipeline refuses both a
// shader whose block is another size and a push of another pass's block. Validation layers on.
#include <gtest/gtest.h>

#include "shaders/spirv.h"
#include "support/vulkan_fixture.h"
#include "vk/pipeline.h"
#include "vk/spirv_reflect.h"

using namespace horde;

namespace {
uint32_t padded(std::span<const uint32_t> spirv, PushBlock block) {
    const uint32_t bytes = pushConstantBytes(spirv);
    return (bytes + block.align - 1) / block.align * block.align;
}
} // namespace

TEST(PushBlocks, EveryShadersBlockIsItsCppStruct) {
    // Worked out from the declarations: an 8-byte address then four 4-byte fields.
    EXPECT_EQ(pushConstantBytes(spirv::cull_comp()), 24u);
    // An address, a vec4 at 8 (scalar layout: no alignment to 16), two floats and two pads.
    EXPECT_EQ(pushConstantBytes(spirv::ground_vert()), 40u);
    EXPECT_EQ(padded(spirv::cull_comp(), pushBlock<gpu::CullPush>()), sizeof(gpu::CullPush));
    EXPECT_EQ(padded(spirv::plan_comp(), pushBlock<gpu::PlanPush>()), sizeof(gpu::PlanPush));
    EXPECT_EQ(padded(spirv::sample_comp(), pushBlock<gpu::SamplePush>()), sizeof(gpu::SamplePush));
    EXPECT_EQ(padded(spirv::pose_comp(), pushBlock<gpu::PosePush>()), sizeof(gpu::PosePush));
    EXPECT_EQ(padded(spirv::skin_comp(), pushBlock<gpu::SkinPush>()), sizeof(gpu::SkinPush));
    EXPECT_EQ(padded(spirv::copy_comp(), pushBlock<gpu::CopyPush>()), sizeof(gpu::CopyPush));
    EXPECT_EQ(padded(spirv::draw_skinned_vert(), pushBlock<gpu::DrawPush>()), sizeof(gpu::DrawPush));
    EXPECT_EQ(padded(spirv::draw_palette_vert(), pushBlock<gpu::DrawPush>()), sizeof(gpu::DrawPush));
    EXPECT_EQ(padded(spirv::draw_frag(), pushBlock<gpu::DrawPush>()), sizeof(gpu::DrawPush));
    EXPECT_EQ(padded(spirv::ground_frag(), pushBlock<gpu::GroundPush>()), sizeof(gpu::GroundPush));
}

TEST(PushBlocks, CorruptSpirvIsRefused) {
    const std::vector<uint32_t> notSpirv = {1, 2, 3, 4, 5, 6};
    EXPECT_THROW(pushConstantBytes(notSpirv), std::runtime_error);
    std::vector<uint32_t> cut(spirv::cull_comp().begin(), spirv::cull_comp().end());
    // The first instruction claims one word more than the module has left.
    cut[5] = uint32_t(cut.size() - 5 + 1) << 16 | (cut[5] & 0xFFFFu);
    EXPECT_THROW(pushConstantBytes(cut), std::runtime_error);
}

class PipelineTest : public test::VulkanTest {};

TEST_F(PipelineTest, AShaderOfAnotherBlockIsRefusedAtCreation) {
    try {
        createComputePipeline(device(), spirv::cull_comp(), pushBlock<gpu::PlanPush>(), "cull");
        FAIL() << "a 24-byte block was taken for an 8-byte one";
    } catch (const std::logic_error& e) {
        EXPECT_STREQ(e.what(), "cull: the shader's push constants take 24 bytes, the C++ block 8");
    }
}

TEST_F(PipelineTest, APushOfAnotherBlockIsRefused) {
    const Pipeline cull =
        createComputePipeline(device(), spirv::cull_comp(), pushBlock<gpu::CullPush>(), "cull");
    EXPECT_EQ(cull.pushSize(), sizeof(gpu::CullPush));
    // Refused before anything is recorded: no command buffer is needed to see it.
    EXPECT_THROW(pushConstants(VK_NULL_HANDLE, cull, gpu::PlanPush{}), std::logic_error);
}
