#pragma once
// Device memory: sub-allocated from large blocks per memory type, chosen from the memory
// properties (never by device name); buffers and images with one clear owner each.
#include <cstdint>
#include <string_view>
#include <vector>

#include <volk.h>

namespace horde {

class Device;

enum class MemoryUse {
    Device,   // device-local, GPU only
    Upload,   // host-visible, written by the CPU, read once by the GPU
    Readback, // host-visible and cached where a type is: read by the CPU (mesh storage, gpu_mesh.h)
    Direct    // device-local and host-visible: the CPU writes where the GPU reads (UMA)
};

struct Allocation {
    VkDeviceMemory memory = VK_NULL_HANDLE;
    VkDeviceSize offset = 0;
    VkDeviceSize size = 0;
    void* mapped = nullptr;
    uint32_t type = 0;
    int32_t block = -1; // -1: dedicated
};

class Allocator {
  public:
    explicit Allocator(Device& device);
    ~Allocator();
    Allocator(const Allocator&) = delete;
    Allocator& operator=(const Allocator&) = delete;

    Allocation allocate(const VkMemoryRequirements& requirements, MemoryUse use);
    void free(const Allocation& allocation);
    // Whether `use` can be satisfied at all (Direct needs unified or resizable-BAR memory).
    bool supports(MemoryUse use) const;

    size_t liveAllocations() const { return live_; }
    VkDeviceSize bytesInUse() const { return inUse_; }

  private:
    struct Range {
        VkDeviceSize offset, size;
    };
    struct Block {
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkDeviceSize size = 0;
        void* mapped = nullptr;
        uint32_t type = 0;
        std::vector<Range> free; // sorted by offset, coalesced
    };

    // The memory of its own that a resource freed last, kept for the next resource of its type
    // that fits it and needs at least half of it: loading one large mesh after another (the load
    // benchmarks, a folder of models) then reuses pages the CPU has already touched, instead of
    // faulting fresh ones in on every load and unmapping them after (docs/PERFORMANCE.md). Any
    // other new device memory frees it first, so keeping it never raises a peak.
    struct Spare {
        VkDeviceMemory memory = VK_NULL_HANDLE;
        VkDeviceSize size = 0;
        void* mapped = nullptr;
        uint32_t type = 0;
    };

    int32_t chooseType(uint32_t typeBits, MemoryUse use) const;
    VkDeviceMemory allocateMemory(VkDeviceSize size, uint32_t type, void** mapped);

    Device& device_;
    std::vector<Block> blocks_;
    Spare spare_;
    size_t live_ = 0;
    VkDeviceSize inUse_ = 0;
};

class Buffer {
  public:
    Buffer() = default;
    Buffer(Device& device, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use, std::string_view name);
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer();

    VkBuffer get() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    VkDeviceAddress address() const { return address_; }
    void* mapped() const { return allocation_.mapped; }
    // Whether its memory is host-cached: CPU reads from it run at memory speed, not bus speed.
    bool hostCached() const;
    explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

  private:
    void reset();
    Device* device_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceSize size_ = 0;
    VkDeviceAddress address_ = 0;
    Allocation allocation_;
};

class Image {
  public:
    Image() = default;
    Image(Device& device, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
          VkImageAspectFlags aspect, std::string_view name, uint32_t levels = 1,
          VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT,
          uint32_t layers = 1); // more than one layer: a 2D array (its view too)
    Image(Image&& other) noexcept;
    Image& operator=(Image&& other) noexcept;
    Image(const Image&) = delete;
    Image& operator=(const Image&) = delete;
    ~Image();

    VkImage get() const { return image_; }
    VkImageView view() const { return view_; }
    VkFormat format() const { return format_; }
    VkExtent2D extent() const { return extent_; }
    uint32_t levels() const { return levels_; }
    uint32_t layers() const { return layers_; }

  private:
    void reset();
    Device* device_ = nullptr;
    uint32_t levels_ = 1, layers_ = 1;
    VkImage image_ = VK_NULL_HANDLE;
    VkImageView view_ = VK_NULL_HANDLE;
    VkFormat format_ = VK_FORMAT_UNDEFINED;
    VkExtent2D extent_{};
    Allocation allocation_;
};

} // namespace horde
