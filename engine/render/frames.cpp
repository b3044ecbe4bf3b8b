#include "render/frames.h"

#include <string>

#include "vk/check.h"
#include "vk/device.h"

namespace horde {

FrameSlots::FrameSlots(Device& device, uint32_t count, uint64_t fenceTimeoutNs)
    : device_(device), slots_(count), fenceTimeoutNs_(fenceTimeoutNs) {
    for (uint32_t i = 0; i < count; ++i) {
        Slot& s = slots_[i];
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
        pool.queueFamilyIndex = device.queueFamily();
        VK_CHECK(vkCreateCommandPool(device.get(), &pool, nullptr, &s.pool));
        VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        alloc.commandPool = s.pool;
        alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        alloc.commandBufferCount = 1;
        VK_CHECK(vkAllocateCommandBuffers(device.get(), &alloc, &s.cmd));
        VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VK_CHECK(vkCreateFence(device.get(), &fence, nullptr, &s.fence));
        std::string tag = "frame slot " + std::to_string(i);
        device.setName(s.pool, VK_OBJECT_TYPE_COMMAND_POOL, tag);
        device.setName(s.cmd, VK_OBJECT_TYPE_COMMAND_BUFFER, tag);
        device.setName(s.fence, VK_OBJECT_TYPE_FENCE, tag);
    }
}

FrameSlots::~FrameSlots() {
    for (uint32_t i = 0; i < slots_.size(); ++i) {
        Slot& s = slots_[i];
        // Bounded, and no throw from a destructor: on a lost device the frame loop has already thrown.
        if (s.pending) vkWaitForFences(device_.get(), 1, &s.fence, VK_TRUE, fenceTimeoutNs_);
        vkDestroyFence(device_.get(), s.fence, nullptr);
        vkDestroyCommandPool(device_.get(), s.pool, nullptr);
    }
}

bool FrameSlots::wait(uint32_t slot) {
    Slot& s = slots_[slot];
    if (!s.pending) return false;
    device_.waitForFence(s.fence, "a frame", fenceTimeoutNs_);
    VK_CHECK(vkResetFences(device_.get(), 1, &s.fence));
    s.pending = false;
    return true;
}

VkCommandBuffer FrameSlots::begin(uint32_t slot) {
    wait(slot);
    Slot& s = slots_[slot];
    VK_CHECK(vkResetCommandPool(device_.get(), s.pool, 0));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(s.cmd, &begin));
    return s.cmd;
}

void FrameSlots::submit(uint32_t slot, VkSemaphore waitSemaphore, VkSemaphore signalSemaphore) {
    Slot& s = slots_[slot];
    VK_CHECK(vkEndCommandBuffer(s.cmd));
    VkPipelineStageFlags waitStage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.waitSemaphoreCount = waitSemaphore ? 1 : 0;
    submit.pWaitSemaphores = &waitSemaphore;
    submit.pWaitDstStageMask = &waitStage;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &s.cmd;
    submit.signalSemaphoreCount = signalSemaphore ? 1 : 0;
    submit.pSignalSemaphores = &signalSemaphore;
    VK_CHECK(vkQueueSubmit(device_.queue(), 1, &submit, s.fence));
    s.pending = true;
}

void FrameSlots::waitAll() {
    for (uint32_t i = 0; i < slots_.size(); ++i) wait(i);
}

} // namespace horde
