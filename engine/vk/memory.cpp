#include "vk/memory.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "vk/check.h"
#include "vk/device.h"

namespace horde {

namespace {
constexpr VkDeviceSize kBlockSize = 64ull << 20;
// Larger requests get memory of their own: sharing a block would strand most of it.
constexpr VkDeviceSize kDedicatedThreshold = kBlockSize / 4;

VkDeviceSize alignUp(VkDeviceSize value, VkDeviceSize alignment) {
    return (value + alignment - 1) / alignment * alignment;
}

struct Flags {
    VkMemoryPropertyFlags required, preferred;
};

Flags flagsFor(MemoryUse use) {
    constexpr auto local = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    constexpr auto host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    switch (use) {
    case MemoryUse::Device:
        return {0, local};
    case MemoryUse::Upload:
        return {host, 0};
    case MemoryUse::Readback:
        return {host, VK_MEMORY_PROPERTY_HOST_CACHED_BIT};
    case MemoryUse::Direct:
        return {host | local, 0};
    }
    return {0, 0};
}
} // namespace

Allocator::Allocator(Device& device) : device_(device) {}

Allocator::~Allocator() {
    if (live_ != 0) std::fprintf(stderr, "horde: %zu device allocations still live at shutdown\n", live_);
    for (Block& block : blocks_)
        vkFreeMemory(device_.get(), block.memory, nullptr);
    if (spare_.memory) vkFreeMemory(device_.get(), spare_.memory, nullptr);
}

int32_t Allocator::chooseType(uint32_t typeBits, MemoryUse use) const {
    const VkPhysicalDeviceMemoryProperties& props = device_.memory();
    Flags flags = flagsFor(use);
    int32_t fallback = -1;
    for (uint32_t i = 0; i < props.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = props.memoryTypes[i].propertyFlags;
        if (!(typeBits & (1u << i)) || (f & flags.required) != flags.required) continue;
        if ((f & flags.preferred) == flags.preferred) return int32_t(i);
        if (fallback < 0) fallback = int32_t(i);
    }
    return fallback;
}

bool Allocator::supports(MemoryUse use) const {
    return chooseType(~0u, use) >= 0;
}

VkDeviceMemory Allocator::allocateMemory(VkDeviceSize size, uint32_t type, void** mapped) {
    if (spare_.memory) vkFreeMemory(device_.get(), std::exchange(spare_.memory, VK_NULL_HANDLE), nullptr);
    VkMemoryAllocateFlagsInfo flags{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &flags};
    info.allocationSize = size;
    info.memoryTypeIndex = type;
    VkDeviceMemory memory;
    VK_CHECK(vkAllocateMemory(device_.get(), &info, nullptr, &memory));
    *mapped = nullptr;
    if (device_.memory().memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        VkResult r = vkMapMemory(device_.get(), memory, 0, VK_WHOLE_SIZE, 0, mapped);
        if (r != VK_SUCCESS) {
            vkFreeMemory(device_.get(), memory, nullptr);
            throwVulkanError("vkMapMemory", r, __FILE__, __LINE__);
        }
    }
    return memory;
}

Allocation Allocator::allocate(const VkMemoryRequirements& req, MemoryUse use) {
    int32_t type = chooseType(req.memoryTypeBits, use);
    if (type < 0) throw VulkanError("no memory type fits this resource", VK_ERROR_OUT_OF_DEVICE_MEMORY);
    Allocation a;
    a.type = uint32_t(type);
    a.size = req.size;
    if (req.size >= kDedicatedThreshold) {
        if (spare_.memory && spare_.type == a.type && spare_.size >= req.size &&
            spare_.size / 2 <= req.size) {
            a.memory = std::exchange(spare_.memory, VK_NULL_HANDLE);
            a.size = spare_.size;
            a.mapped = spare_.mapped;
        } else {
            a.memory = allocateMemory(req.size, a.type, &a.mapped);
        }
    } else {
        // Buffer-image granularity is respected by aligning every sub-allocation to it.
        VkDeviceSize alignment = std::max(req.alignment, device_.properties().limits.bufferImageGranularity);
        for (size_t b = 0; b <= blocks_.size() && !a.memory; ++b) {
            if (b == blocks_.size()) {
                Block block;
                block.size = kBlockSize;
                block.type = a.type;
                block.memory = allocateMemory(kBlockSize, a.type, &block.mapped);
                block.free.push_back({0, kBlockSize});
                blocks_.push_back(std::move(block));
            }
            Block& block = blocks_[b];
            if (block.type != a.type) continue;
            for (size_t r = 0; r < block.free.size(); ++r) {
                Range range = block.free[r];
                VkDeviceSize start = alignUp(range.offset, alignment);
                VkDeviceSize end = alignUp(start + req.size, alignment);
                if (end > range.offset + range.size) continue;
                block.free.erase(block.free.begin() + r);
                if (end < range.offset + range.size)
                    block.free.insert(block.free.begin() + r, {end, range.offset + range.size - end});
                if (start > range.offset)
                    block.free.insert(block.free.begin() + r, {range.offset, start - range.offset});
                a.memory = block.memory;
                a.offset = start;
                a.size = end - start;
                a.block = int32_t(b);
                a.mapped = block.mapped ? static_cast<char*>(block.mapped) + start : nullptr;
                break;
            }
        }
    }
    ++live_;
    inUse_ += a.size;
    return a;
}

void Allocator::free(const Allocation& a) {
    if (!a.memory) return;
    --live_;
    inUse_ -= a.size;
    if (a.block < 0) {
        if (spare_.memory) vkFreeMemory(device_.get(), spare_.memory, nullptr);
        spare_ = {a.memory, a.size, a.mapped, a.type};
        return;
    }
    std::vector<Range>& ranges = blocks_[a.block].free;
    auto it = ranges.begin();
    while (it != ranges.end() && it->offset < a.offset)
        ++it;
    it = ranges.insert(it, {a.offset, a.size});
    if (it + 1 != ranges.end() && it->offset + it->size == (it + 1)->offset) {
        it->size += (it + 1)->size;
        ranges.erase(it + 1);
    }
    if (it != ranges.begin() && (it - 1)->offset + (it - 1)->size == it->offset) {
        (it - 1)->size += it->size;
        ranges.erase(it);
    }
}

Buffer::Buffer(Device& device, VkDeviceSize size, VkBufferUsageFlags usage, MemoryUse use,
               std::string_view name)
    : device_(&device), size_(size) {
    VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    info.size = size;
    info.usage = usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    VK_CHECK(vkCreateBuffer(device.get(), &info, nullptr, &buffer_));
    try {
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(device.get(), buffer_, &req);
        allocation_ = device.allocator().allocate(req, use);
        VK_CHECK(vkBindBufferMemory(device.get(), buffer_, allocation_.memory, allocation_.offset));
    } catch (...) {
        reset();
        throw;
    }
    VkBufferDeviceAddressInfo addressInfo{VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    addressInfo.buffer = buffer_;
    address_ = vkGetBufferDeviceAddress(device.get(), &addressInfo);
    device.setName(buffer_, VK_OBJECT_TYPE_BUFFER, name);
}

Buffer::Buffer(Buffer&& other) noexcept
    : device_(std::exchange(other.device_, nullptr)), buffer_(std::exchange(other.buffer_, VK_NULL_HANDLE)),
      size_(std::exchange(other.size_, 0)), address_(std::exchange(other.address_, 0)),
      allocation_(std::exchange(other.allocation_, {})) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
    if (this != &other) {
        reset();
        device_ = std::exchange(other.device_, nullptr);
        buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
        size_ = std::exchange(other.size_, 0);
        address_ = std::exchange(other.address_, 0);
        allocation_ = std::exchange(other.allocation_, {});
    }
    return *this;
}

Buffer::~Buffer() {
    reset();
}

bool Buffer::hostCached() const {
    return allocation_.memory && (device_->memory().memoryTypes[allocation_.type].propertyFlags &
                                  VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
}

void Buffer::reset() {
    if (buffer_) vkDestroyBuffer(device_->get(), buffer_, nullptr);
    if (allocation_.memory) device_->allocator().free(allocation_);
    buffer_ = VK_NULL_HANDLE;
    allocation_ = {};
}

Image::Image(Device& device, VkExtent2D extent, VkFormat format, VkImageUsageFlags usage,
             VkImageAspectFlags aspect, std::string_view name, uint32_t levels, VkSampleCountFlagBits samples,
             uint32_t layers)
    : device_(&device), levels_(levels), layers_(layers), format_(format), extent_(extent) {
    VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = format;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = levels;
    info.arrayLayers = layers;
    info.samples = samples;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage = usage;
    VK_CHECK(vkCreateImage(device.get(), &info, nullptr, &image_));
    try {
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(device.get(), image_, &req);
        allocation_ = device.allocator().allocate(req, MemoryUse::Device);
        VK_CHECK(vkBindImageMemory(device.get(), image_, allocation_.memory, allocation_.offset));
        VkImageViewCreateInfo viewInfo{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        viewInfo.image = image_;
        viewInfo.viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
        viewInfo.format = format;
        viewInfo.subresourceRange = {aspect, 0, levels, 0, layers};
        VK_CHECK(vkCreateImageView(device.get(), &viewInfo, nullptr, &view_));
    } catch (...) {
        reset();
        throw;
    }
    device.setName(image_, VK_OBJECT_TYPE_IMAGE, name);
    device.setName(view_, VK_OBJECT_TYPE_IMAGE_VIEW, name);
}

Image::Image(Image&& other) noexcept
    : device_(std::exchange(other.device_, nullptr)), levels_(other.levels_), layers_(other.layers_),
      image_(std::exchange(other.image_, VK_NULL_HANDLE)), view_(std::exchange(other.view_, VK_NULL_HANDLE)),
      format_(other.format_), extent_(other.extent_), allocation_(std::exchange(other.allocation_, {})) {}

Image& Image::operator=(Image&& other) noexcept {
    if (this != &other) {
        reset();
        device_ = std::exchange(other.device_, nullptr);
        levels_ = other.levels_;
        layers_ = other.layers_;
        image_ = std::exchange(other.image_, VK_NULL_HANDLE);
        view_ = std::exchange(other.view_, VK_NULL_HANDLE);
        format_ = other.format_;
        extent_ = other.extent_;
        allocation_ = std::exchange(other.allocation_, {});
    }
    return *this;
}

Image::~Image() {
    reset();
}

void Image::reset() {
    if (view_) vkDestroyImageView(device_->get(), view_, nullptr);
    if (image_) vkDestroyImage(device_->get(), image_, nullptr);
    if (allocation_.memory) device_->allocator().free(allocation_);
    view_ = VK_NULL_HANDLE;
    image_ = VK_NULL_HANDLE;
    allocation_ = {};
}

} // namespace horde
