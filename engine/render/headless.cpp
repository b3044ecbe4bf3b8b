#include "render/headless.h"

#include <chrono>
#include <cstring>

#include "render/frames.h"
#include "vk/device.h"
#include "vk/memory.h"
#include "vk/pipeline.h"

namespace horde {

HeadlessTargets::HeadlessTargets(Device& device, VkExtent2D size, VkSampleCountFlagBits sampleCount)
    : extent(size), samples(sampleCount) {
    const VkDeviceSize pixelBytes = VkDeviceSize(extent.width) * extent.height * 4;
    for (uint32_t s = 0; s < kFramesInFlight; ++s) {
        const std::string tag = " (slot " + std::to_string(s) + ")";
        Slot& t = slots.emplace_back();
        t.color = Image(device, extent, kOffscreenColorFormat,
                        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                        VK_IMAGE_ASPECT_COLOR_BIT, "offscreen color" + tag);
        t.depth = Image(device, extent, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                        VK_IMAGE_ASPECT_DEPTH_BIT, "offscreen depth" + tag, 1, samples);
        if (samples != VK_SAMPLE_COUNT_1_BIT)
            t.samples = Image(device, extent, kOffscreenColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                              VK_IMAGE_ASPECT_COLOR_BIT, "offscreen color samples" + tag, 1, samples);
        t.readback = Buffer(device, pixelBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                            "frame readback" + tag);
    }
}

HeadlessResult renderHeadless(Device& device, CrowdScene& scene, const ViewCamera& view,
                              const HeadlessOptions& options, const ViewCamera* cull) {
    HeadlessTargets targets(device, {options.width, options.height}, scene.output().samples);
    return renderHeadless(device, targets, scene, view, options, cull);
}

HeadlessResult renderHeadless(Device& device, HeadlessTargets& targets, CrowdScene& scene, const ViewCamera& view,
                              const HeadlessOptions& options, const ViewCamera* cull) {
    const VkExtent2D extent = targets.extent;
    const VkDeviceSize pixelBytes = VkDeviceSize(extent.width) * extent.height * 4;
    // With onFrame, each frame's picture is read once its slot is waited for; else the last one's.
    auto readbackOf = [&](uint32_t s) -> const Buffer& { return targets.slots[options.onFrame ? s : 0].readback; };
    Image8 frame{extent.width, extent.height, {}};
    auto handOver = [&](uint32_t s) {
        if (!options.onFrame) return;
        const auto* mapped = static_cast<const uint8_t*>(readbackOf(s).mapped());
        frame.rgba.assign(mapped, mapped + pixelBytes);
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
        const Buffer& readback = readbackOf(s);
        HeadlessTargets::Slot& t = targets.slots[s];
        RenderTarget target{t.color.get(),
                            t.color.view(),
                            t.depth.get(),
                            t.depth.view(),
                            t.samples.get(),
                            t.samples.view(),
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
    const Buffer& lastRead = readbackOf(options.frames > 0 ? (options.frames - 1) % kFramesInFlight : 0);
    if (options.frames > 0) std::memcpy(result.image.rgba.data(), lastRead.mapped(), pixelBytes);
    return result;
}

} // namespace horde
