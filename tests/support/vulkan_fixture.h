#pragma once
// Every test that touches Vulkan uses this fixture: validation layers on (synchronization
// validation included), and the test fails on any warning or error the layers report, at
// shutdown too (leaked objects), or on device memory still allocated.
#include <memory>

#include <gtest/gtest.h>

#include "vk/device.h"

namespace horde::test {

class VulkanTest : public ::testing::Test {
  protected:
    void SetUp() override;
    void TearDown() override;
    Device& device() { return *device_; }
    // Destroys the device now (e.g. to check what the layers said at shutdown).
    void closeDevice();

  private:
    std::unique_ptr<Device> device_;
    std::shared_ptr<const MessageCounts> log_;
};

// Headless display-free options with validation forced on.
DeviceOptions testDeviceOptions();

} // namespace horde::test
