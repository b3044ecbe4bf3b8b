#pragma once
// Instance, physical device choice, logical device and its one graphics+compute queue.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

namespace horde {

class Allocator;

struct DeviceOptions {
    bool validation = false;
    std::string device;                          // "" = best; a number = index; else a name substring
    std::vector<std::string> instanceExtensions; // e.g. what GLFW needs for a surface
    bool swapchain = false;
    bool quiet = false; // do not print the device in use
};

// Debug-utils messages by severity. Tests fail on any warning or error.
struct MessageCounts {
    uint32_t verbose = 0, info = 0, warning = 0, error = 0;
    uint32_t problems() const { return warning + error; }
};

// The longest horde waits on one fence. A driver must return from a wait on a lost device, but
// a GPU that hangs without its driver noticing (or a driver that never returns) would block an
// unbounded wait forever; past this the device is taken as lost. Lavapipe needs about 0.18 s per
// million skinned vertices (docs/PERFORMANCE.md), so an interactive frame never comes near it;
// offline rendering allows longer (render/frames.h).
constexpr uint64_t kFenceTimeoutNs = 120'000'000'000ull;

// True when validation should be on unless the user says otherwise (debug and sanitizer builds,
// or HORDE_VALIDATION=1 in the environment).
bool validationByDefault();

class Device {
  public:
    explicit Device(const DeviceOptions& options);
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physical() const { return physical_; }
    VkDevice get() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    const VkPhysicalDeviceMemoryProperties& memory() const { return memory_; }
    // The largest device-local heap: what a crowd's buffers are sized against.
    VkDeviceSize deviceLocalHeap() const;
    // The largest single allocation (and so buffer) the device promises.
    VkDeviceSize maxAllocationSize() const { return maxAllocationSize_; }
    // The most samples per pixel, at most `wanted`, that colour and depth attachments both take.
    VkSampleCountFlagBits supportedSamples(uint32_t wanted) const;
    std::string name() const { return properties_.deviceName; }
    std::string driver() const { return driver_; }
    // Every device-local memory type is also host visible: decode straight into device memory.
    bool unifiedMemory() const { return unifiedMemory_; }
    bool validation() const { return validation_; }
    // Block-compressed textures (BC1-BC7) can be sampled as stored.
    bool textureCompressionBC() const { return textureCompressionBC_; }
    // Pipeline-statistics queries (shader invocations per pass) can be made.
    bool pipelineStatistics() const { return pipelineStatistics_; }
    // The widest point sprite drawn, in pixels (1 without the largePoints feature).
    float largestPoint() const { return largestPoint_; }
    const MessageCounts& messages() const { return *messages_; }
    // Outlives the device, so a test can read what the layers said at vkDestroyDevice.
    std::shared_ptr<const MessageCounts> messageLog() const { return messages_; }
    Allocator& allocator() { return *allocator_; }

    // Labels an object for validation messages and captures (no-op without debug utils).
    void setName(VkObjectType type, uint64_t handle, std::string_view name) const;
    template <class Handle> void setName(Handle handle, VkObjectType type, std::string_view name) const {
        setName(type, reinterpret_cast<uint64_t>(handle), name);
    }

    // Records, submits and waits on a fence: for uploads and readbacks, never in a frame loop.
    void immediate(const std::function<void(VkCommandBuffer)>& record);
    // Waits until `fence` signals. Throws VulkanError naming `what` when the device is lost or
    // the wait outlasts `timeoutNs` (reported as VK_ERROR_DEVICE_LOST: the CLI's device trouble).
    void waitForFence(VkFence fence, std::string_view what, uint64_t timeoutNs = kFenceTimeoutNs) const;

  private:
    void init(const DeviceOptions& options);
    void release();

    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkCommandPool immediatePool_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memory_{};
    VkDeviceSize maxAllocationSize_ = 0;
    std::string driver_;
    bool unifiedMemory_ = false;
    bool validation_ = false;
    bool textureCompressionBC_ = false;
    bool pipelineStatistics_ = false;
    float largestPoint_ = 1.0f;
    bool debugUtils_ = false;
    std::shared_ptr<MessageCounts> messages_ = std::make_shared<MessageCounts>();
    std::unique_ptr<Allocator> allocator_;
};

} // namespace horde
