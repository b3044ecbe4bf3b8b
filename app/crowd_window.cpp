#include "crowd_window.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "gpu_session.h"
#include "render/crowd.h"
#include "render/frames.h"
#include "render/stats.h"
#include "render/view.h"
#include "render/window.h"

namespace horde {

namespace {

constexpr uint32_t kSlots = 2;

// Input state the GLFW callbacks write and the loop reads; owned by the loop, reached through
// the window's user pointer.
struct Controls {
    bool paused = false, step = false, rebuild = false;
    uint32_t count = 0;
    Technique technique = Technique::Compute;
    OrbitCamera camera;
    bool dragging = false;
    double lastX = 0, lastY = 0;
};

Controls& controls(GLFWwindow* w) { return *static_cast<Controls*>(glfwGetWindowUserPointer(w)); }

void onKey(GLFWwindow* w, int key, int, int action, int) {
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    Controls& c = controls(w);
    switch (key) {
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(w, GLFW_TRUE); break;
    case GLFW_KEY_SPACE: c.paused = !c.paused; break;
    case GLFW_KEY_PERIOD: case GLFW_KEY_RIGHT: c.paused = true, c.step = true; break;
    case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD: c.count = std::min(c.count * 2, 1u << 20), c.rebuild = true; break;
    case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT: c.count = std::max(c.count / 2, 1u), c.rebuild = true; break;
    case GLFW_KEY_T:
        c.technique = c.technique == Technique::Compute ? Technique::Vertex : Technique::Compute;
        c.rebuild = true;
        break;
    default: break;
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

void onScroll(GLFWwindow* w, double, double dy) { controls(w).camera.distance *= std::pow(0.9f, float(dy)); }

const char* name(Technique t) { return t == Technique::Compute ? "compute" : "vertex"; }

} // namespace

int runCrowdWindow(const WindowArgs& a) {
    std::vector<std::string> extensions = Window::requiredExtensions();
    GpuSession session;
    ModelInput first = a.input;
    first.model = a.models[0];
    if (int code = GpuSession::open(a.device, first, session, true, extensions); code != kExitOk) return session.finish(code);
    Device& device = *session.device;
    std::vector<Model*> models{&*session.model};
    for (size_t m = 1; m < a.models.size(); ++m) {
        ModelInput more = a.input;
        more.model = a.models[m];
        Model* loaded = session.loadAnother(more);
        if (!loaded) return session.finish(kExitBadInput);
        models.push_back(loaded);
    }
    {
        Window window(a.width, a.height, "horde");
        Swapchain swapchain(device, window, kSlots);
        FrameSlots slots(device, kSlots);
        Controls c;
        c.count = a.count;
        c.technique = a.technique == "vertex" ? Technique::Vertex : Technique::Compute;
        glfwSetWindowUserPointer(window.handle(), &c);
        glfwSetKeyCallback(window.handle(), onKey);
        glfwSetMouseButtonCallback(window.handle(), onButton);
        glfwSetCursorPosCallback(window.handle(), onCursor);
        glfwSetScrollCallback(window.handle(), onScroll);

        std::vector<std::unique_ptr<CrowdRenderer>> crowds;
        std::vector<CrowdRenderer*> frameCrowds;
        Bounds world;
        auto build = [&] {
            crowds.clear();
            frameCrowds.clear();
            auto layout = mixedGrid(std::vector<const Model*>(models.begin(), models.end()), c.count);
            world = {glm::vec3(1e30f), glm::vec3(-1e30f)};
            for (size_t m = 0; m < models.size(); ++m) {
                if (layout[m].empty()) continue;
                crowds.push_back(std::make_unique<CrowdRenderer>(device, *models[m], layout[m], c.technique, kSlots,
                                                                 swapchain.format()));
                frameCrowds.push_back(crowds.back().get());
                world.min = glm::min(world.min, crowds.back()->worldBounds().min);
                world.max = glm::max(world.max, crowds.back()->worldBounds().max);
            }
        };
        build();
        c.camera = frameBounds(world, float(a.width) / float(a.height), 0.6f, 0.55f);
        FrameStats stats;
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
            if (slots.wait(slot))
                if (auto t = crowds[0]->passTimes(slot)) stats.gpu.push_back(*t);
            Swapchain::Frame target;
            if (!swapchain.acquire(slot, target)) continue;

            auto now = std::chrono::steady_clock::now();
            float dt = std::chrono::duration<float>(now - last).count();
            last = now;
            if (!c.paused) time += dt;
            else if (c.step) time += 1.0f / 30.0f, c.step = false;

            auto cpuStart = std::chrono::steady_clock::now();
            VkCommandBuffer cmd = slots.begin(slot);
            VkExtent2D extent = swapchain.extent();
            float aspect = float(extent.width) / float(extent.height);
            RenderTarget rt{target.color, target.colorView, target.depth, target.depthView, extent,
                            VK_IMAGE_LAYOUT_PRESENT_SRC_KHR};
            CrowdRenderer::recordFrame(cmd, slot, frameCrowds, time, rt, c.camera.viewProjection(aspect, world.radius()));
            slots.submit(slot, target.acquired, target.rendered);
            stats.cpuMs.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart).count());
            swapchain.present(target);
            ++frame;
            ++presented;

            if (now - titleAt > std::chrono::milliseconds(500) && !stats.gpu.empty()) {
                stats.skinnedVerticesPerFrame = 0;
                for (CrowdRenderer* crowd : frameCrowds) stats.skinnedVerticesPerFrame += crowd->skinnedVerticesPerFrame();
                PassTimes g = stats.medianGpu();
                char title[256];
                std::snprintf(title, sizeof title, "horde  %u instances  %s  gpu %.2f ms (sample %.2f pose %.2f skin %.2f draw %.2f)  cpu %.2f ms%s",
                              c.count, name(c.technique), g.totalMs(), g.sampleMs, g.poseMs, g.skinMs, g.drawMs,
                              stats.medianCpuMs(), c.paused ? "  [paused]" : "");
                glfwSetWindowTitle(window.handle(), title);
                titleAt = now;
                stats.gpu.clear();
                stats.cpuMs.clear();
            }
        }
        slots.waitAll();
        std::printf("window: presented %u frames, %u instances, technique %s\n", presented, c.count, name(c.technique));
    }
    return session.finish(kExitOk);
}

} // namespace horde
