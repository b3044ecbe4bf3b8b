#pragma once
// Frames in flight: per slot a command buffer and a fence. The CPU records slot N+1 while the
// GPU runs slot N; a slot's fence is the only wait, and nothing is allocated per frame.
#include <cstdint>
#include <vector>

#include <volk.h>

#include "vk/device.h"

namespace horde {

// Frames rendered offline (headless images, benchmarks) may take minutes on a CPU driver: a
// brute-force frame of 16,384 standard monsters took about two minutes on lavapipe
// (docs/PERFORMANCE.md), past kFenceTimeoutNs. Only a device that hangs waits this long.
constexpr uint64_t kOfflineFenceTimeoutNs = 900'000'000'000ull;

class FrameSlots {
  public:
    // A frame taking longer than `fenceTimeoutNs` counts as a lost device (a benchmark of a
    // brute-force crowd on a CPU driver may allow minutes).
    FrameSlots(Device& device, uint32_t count, uint64_t fenceTimeoutNs = kFenceTimeoutNs);
    ~FrameSlots();
    FrameSlots(const FrameSlots&) = delete;
    FrameSlots& operator=(const FrameSlots&) = delete;

    uint32_t count() const { return uint32_t(slots_.size()); }
    // Waits until the slot's previous frame is done; returns true if it had one.
    bool wait(uint32_t slot);
    VkCommandBuffer begin(uint32_t slot);
    void submit(uint32_t slot, VkSemaphore waitSemaphore = VK_NULL_HANDLE, VkSemaphore signalSemaphore = VK_NULL_HANDLE);
    void waitAll();

  private:
    struct Slot {
        VkCommandPool pool = VK_NULL_HANDLE;
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        VkFence fence = VK_NULL_HANDLE;
        bool pending = false;
    };
    Device& device_;
    std::vector<Slot> slots_;
    uint64_t fenceTimeoutNs_;
};

} // namespace horde
