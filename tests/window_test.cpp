// The window path under Xvfb: opens, presents frames, follows a resize, closes cleanly, with the
// validation layers silent.
#include <gtest/gtest.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "monster.h"
#include "render/crowd_scene.h"
#include "render/frames.h"
#include "crowd/view.h"
#include "render/window.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

TEST(Window, PresentsResizesAndCloses) {
    DeviceOptions options = test::testDeviceOptions();
    options.instanceExtensions = Window::requiredExtensions();
    options.swapchain = true;
    auto device = std::make_unique<Device>(options);
    auto log = device->messageLog();
    uint32_t presented = 0;
    VkExtent2D finalExtent{};
    {
        GpuMeshAllocator allocator(*device);
        Model model = buildMonster(allocator, MonsterParams{3, 6, 2});
        Window window(320, 240, "horde window test");
        Swapchain swapchain(*device, window, 2);
        FrameSlots slots(*device, 2);
        CrowdModel crowdModel(*device, model);
        const CrowdModel* models[] = {&crowdModel};
        CrowdSettings settings;
        settings.colorFormat = swapchain.format();
        settings.ground = true;
        CrowdScene crowd(*device, models, 16, settings);
        OrbitCamera camera = frameBounds(crowd.worldBounds(), 4.0f / 3.0f);
        bool resized = false;
        for (uint32_t frame = 0; frame < 80 && presented < 24; ++frame) {
            glfwPollEvents();
            if (presented == 8 && !resized) {
                glfwSetWindowSize(window.handle(), 200, 150);
                resized = true;
            }
            if (swapchain.stale()) {
                slots.waitAll();
                swapchain.rebuild();
                continue;
            }
            uint32_t slot = frame % 2;
            slots.wait(slot);
            Swapchain::Frame target;
            if (!swapchain.acquire(slot, target)) continue;
            VkCommandBuffer cmd = slots.begin(slot);
            RenderTarget rt{target.color,   target.colorView, target.depth, target.depthView, target.samples,
                            target.samplesView, swapchain.extent(),
                            VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
            crowd.recordFrame(cmd, slot, float(frame) / 30.0f, rt,
                              orbitView(camera, 4.0f / 3.0f, crowd.worldBounds().radius(), swapchain.extent().height));
            slots.submit(slot, target.acquired, target.rendered);
            if (swapchain.present(target)) ++presented;
        }
        slots.waitAll();
        finalExtent = swapchain.extent();
        EXPECT_TRUE(resized);
    }
    EXPECT_GE(presented, 24u);
    EXPECT_EQ(finalExtent.width, 200u);
    EXPECT_EQ(finalExtent.height, 150u);
    EXPECT_EQ(device->allocator().liveAllocations(), 0u);
    device.reset();
    EXPECT_EQ(log->error, 0u);
    EXPECT_EQ(log->warning, 0u);
}
