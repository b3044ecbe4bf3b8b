#include "crowd_window.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "crowd/frame_stats.h"
#include "crowd/view.h"
#include "crowd_sources.h"
#include "gpu_session.h"
#include "render/crowd_scene.h"
#include "render/frames.h"
#include "render/window.h"

namespace horde {

namespace {

constexpr uint32_t kSlots = 2;

// Input state the GLFW callbacks write and the loop reads; owned by the loop, reached through
// the window's user pointer.
struct Controls {
    bool paused = false, step = false, rebuild = false, tintLevels = false, freeze = false;
    uint32_t count = 0;
    Technique technique = Technique::Compute;
    OrbitCamera camera;
    bool dragging = false;
    double lastX = 0, lastY = 0;
};

Controls& controls(GLFWwindow* w) {
    return *static_cast<Controls*>(glfwGetWindowUserPointer(w));
}

void onKey(GLFWwindow* w, int key, int, int action, int) {
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    Controls& c = controls(w);
    switch (key) {
    case GLFW_KEY_ESCAPE:
        glfwSetWindowShouldClose(w, GLFW_TRUE);
        break;
    case GLFW_KEY_SPACE:
        c.paused = !c.paused;
        break;
    case GLFW_KEY_PERIOD:
    case GLFW_KEY_RIGHT:
        c.paused = true, c.step = true;
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        c.count = std::min(c.count * 2, 1u << 20), c.rebuild = true;
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        c.count = std::max(c.count / 2, 1u), c.rebuild = true;
        break;
    case GLFW_KEY_T:
        c.technique = c.technique == Technique::Compute ? Technique::Vertex : Technique::Compute;
        c.rebuild = true;
        break;
    case GLFW_KEY_L:
        c.tintLevels = !c.tintLevels;
        break;
    case GLFW_KEY_F:
        c.freeze = !c.freeze;
        break;
    default:
        break;
    }
}

void onButton(GLFWwindow* w, int button, int action, int) {
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    Controls& c = controls(w);
    c.dragging = action == GLFW_PRESS;
    glfwGetCursorPos(w, &c.lastX, &c.lastY);
}

void onCursor(GLFWwindow* w, double x, double y) {
    Controls& c = controls(w);
    if (!c.dragging) return;
    c.camera.yaw -= float(x - c.lastX) * 0.01f;
    c.camera.pitch = std::clamp(c.camera.pitch + float(y - c.lastY) * 0.01f, -1.4f, 1.4f);
    c.lastX = x;
    c.lastY = y;
}

void onScroll(GLFWwindow* w, double, double dy) {
    controls(w).camera.distance *= std::pow(0.9f, float(dy));
}

const char* name(Technique t) {
    return t == Technique::Compute ? "compute" : "vertex";
}

} // namespace

int runCrowdWindow(const WindowArgs& a) {
    std::vector<std::string> extensions = Window::requiredExtensions();
    GpuSession session;
    std::vector<Model*> models;
    std::vector<ModelInput> inputs = crowdInputs(a.input, a.models);
    if (inputs.empty()) return kExitBadInput;
    if (int code = GpuSession::openAll(a.device, inputs, session, models, true, extensions); code != kExitOk)
        return session.finish(code);
    Device& device = *session.device;
    {
        Window window(a.width, a.height, "horde");
        const VkSampleCountFlagBits samples = a.crowd.picture.samples(device);
        Swapchain swapchain(device, window, kSlots, samples);
        FrameSlots slots(device, kSlots);
        std::vector<std::unique_ptr<CrowdModel>> crowdModelsOwned =
            crowdModels(device, models, crowdScales(models, inputs, a.crowd.units));
        Controls c;
        c.count = a.count;
        c.technique = a.crowd.technique == "vertex" ? Technique::Vertex : Technique::Compute;
        glfwSetWindowUserPointer(window.handle(), &c);
        glfwSetKeyCallback(window.handle(), onKey);
        glfwSetMouseButtonCallback(window.handle(), onButton);
        glfwSetCursorPosCallback(window.handle(), onCursor);
        glfwSetScrollCallback(window.handle(), onScroll);

        std::unique_ptr<CrowdScene> scene;
        auto build = [&] {
            scene.reset();
            CrowdSettings settings = a.crowd.settings(swapchain.format(), kSlots, samples);
            settings.technique = c.technique;
            scene = std::make_unique<CrowdScene>(device, pointers(crowdModelsOwned), c.count, settings);
        };
        build();
        c.camera = a.crowd.camera(*scene, float(a.width) / float(a.height), a.height);
        FrameStats stats;
        ViewCamera frozen;
        bool wasFrozen = false;
        float time = 0.0f;
        auto last = std::chrono::steady_clock::now(), titleAt = last;
        uint32_t frame = 0, presented = 0;
        while (!window.shouldClose() && (a.frames == 0 || presented < a.frames)) {
            glfwPollEvents();
            if (c.rebuild) {
                slots.waitAll();
                build();
                stats = {};
                c.rebuild = false;
            }
            if (swapchain.stale()) {
                VkExtent2D size = window.framebufferSize();
                if (size.width == 0 || size.height == 0) {
                    glfwWaitEvents(); // minimised
                    continue;
                }
                slots.waitAll();
                swapchain.rebuild();
                continue;
            }
            uint32_t slot = frame % kSlots;
            if (slots.wait(slot)) scene->collectStats(slot, stats);
            Swapchain::Frame target;
            if (!swapchain.acquire(slot, target)) continue;

            auto now = std::chrono::steady_clock::now();
            float dt = std::chrono::duration<float>(now - last).count();
            last = now;
            if (!c.paused)
                time += dt;
            else if (c.step)
                time += 1.0f / 30.0f, c.step = false;

            auto cpuStart = std::chrono::steady_clock::now();
            VkCommandBuffer cmd = slots.begin(slot);
            VkExtent2D extent = swapchain.extent();
            float aspect = float(extent.width) / float(extent.height);
            ViewCamera view = orbitView(c.camera, aspect, scene->worldBounds().radius(), extent.height);
            // `f` keeps culling and level choice where the camera was, so flying around shows
            // what that camera did not draw.
            if (c.freeze && !wasFrozen) frozen = view;
            wasFrozen = c.freeze;
            scene->setTintLevels(c.tintLevels);
            RenderTarget rt{
                target.color,   target.colorView,   target.depth, target.depthView,
                target.samples, target.samplesView, extent,       VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
            scene->recordFrame(cmd, slot, time, rt, view, c.freeze ? &frozen : nullptr);
            slots.submit(slot, target.acquired, target.rendered);
            stats.cpuMs.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart)
                    .count());
            swapchain.present(target);
            ++frame;
            ++presented;

            if (now - titleAt > std::chrono::milliseconds(500) && !stats.gpu.empty()) {
                PassTimes g = stats.medianGpu();
                FrameCounts n = stats.medianCounts();
                std::string levels;
                for (size_t l = 0; l < n.perLevel.size(); ++l)
                    if (n.perLevel[l]) levels += " " + std::to_string(n.perLevel[l]);
                char title[384];
                std::snprintf(title, sizeof title,
                              "horde  %u/%u visible  levels%s  %.2f M tris  %s  gpu %.2f ms (cull %.2f "
                              "sample %.2f pose %.2f "
                              "skin %.2f draw %.2f)  cpu %.2f ms%s%s%s%s",
                              n.visible, c.count, levels.c_str(), double(n.triangles) * 1e-6,
                              name(c.technique), g.totalMs(), g.cullMs, g.sampleMs, g.poseMs, g.skinMs,
                              g.drawMs, stats.medianCpuMs(),
                              n.dropped ? ("  " + std::to_string(n.dropped) + " DROPPED").c_str() : "",
                              c.paused ? "  [paused]" : "", c.freeze ? "  [culling frozen]" : "",
                              c.tintLevels ? "  [levels]" : "");
                glfwSetWindowTitle(window.handle(), title);
                titleAt = now;
                stats = {};
            }
        }
        slots.waitAll();
        std::printf("window: presented %u frames, %u instances, technique %s\n", presented, c.count,
                    name(c.technique));
    }
    return session.finish(kExitOk);
}

} // namespace horde
