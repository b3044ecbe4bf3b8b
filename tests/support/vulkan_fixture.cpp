#include "support/vulkan_fixture.h"

#include "vk/memory.h"

namespace horde::test {

DeviceOptions testDeviceOptions() {
    DeviceOptions options;
    options.validation = true;
    options.quiet = true;
    return options;
}

void VulkanTest::SetUp() {
    device_ = std::make_unique<Device>(testDeviceOptions());
    log_ = device_->messageLog();
}

void VulkanTest::closeDevice() {
    if (!device_) return;
    EXPECT_EQ(device_->allocator().liveAllocations(), 0u) << "device memory still allocated at shutdown";
    device_.reset();
}

void VulkanTest::TearDown() {
    closeDevice();
    EXPECT_EQ(log_->error, 0u) << "validation errors";
    EXPECT_EQ(log_->warning, 0u) << "validation warnings";
}

} // namespace horde::test
