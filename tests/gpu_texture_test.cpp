// Texture levels read straight into GPU-visible memory (vk/gpu_texture.h): a DDS read through
// GpuTextureAllocator lands byte for byte in a mapped buffer, which copies into a BC1 image with
// vkCmdCopyBufferToImage and back out unchanged, under the validation layers; a file that fails
// its checks allocates nothing.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "support/vulkan_fixture.h"
#include "texture/texture.h"
#include "vk/check.h"
#include "vk/gpu_texture.h"
#include "vk/memory.h"
#include "vk/pipeline.h"

using namespace horde;

namespace {

class GpuTexture : public test::VulkanTest {};

// 8x8 DXT1 with its 4x4 level: five blocks of distinct bytes after the 128-byte header.
std::vector<std::byte> bc1File() {
    std::vector<std::byte> b;
    auto u32 = [&](uint32_t v) {
        for (int i = 0; i < 4; ++i) b.push_back(std::byte(v >> (8 * i)));
    };
    for (uint32_t v : {0x20534444u /* "DDS " */, 124u, 0x1007u | 0x20000u, 8u, 8u, 32u, 0u, 2u}) u32(v);
    for (int i = 0; i < 11; ++i) u32(0);
    for (uint32_t v : {32u, 0x4u, 0x31545844u /* "DXT1" */, 0u, 0u, 0u, 0u, 0u, 0x401008u, 0u, 0u, 0u, 0u}) u32(v);
    for (uint32_t i = 0; i < 5 * 8; ++i) b.push_back(std::byte(i * 13 + 1));
    return b;
}

TEST_F(GpuTexture, DdsLevelsLandInAMappedBufferThatCopiesIntoAnImage) {
    const std::vector<std::byte> file = bc1File();
    GpuTextureAllocator allocator(device());
    Result<Texture> t = readDds("a.dds", file, allocator);
    ASSERT_TRUE(t) << t.error().message;
    const auto* gpu = dynamic_cast<const GpuTextureStorage*>(t->storage.get());
    ASSERT_NE(gpu, nullptr);
    ASSERT_TRUE(gpu->buffer());
    ASSERT_EQ(t->bytes.size(), 40u);
    EXPECT_EQ(t->bytes.data(), static_cast<const std::byte*>(gpu->buffer().mapped())) << "the reader wrote into the mapped buffer";
    EXPECT_EQ(std::memcmp(gpu->buffer().mapped(), file.data() + 128, 40), 0);

    // The base level into an 8x8 BC1 image, then out into a readback buffer.
    Image image(device(), {8, 8}, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, "bc1 test image");
    Buffer readback(device(), 32, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "bc1 readback");
    device().immediate([&](VkCommandBuffer cmd) {
        imageBarrier(cmd, image.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferImageCopy region{};
        region.bufferOffset = t->levels[0].offset;
        region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
        region.imageExtent = {t->levels[0].width, t->levels[0].height, 1};
        vkCmdCopyBufferToImage(cmd, gpu->buffer().get(), image.get(), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        imageBarrier(cmd, image.get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                     VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        vkCmdCopyImageToBuffer(cmd, image.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.get(), 1, &region);
    });
    EXPECT_EQ(std::memcmp(readback.mapped(), file.data() + 128, 32), 0);
}

TEST_F(GpuTexture, FailedReadsAllocateNothing) {
    std::vector<std::byte> bytes = bc1File();
    bytes.pop_back();
    const size_t before = device().allocator().liveAllocations();
    GpuTextureAllocator allocator(device());
    EXPECT_FALSE(readDds("cut.dds", bytes, allocator));
    EXPECT_EQ(device().allocator().liveAllocations(), before);
}

} // namespace
