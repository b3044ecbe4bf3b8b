// The window path under Xvfb: opens, presents frames, follows a resize, closes cleanly, draws
// its overlay over the crowd, with the validation layers silent.
#include <memory>
#include <span>

#include <gtest/gtest.h>

#include <imgui.h>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "monster.h"
#include "render/crowd_scene.h"
#include "render/frames.h"
#include "crowd/view.h"
#include "render/overlay.h"
#include "render/window.h"
#include "support/shell.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

namespace {

// A device that presents, with validation on; destroyed by expectCleanShutdown.
std::unique_ptr<Device> presentingDevice() {
    DeviceOptions options = test::testDeviceOptions();
    options.instanceExtensions = Window::requiredExtensions();
    options.swapchain = true;
    return std::make_unique<Device>(options);
}

// Nothing left allocated, and the layers silent through vkDestroyDevice.
void expectCleanShutdown(std::unique_ptr<Device>& device) {
    auto log = device->messageLog();
    EXPECT_EQ(device->allocator().liveAllocations(), 0u);
    device.reset();
    EXPECT_EQ(log->error, 0u);
    EXPECT_EQ(log->warning, 0u);
}

// A 320 x 240 window, its swapchain and two frame slots, and a crowd of 16 small monsters framed
// in it.
struct WindowCrowd {
    WindowCrowd(Device& device, const char* title)
        : allocator(device), model(buildMonster(allocator, MonsterParams{3, 6, 2})), window(320, 240, title),
          swapchain(device, window, 2), slots(device, 2), crowdModel(device, model),
          crowd(device, std::span(&modelPointer, 1), settings(), SceneOutput{.colorFormat = swapchain.format()}),
          camera(frameBounds(crowd.worldBounds(), 4.0f / 3.0f)) {}

    ViewCamera view() const {
        return orbitView(camera, 4.0f / 3.0f, crowd.worldBounds().radius(), swapchain.extent().height);
    }
    static CrowdSettings settings() {
        CrowdSettings s;
        s.count = 16;
        s.layout.kind = Layout::Grid;
        s.behaviour = loopBehaviour();
        s.ground = true;
        return s;
    }

    GpuMeshAllocator allocator;
    Model model;
    Window window;
    Swapchain swapchain;
    FrameSlots slots;
    CrowdModel crowdModel;
    const CrowdModel* modelPointer = &crowdModel;
    CrowdScene crowd;
    OrbitCamera camera;
};

} // namespace

