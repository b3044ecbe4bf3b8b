#include "render/overlay.h"

#include <algorithm>
#include <cstring>

#include <imgui.h>

#include "shaders/spirv.h"
#include "vk/device.h"
#include "vk/upload.h"

namespace horde {

namespace {
constexpr VkBufferUsageFlags kOverlayVertexUsage = kStorageUsage;
constexpr VkBufferUsageFlags kOverlayIndexUsage = VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
static_assert(sizeof(ImDrawVert) == 20 && sizeof(ImDrawIdx) == 2,
              "overlay.vert reads ImGui's vertex as it is");
} // namespace

Overlay::Overlay(Device& device, VkFormat colorFormat, uint32_t slots) : device_(device), slots_(slots) {
    GraphicsPipelineInfo info;
    info.vertex = spirv::overlay_vert();
    info.fragment = spirv::overlay_frag();
    info.push = pushBlock<gpu::OverlayPush>();
    info.colorFormat = colorFormat;
    info.blend = true;
    pipeline_ = createGraphicsPipeline(device, info, "overlay");

    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
    atlasWidth_ = uint32_t(width);
    atlasHeight_ = uint32_t(height);
    // Whole words: the shader reads the bytes four at a time.
    std::vector<uint32_t> words((size_t(width) * size_t(height) + 3) / 4, 0u);
    std::memcpy(words.data(), pixels, size_t(width) * size_t(height));
    atlas_ = uploadTable(device, words, "overlay font atlas");
}

void Overlay::record(VkCommandBuffer cmd, uint32_t slotIndex, const ImDrawData& data, VkImage image,
                     VkImageView view, VkExtent2D extent, VkImageLayout after) {
    Slot& slot = slots_[slotIndex];
    const size_t vertexBytes = size_t(data.TotalVtxCount) * sizeof(ImDrawVert);
    const size_t indexBytes = size_t(data.TotalIdxCount) * sizeof(ImDrawIdx);
    // Grown to twice what a frame needed, so a panel that opens wider does not grow it each frame.
    if (!slot.vertices || slot.vertices.size() < vertexBytes)
        slot.vertices = Buffer(device_, std::max<size_t>(2 * vertexBytes, 64 << 10), kOverlayVertexUsage,
                               MemoryUse::Upload, "overlay vertices");
    if (!slot.indices || slot.indices.size() < indexBytes)
        slot.indices = Buffer(device_, std::max<size_t>(2 * indexBytes, 64 << 10), kOverlayIndexUsage,
                              MemoryUse::Upload, "overlay indices");
    auto* vertices = static_cast<ImDrawVert*>(slot.vertices.mapped());
    auto* indices = static_cast<ImDrawIdx*>(slot.indices.mapped());
    for (int l = 0; l < data.CmdListsCount; ++l) {
        const ImDrawList* list = data.CmdLists[l];
        std::memcpy(vertices, list->VtxBuffer.Data, size_t(list->VtxBuffer.Size) * sizeof(ImDrawVert));
        std::memcpy(indices, list->IdxBuffer.Data, size_t(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
        vertices += list->VtxBuffer.Size;
        indices += list->IdxBuffer.Size;
    }

    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = view;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, extent};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    // The frame below was drawn into this image: its writes come first.
    imageBarrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    vkCmdBeginRendering(cmd, &rendering);
    if (data.TotalIdxCount > 0) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline_.get());
        vkCmdBindIndexBuffer(cmd, slot.indices.get(), 0, VK_INDEX_TYPE_UINT16);
        VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0, 1};
        vkCmdSetViewport(cmd, 0, 1, &viewport);
        vkCmdSetCullMode(cmd, VK_CULL_MODE_NONE);
        vkCmdSetFrontFace(cmd, VK_FRONT_FACE_COUNTER_CLOCKWISE);
        gpu::OverlayPush push{};
        push.vertices = slot.vertices.address();
        push.atlas = atlas_.address();
        push.atlasWidth = atlasWidth_;
        push.atlasHeight = atlasHeight_;
        // Pixels from the display's corner to clip space.
        const ImVec2 size = data.DisplaySize, origin = data.DisplayPos;
        push.transform = glm::vec4(2.0f / size.x, 2.0f / size.y, -1.0f - origin.x * 2.0f / size.x,
                                   -1.0f - origin.y * 2.0f / size.y);
        pushConstants(cmd, pipeline_, push);
        uint32_t firstVertex = 0, firstIndex = 0;
        for (int l = 0; l < data.CmdListsCount; ++l) {
            const ImDrawList* list = data.CmdLists[l];
            for (const ImDrawCmd& c : list->CmdBuffer) {
                // Clip rectangles in pixels, within the image.
                const float x0 = std::max(c.ClipRect.x - origin.x, 0.0f),
                            y0 = std::max(c.ClipRect.y - origin.y, 0.0f);
                const float x1 = std::min(c.ClipRect.z - origin.x, float(extent.width));
                const float y1 = std::min(c.ClipRect.w - origin.y, float(extent.height));
                if (x1 <= x0 || y1 <= y0 || c.UserCallback) continue;
                VkRect2D scissor{{int32_t(x0), int32_t(y0)}, {uint32_t(x1 - x0), uint32_t(y1 - y0)}};
                vkCmdSetScissor(cmd, 0, 1, &scissor);
                vkCmdDrawIndexed(cmd, c.ElemCount, 1, firstIndex + c.IdxOffset,
                                 int32_t(firstVertex + c.VtxOffset), 0);
            }
            firstVertex += uint32_t(list->VtxBuffer.Size);
            firstIndex += uint32_t(list->IdxBuffer.Size);
        }
    }
    vkCmdEndRendering(cmd);
    if (after == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL) return;
    const bool present = after == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    imageBarrier(cmd, image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, after,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                 present ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                 present ? VK_ACCESS_2_NONE : VK_ACCESS_2_TRANSFER_READ_BIT);
}

} // namespace horde
