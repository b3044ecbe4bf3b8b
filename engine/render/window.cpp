#include "render/window.h"

#include <algorithm>
#include <stdexcept>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "vk/check.h"
#include "vk/device.h"

namespace horde {

namespace {
// glfwInit is idempotent; a Window terminates GLFW when it closes (one window at a time).
void initGlfw() {
    if (!glfwInit())
        throw VulkanError("cannot open a window: no display (GLFW init failed)",
                          VK_ERROR_INITIALIZATION_FAILED);
}
} // namespace

std::vector<std::string> Window::requiredExtensions() {
    initGlfw();
    if (!glfwVulkanSupported())
        throw VulkanError("GLFW finds no Vulkan loader", VK_ERROR_INITIALIZATION_FAILED);
    uint32_t count = 0;
    const char** names = glfwGetRequiredInstanceExtensions(&count);
    return std::vector<std::string>(names, names + count);
}

Window::Window(uint32_t width, uint32_t height, const std::string& title) {
    initGlfw();
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    window_ = glfwCreateWindow(int(width), int(height), title.c_str(), nullptr, nullptr);
    if (!window_) {
        glfwTerminate();
        throw VulkanError("cannot create a window", VK_ERROR_INITIALIZATION_FAILED);
    }
}

Window::~Window() {
    glfwDestroyWindow(window_);
    glfwTerminate();
}

bool Window::shouldClose() const {
    return glfwWindowShouldClose(window_);
}

VkExtent2D Window::framebufferSize() const {
    int w = 0, h = 0;
    glfwGetFramebufferSize(window_, &w, &h);
    return {uint32_t(std::max(w, 0)), uint32_t(std::max(h, 0))};
}

Swapchain::Swapchain(Device& device, Window& window, uint32_t slots, VkSampleCountFlagBits samples)
    : device_(device), window_(window), sampleCount_(samples) {
    VK_CHECK(glfwCreateWindowSurface(device.instance(), window.handle(), nullptr, &surface_));
    VkBool32 supported = VK_FALSE;
    vkGetPhysicalDeviceSurfaceSupportKHR(device.physical(), device.queueFamily(), surface_, &supported);
    if (!supported) {
        vkDestroySurfaceKHR(device.instance(), surface_, nullptr);
        throw VulkanError("the device's queue cannot present to this window", VK_ERROR_INITIALIZATION_FAILED);
    }
    VkSemaphoreCreateInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    acquired_.resize(slots);
    for (VkSemaphore& s : acquired_)
        VK_CHECK(vkCreateSemaphore(device.get(), &info, nullptr, &s));
    create();
}

Swapchain::~Swapchain() {
    // Presentation holds semaphores no fence covers; shutdown is the one place to wait for it.
    vkQueueWaitIdle(device_.queue());
    destroyImages();
    for (VkSemaphore s : rendered_)
        vkDestroySemaphore(device_.get(), s, nullptr);
    if (swapchain_) vkDestroySwapchainKHR(device_.get(), swapchain_, nullptr);
    for (VkSemaphore s : acquired_)
        vkDestroySemaphore(device_.get(), s, nullptr);
    vkDestroySurfaceKHR(device_.instance(), surface_, nullptr);
}

void Swapchain::destroyImages() {
    for (VkImageView v : views_)
        vkDestroyImageView(device_.get(), v, nullptr);
    views_.clear();
    depth_.clear();
    samples_.clear();
    images_.clear();
}

void Swapchain::create() {
    VkSurfaceCapabilitiesKHR caps;
    VK_CHECK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(device_.physical(), surface_, &caps));
    VkExtent2D size = window_.framebufferSize();
    extent_ = caps.currentExtent.width != UINT32_MAX ? caps.currentExtent : size;
    extent_.width = std::clamp(extent_.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent_.height = std::clamp(extent_.height, caps.minImageExtent.height, caps.maxImageExtent.height);
    if (extent_.width == 0 || extent_.height == 0) {
        stale_ = true; // minimised: wait for a size
        return;
    }
    uint32_t count = 0;
    vkGetPhysicalDeviceSurfaceFormatsKHR(device_.physical(), surface_, &count, nullptr);
    std::vector<VkSurfaceFormatKHR> formats(count);
    vkGetPhysicalDeviceSurfaceFormatsKHR(device_.physical(), surface_, &count, formats.data());
    VkSurfaceFormatKHR chosen = formats[0];
    for (const VkSurfaceFormatKHR& f : formats)
        if ((f.format == VK_FORMAT_B8G8R8A8_SRGB || f.format == VK_FORMAT_R8G8B8A8_SRGB) &&
            f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
            chosen = f;
    if (format_ != VK_FORMAT_UNDEFINED && chosen.format != format_)
        throw VulkanError("the surface changed format; pipelines would need rebuilding",
                          VK_ERROR_FORMAT_NOT_SUPPORTED);
    format_ = chosen.format;

    VkSwapchainKHR old = swapchain_;
    VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    info.surface = surface_;
    info.minImageCount = std::max(caps.minImageCount, 2u);
    if (caps.maxImageCount)
        info.minImageCount = std::min(std::max(caps.minImageCount + 1, 2u), caps.maxImageCount);
    info.imageFormat = chosen.format;
    info.imageColorSpace = chosen.colorSpace;
    info.imageExtent = extent_;
    info.imageArrayLayers = 1;
    info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    // Copied from as well where the surface allows: what was presented can be read back (the
    // window test reads its overlay so).
    if (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) info.imageUsage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    readable_ = (info.imageUsage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    info.preTransform = caps.currentTransform;
    info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    info.presentMode = VK_PRESENT_MODE_FIFO_KHR;
    info.clipped = VK_TRUE;
    info.oldSwapchain = old;
    VK_CHECK(vkCreateSwapchainKHR(device_.get(), &info, nullptr, &swapchain_));
    if (old) vkDestroySwapchainKHR(device_.get(), old, nullptr);

    vkGetSwapchainImagesKHR(device_.get(), swapchain_, &count, nullptr);
    images_.resize(count);
    vkGetSwapchainImagesKHR(device_.get(), swapchain_, &count, images_.data());
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    for (uint32_t i = 0; i < count; ++i) {
        VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        view.image = images_[i];
        view.viewType = VK_IMAGE_VIEW_TYPE_2D;
        view.format = format_;
        view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
        VkImageView v;
        VK_CHECK(vkCreateImageView(device_.get(), &view, nullptr, &v));
        views_.push_back(v);
        // Kept across rebuilds: a pending present may still wait on one (no fence says when).
        if (i >= rendered_.size()) {
            VkSemaphore s;
            VK_CHECK(vkCreateSemaphore(device_.get(), &semaphore, nullptr, &s));
            rendered_.push_back(s);
        }
        depth_.emplace_back(device_, extent_, VK_FORMAT_D32_SFLOAT,
                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT,
                            "swapchain depth " + std::to_string(i), 1, sampleCount_);
        if (sampleCount_ != VK_SAMPLE_COUNT_1_BIT)
            samples_.emplace_back(device_, extent_, format_, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                  VK_IMAGE_ASPECT_COLOR_BIT, "swapchain color samples " + std::to_string(i),
                                  1, sampleCount_);
    }
    stale_ = false;
}

void Swapchain::rebuild() {
    destroyImages();
    create();
}

bool Swapchain::acquire(uint32_t slot, Frame& frame) {
    if (stale_) return false;
    VkResult r = vkAcquireNextImageKHR(device_.get(), swapchain_, UINT64_MAX, acquired_[slot], VK_NULL_HANDLE,
                                       &frame.image);
    if (r == VK_ERROR_OUT_OF_DATE_KHR) {
        stale_ = true;
        return false;
    }
    if (r != VK_SUBOPTIMAL_KHR) VK_CHECK(r);
    frame.color = images_[frame.image];
    frame.colorView = views_[frame.image];
    frame.depth = depth_[frame.image].get();
    frame.depthView = depth_[frame.image].view();
    if (!samples_.empty()) {
        frame.samples = samples_[frame.image].get();
        frame.samplesView = samples_[frame.image].view();
    }
    frame.acquired = acquired_[slot];
    frame.rendered = rendered_[frame.image];
    return true;
}

bool Swapchain::present(const Frame& frame) {
    VkPresentInfoKHR info{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
    info.waitSemaphoreCount = 1;
    info.pWaitSemaphores = &frame.rendered;
    info.swapchainCount = 1;
    info.pSwapchains = &swapchain_;
    info.pImageIndices = &frame.image;
    VkResult r = vkQueuePresentKHR(device_.queue(), &info);
    if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
        stale_ = true;
        return false;
    }
    VK_CHECK(r);
    VkExtent2D now = window_.framebufferSize();
    if (now.width != extent_.width || now.height != extent_.height) stale_ = true;
    return true;
}

} // namespace horde
