#pragma once
// Headless rendering: frames into offscreen targets, the last one read back as RGBA8 (sRGB).
#include <cstdint>
#include <functional>
#include <vector>

#include "render/crowd_scene.h"
#include "crowd/frame_stats.h"

namespace horde {

constexpr VkFormat kOffscreenColorFormat = VK_FORMAT_R8G8B8A8_SRGB;
constexpr uint32_t kFramesInFlight = 2;

struct Image8 {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;
};

struct HeadlessOptions {
    uint32_t width = 1280, height = 720;
    uint32_t frames = 1;
    float startTime = 0.0f;
    float frameTime = 1.0f / 60.0f;
    // Given, every frame is read back and handed over, in order, as it finishes (a moving picture).
    std::function<void(const Image8&)> onFrame;
};

struct HeadlessResult {
    Image8 image;
    FrameStats stats;
};

// What headless frames draw into and are read back through, one set per frame slot: made once
// by a caller that draws many pictures of one size (validate's hundreds of poses), not per call.
struct HeadlessTargets {
    HeadlessTargets(Device& device, VkExtent2D extent, VkSampleCountFlagBits samples);
    VkExtent2D extent;
    VkSampleCountFlagBits samples;
    struct Slot {
        Image color, depth, samples;
        Buffer readback;
    };
    std::vector<Slot> slots; // kFramesInFlight
};

// The scene must have been built with kFramesInFlight slots and kOffscreenColorFormat. `cull`
// (default: `view`) is the camera culling and level choice use.
HeadlessResult renderHeadless(Device& device, CrowdScene& scene, const ViewCamera& view, const HeadlessOptions& options,
                              const ViewCamera* cull = nullptr);
// The same into `targets` (of options' size and the scene's samples).
HeadlessResult renderHeadless(Device& device, HeadlessTargets& targets, CrowdScene& scene, const ViewCamera& view,
                              const HeadlessOptions& options, const ViewCamera* cull = nullptr);

} // namespace horde
