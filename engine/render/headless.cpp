#include "render/headless.h"

#include <chrono>
#include <cstring>

#include "render/frames.h"
#include "vk/device.h"
#include "vk/memory.h"
#include "vk/pipeline.h"

namespace horde {

HeadlessResult renderHeadless(Device& device, CrowdScene& scene, const ViewCamera& view,
                              const HeadlessOptions& options, const ViewCamera* cull) {
    VkExtent2D extent{options.width, options.height};
    struct Target {
        Image color, depth, samples;
    };
    const VkSampleCountFlagBits samples = scene.output().samples;
    std::vector<Target> targets;
    for (uint32_t s = 0; s < kFramesInFlight; ++s) {
        std::string tag = " (slot " + std::to_string(s) + ")";
        Target& t = targets.emplace_back();
        t.color = Image(device, extent, kOffscreenColorFormat,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        VK_IMAGE_ASPECT_COLOR_BIT, "offscreen color" + tag);
        t.depth = Image(device, extent, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_DEPTH_BIT, "offscreen depth" + tag, 1, samples);
        if (samples != VK_SAMPLE_COUNT_1_BIT)
            t.samples = Image(device, extent, kOffscreenColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                              VK_IMAGE_ASPECT_COLOR_BIT, "offscreen color samples" + tag, 1, samples);
    }
    VkDeviceSize pixelBytes = VkDeviceSize(extent.width) * extent.height * 4;
    // One readback a slot: with onFrame, each frame's picture is read once its slot is waited for.
    std::vector<Buffer> readbacks;
    for (uint32_t s = 0; s < (options.onFrame ? kFramesInFlight : 1); ++s)
        readbacks.emplace_back(device, pixelBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                               "frame readback (slot " + std::to_string(s) + ")");
    Image8 frame{extent.width, extent.height, {}};
    auto handOver = [&](uint32_t s) {
        if (!options.onFrame) return;
        frame.rgba.assign(static_cast<const uint8_t*>(readbacks[s].mapped()),
                          static_cast<const uint8_t*>(readbacks[s].mapped()) + pixelBytes);
        options.onFrame(frame);
    };

    HeadlessResult result;
    FrameSlots slots(device, kFramesInFlight, kOfflineFenceTimeoutNs);
    for (uint32_t f = 0; f < options.frames; ++f) {
        uint32_t s = f % kFramesInFlight;
        if (slots.wait(s)) {
            scene.collectStats(s, result.stats);
            handOver(s);
        }
        auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = slots.begin(s);
        bool last = f + 1 == options.frames;
        bool read = last || options.onFrame;
        const Buffer& readback = readbacks[options.onFrame ? s : 0];
        RenderTarget target{targets[s].color.get(),
                            targets[s].color.view(),
                            targets[s].depth.get(),
                            targets[s].depth.view(),
                            targets[s].samples.get(),
                            targets[s].samples.view(),
                            extent,
                            read ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
                                 : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
        scene.recordFrame(cmd, s, options.startTime + float(f) * options.frameTime, target, view, cull);
        if (read) {
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {extent.width, extent.height, 1};
            vkCmdCopyImageToBuffer(cmd, target.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.get(), 1,
                                   &region);
            barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
        }
        slots.submit(s);
        result.stats.cpuMs.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    for (uint32_t i = 0; i < kFramesInFlight; ++i) {
        uint32_t s = (options.frames + i) % kFramesInFlight;
        if (slots.wait(s)) {
            scene.collectStats(s, result.stats);
            handOver(s);
        }
    }
    result.image.width = extent.width;
    result.image.height = extent.height;
    result.image.rgba.resize(pixelBytes);
    const Buffer& lastRead = readbacks[options.onFrame && options.frames > 0 ? (options.frames - 1) % kFramesInFlight : 0];
    if (options.frames > 0) std::memcpy(result.image.rgba.data(), lastRead.mapped(), pixelBytes);
    return result;
}

} // namespace horde
