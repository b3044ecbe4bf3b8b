#pragma once
// A GLFW window and its swapchain. The swapchain is rebuilt on resize (after the frames in
// flight have finished, by their fences) and a minimised window simply waits.
#include <string>
#include <vector>

#include <volk.h>

#include "vk/memory.h"

struct GLFWwindow;

namespace horde {

class Device;

class Window {
  public:
    Window(uint32_t width, uint32_t height, const std::string& title);
    ~Window();
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

    // Instance extensions the window system needs; throws if there is no display.
    static std::vector<std::string> requiredExtensions();
    GLFWwindow* handle() const { return window_; }
    bool shouldClose() const;
    VkExtent2D framebufferSize() const;

  private:
    GLFWwindow* window_ = nullptr;
};

class Swapchain {
  public:
    // `samples` per pixel: above one, each image has a multisampled colour image drawn into and
    // resolved into it, and a depth image to match.
    Swapchain(Device& device, Window& window, uint32_t slots,
              VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT);
    ~Swapchain();
    Swapchain(const Swapchain&) = delete;
    Swapchain& operator=(const Swapchain&) = delete;

    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }

    struct Frame {
        uint32_t image = 0;
        VkImage color = VK_NULL_HANDLE;
        VkImageView colorView = VK_NULL_HANDLE;
        VkImage depth = VK_NULL_HANDLE;
        VkImageView depthView = VK_NULL_HANDLE;
        VkImage samples = VK_NULL_HANDLE; // null with one sample per pixel
        VkImageView samplesView = VK_NULL_HANDLE;
        VkSemaphore acquired = VK_NULL_HANDLE; // wait on it before writing color
        VkSemaphore rendered = VK_NULL_HANDLE; // signal it; present waits on it
    };
    // False when the swapchain had to be rebuilt (or the window is minimised): skip this frame.
    bool acquire(uint32_t slot, Frame& frame);
    // False when the swapchain is out of date; it is rebuilt before the next acquire.
    bool present(const Frame& frame);
    // Rebuilds for the window's current size; the caller has waited for its frames in flight.
    void rebuild();
    bool stale() const { return stale_; }
    // Its images can be copied from (VK_IMAGE_USAGE_TRANSFER_SRC_BIT).
    bool readable() const { return readable_; }

  private:
    void create();
    void destroyImages();

    Device& device_;
    Window& window_;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};
    std::vector<VkImage> images_;
    std::vector<VkImageView> views_;
    std::vector<Image> depth_, samples_;
    VkSampleCountFlagBits sampleCount_;
    std::vector<VkSemaphore> rendered_; // per image, kept across rebuilds
    std::vector<VkSemaphore> acquired_; // per slot
    bool stale_ = false;
    bool readable_ = false;
};

} // namespace horde