TEST(Window, PresentsResizesAndCloses) {
    auto device = presentingDevice();
    uint32_t presented = 0;
    VkExtent2D finalExtent{};
    {
        WindowCrowd w(*device, "horde window test");
        bool resized = false;
        for (uint32_t frame = 0; frame < 80 && presented < 24; ++frame) {
            glfwPollEvents();
            if (presented == 8 && !resized) {
                glfwSetWindowSize(w.window.handle(), 200, 150);
                resized = true;
            }
            if (w.swapchain.stale()) {
                w.slots.waitAll();
                w.swapchain.rebuild();
                continue;
            }
            uint32_t slot = frame % 2;
            w.slots.wait(slot);
            Swapchain::Frame target;
            if (!w.swapchain.acquire(slot, target)) continue;
            VkCommandBuffer cmd = w.slots.begin(slot);
            RenderTarget rt{target.color,   target.colorView,   target.depth,          target.depthView,
                            target.samples, target.samplesView, w.swapchain.extent(), VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
            w.crowd.recordFrame(cmd, slot, float(frame) / 30.0f, rt, w.view());
            w.slots.submit(slot, target.acquired, target.rendered);
            if (w.swapchain.present(target)) ++presented;
        }
        w.slots.waitAll();
        finalExtent = w.swapchain.extent();
        EXPECT_TRUE(resized);
    }
    EXPECT_GE(presented, 24u);
    EXPECT_EQ(finalExtent.width, 200u);
    EXPECT_EQ(finalExtent.height, 150u);
    expectCleanShutdown(device);
}

// The overlay over a crowd, read back from the presented image: a panel of the ImGui frame drawn
// opaque magenta covers its rectangle (text aside) and leaves the rest of the frame as the same
// frame without it.
TEST(Window, TheOverlayIsDrawnOverTheCrowd) {
    auto device = presentingDevice();
    {
        WindowCrowd w(*device, "horde overlay test");
        Swapchain& swapchain = w.swapchain;
        FrameSlots& slots = w.slots;
        ASSERT_TRUE(swapchain.readable()) << "Xvfb's surface lets its images be copied from";
        ImGui::CreateContext();
        ImGui::GetIO().DisplaySize = ImVec2(320, 240);
        ImGui::GetIO().IniFilename = nullptr;
        Overlay overlay(*device, swapchain.format(), 2);
        const VkExtent2D extent = swapchain.extent();
        Buffer readback(*device, VkDeviceSize(extent.width) * extent.height * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                        MemoryUse::Readback, "overlay readback");
        // One frame, with or without the panel, its image copied into `readback` before presenting.
        auto frame = [&](uint32_t slot, bool panel) {
            ImGui::NewFrame();
            if (panel) {
                ImGui::SetNextWindowPos(ImVec2(20, 30));
                ImGui::SetNextWindowSize(ImVec2(140, 90));
                ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(1, 0, 1, 1));
                ImGui::Begin("panel", nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoDecoration);
                ImGui::Text("overlay");
                ImGui::End();
                ImGui::PopStyleColor();
            }
            ImGui::Render();
            slots.wait(slot);
            Swapchain::Frame target;
            while (!swapchain.acquire(slot, target)) glfwPollEvents();
            VkCommandBuffer cmd = slots.begin(slot);
            RenderTarget rt{target.color,   target.colorView,   target.depth, target.depthView,
                            target.samples, target.samplesView, extent,       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
            w.crowd.recordFrame(cmd, slot, 0.5f, rt, w.view());
            overlay.record(cmd, slot, *ImGui::GetDrawData(), target.color, target.colorView, extent,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
            VkBufferImageCopy region{};
            region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
            region.imageExtent = {extent.width, extent.height, 1};
            vkCmdCopyImageToBuffer(cmd, target.color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.get(), 1, &region);
            imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0, VK_PIPELINE_STAGE_2_NONE, 0);
            barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                    VK_ACCESS_2_HOST_READ_BIT);
            slots.submit(slot, target.acquired, target.rendered);
            swapchain.present(target);
            slots.wait(slot);
            const auto* bytes = static_cast<const uint8_t*>(readback.mapped());
            return std::vector<uint8_t>(bytes, bytes + readback.size());
        };
        const std::vector<uint8_t> bare = frame(0, false), covered = frame(1, true);
        auto pixel = [&](const std::vector<uint8_t>& image, uint32_t x, uint32_t y) {
            const uint8_t* p = &image[(size_t(y) * extent.width + x) * 4];
            return glm::ivec3(p[0], p[1], p[2]); // magenta reads the same in RGBA and BGRA
        };
        uint32_t magenta = 0, inside = 0, changedOutside = 0;
        for (uint32_t y = 0; y < extent.height; ++y)
            for (uint32_t x = 0; x < extent.width; ++x) {
                const bool in = x >= 22 && x < 158 && y >= 32 && y < 118;
                const bool edge = x >= 16 && x < 164 && y >= 26 && y < 124; // the panel's border and rounding
                if (in) {
                    ++inside;
                    magenta += pixel(covered, x, y) == glm::ivec3(255, 0, 255);
                } else if (!edge) {
                    changedOutside += pixel(covered, x, y) != pixel(bare, x, y);
                }
            }
        EXPECT_GT(magenta, inside * 8 / 10) << "the panel's background covers its rectangle (but for its text)";
        EXPECT_LT(magenta, inside) << "and its text is drawn on it";
        EXPECT_EQ(changedOutside, 0u) << "the frame outside the panel is the frame without it";
        slots.waitAll();
        ImGui::DestroyContext();
    }
    expectCleanShutdown(device);
}

// The interactive crowd itself, its overlay panel drawn every frame, under validation.
TEST(Window, TheCrowdWindowRunsWithItsOverlay) {
    const test::Outcome run = test::shell(std::string(HORDE_CLI) +
                                          " crowd --window --validation --frames 12 --count 16 --width 480 --height 300"
                                          " --skinning dqs --precision fp16");
    EXPECT_EQ(run.code, 0) << run.out;
    EXPECT_NE(run.out.find("window: presented 12 frames, 16 instances, technique compute, skinning dqs/fp16/4"),
              std::string::npos)
        << run.out;
    EXPECT_EQ(run.out.find("vulkan error"), std::string::npos) << run.out;
}
