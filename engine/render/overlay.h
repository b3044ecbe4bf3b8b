#pragma once
// Dear ImGui's draw lists over a finished frame, drawn by a pipeline of horde's own (the Debian
// build of ImGui's Vulkan backend calls Vulkan's prototypes, which volk's function pointers
// shadow, and needs a render pass): vertices and indices in each frame slot's mapped buffers
// (grown when a frame needs more, never per frame), the font atlas read by device address in the
// fragment shader, so nothing binds a descriptor set; one scissored draw per ImGui command.
#include <cstdint>
#include <vector>

#include <volk.h>

#include "vk/memory.h"
#include "vk/pipeline.h"

struct ImDrawData;

namespace horde {

class Device;

class Overlay {
  public:
    // Builds the current ImGui context's font atlas and uploads it; `colorFormat` is the image
    // drawn over (one sample a pixel: after any resolve).
    Overlay(Device& device, VkFormat colorFormat, uint32_t slots);
    Overlay(const Overlay&) = delete;
    Overlay& operator=(const Overlay&) = delete;

    // Draws `data` over `image` (COLOR_ATTACHMENT_OPTIMAL, its contents kept) and leaves it in
    // `after`. The slot's previous frame must have finished.
    void record(VkCommandBuffer cmd, uint32_t slot, const ImDrawData& data, VkImage image, VkImageView view,
                VkExtent2D extent, VkImageLayout after);

  private:
    struct Slot {
        Buffer vertices, indices;
    };
    Device& device_;
    Pipeline pipeline_;
    Buffer atlas_;
    uint32_t atlasWidth_ = 0, atlasHeight_ = 0;
    std::vector<Slot> slots_;
};

} // namespace horde
