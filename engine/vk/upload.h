#pragma once
// Tables the GPU only reads, written once: device-local buffers filled in one batch. On unified
// memory the CPU writes each in place as it is added; elsewhere every table of a batch goes
// through one staging buffer and one submission, so preparing a model or a scene costs one fence
// wait however many tables it has.
#include <span>
#include <string>
#include <vector>

#include "vk/memory.h"

namespace horde {

constexpr VkBufferUsageFlags kStorageUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

class TableUpload {
  public:
    explicit TableUpload(Device& device) : device_(device) {}
    TableUpload(const TableUpload&) = delete;
    TableUpload& operator=(const TableUpload&) = delete;

    // A buffer (at least 16 bytes, so an empty table still has an address) that holds `bytes`
    // once submit() has returned; its address may be used at once. `bytes` must stay alive
    // until then.
    Buffer add(std::span<const std::byte> bytes, const std::string& name,
               VkBufferUsageFlags usage = kStorageUsage);
    template <class T>
    Buffer add(const std::vector<T>& data, const std::string& name,
               VkBufferUsageFlags usage = kStorageUsage) {
        return add(std::as_bytes(std::span(data)), name, usage);
    }
    // Copies everything added since the last submit; nothing to do where memory is unified.
    void submit();

  private:
    struct Pending {
        std::span<const std::byte> bytes;
        VkBuffer target;
    };
    Device& device_;
    std::vector<Pending> pending_;
};

// One table on its own: a batch of one.
template <class T>
Buffer uploadTable(Device& device, const std::vector<T>& data, const std::string& name,
                   VkBufferUsageFlags usage = kStorageUsage) {
    TableUpload upload(device);
    Buffer buffer = upload.add(data, name, usage);
    upload.submit();
    return buffer;
}

} // namespace horde
