#include "vk/upload.h"

#include <algorithm>
#include <cstring>

#include "vk/device.h"
#include "vk/pipeline.h"

namespace horde {

Buffer TableUpload::add(std::span<const std::byte> bytes, const std::string& name, VkBufferUsageFlags usage) {
    const MemoryUse use = device_.unifiedMemory() ? MemoryUse::Direct : MemoryUse::Device;
    Buffer buffer(device_, std::max<VkDeviceSize>(bytes.size(), 16), usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  use, name);
    if (bytes.empty()) return buffer;
    if (buffer.mapped())
        std::memcpy(buffer.mapped(), bytes.data(), bytes.size());
    else
        pending_.push_back({bytes, buffer.get()});
    return buffer;
}

void TableUpload::submit() {
    if (pending_.empty()) return;
    auto aligned = [](VkDeviceSize size) { return (size + 15) & ~VkDeviceSize(15); };
    VkDeviceSize total = 0;
    for (const Pending& p : pending_)
        total += aligned(p.bytes.size());
    Buffer staging(device_, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "table staging");
    std::vector<VkBufferCopy> copies;
    VkDeviceSize offset = 0;
    for (const Pending& p : pending_) {
        std::memcpy(static_cast<std::byte*>(staging.mapped()) + offset, p.bytes.data(), p.bytes.size());
        copies.push_back({offset, 0, p.bytes.size()});
        offset += aligned(p.bytes.size());
    }
    device_.immediate([&](VkCommandBuffer cmd) {
        for (size_t i = 0; i < pending_.size(); ++i)
            vkCmdCopyBuffer(cmd, staging.get(), pending_[i].target, 1, &copies[i]);
        // The fence orders the submissions; this makes the copies' writes visible to what reads them.
        barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
    });
    pending_.clear();
}

} // namespace horde
