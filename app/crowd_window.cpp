#include "crowd_window.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include "crowd/frame_stats.h"
#include "crowd/view.h"
#include "crowd_options.h"
#include "crowd_panel.h"
#include "gpu_session.h"
#include "render/crowd_camera.h"
#include "render/crowd_scene.h"
#include "render/frames.h"
#include "render/overlay.h"
#include "render/window.h"

namespace horde {

namespace {

constexpr uint32_t kSlots = 2;

// Input state the GLFW callbacks write and the loop reads; owned by the loop, reached through
// the window's user pointer. ImGui's GLFW backend calls these after its own, and they leave
// alone what the overlay's panel is using (a field being typed into, the mouse over the panel).
struct Controls {
    WindowControls window;
    bool step = false;
    OrbitCamera camera;
    bool dragging = false;
    double lastX = 0, lastY = 0;
};

Controls& controls(GLFWwindow* w) {
    return *static_cast<Controls*>(glfwGetWindowUserPointer(w));
}

void onKey(GLFWwindow* w, int key, int, int action, int) {
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    if (ImGui::GetIO().WantCaptureKeyboard) return;
    Controls& all = controls(w);
    WindowControls& c = all.window;
    CrowdSettings& crowd = c.crowd;
    switch (key) {
    case GLFW_KEY_ESCAPE:
        glfwSetWindowShouldClose(w, GLFW_TRUE);
        break;
    case GLFW_KEY_SPACE:
        c.paused = !c.paused;
        break;
    case GLFW_KEY_PERIOD:
    case GLFW_KEY_RIGHT:
        c.paused = true, all.step = true;
        break;
    case GLFW_KEY_EQUAL:
    case GLFW_KEY_KP_ADD:
        crowd.count = std::min(crowd.count * 2, kCountRange.max);
        break;
    case GLFW_KEY_MINUS:
    case GLFW_KEY_KP_SUBTRACT:
        crowd.count = std::max(crowd.count / 2, kCountRange.min);
        break;
    case GLFW_KEY_T:
        crowd.technique = crowd.technique == Technique::Compute ? Technique::Vertex : Technique::Compute;
        break;
    case GLFW_KEY_L:
        c.tintLevels = !c.tintLevels;
        break;
    case GLFW_KEY_F:
        c.freeze = !c.freeze;
        break;
    case GLFW_KEY_O:
        c.showOverlay = !c.showOverlay;
        break;
    default:
        break;
    }
}

void onButton(GLFWwindow* w, int button, int action, int) {
    if (button != GLFW_MOUSE_BUTTON_LEFT) return;
    Controls& c = controls(w);
    c.dragging = action == GLFW_PRESS && !ImGui::GetIO().WantCaptureMouse;
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
    if (ImGui::GetIO().WantCaptureMouse) return;
    controls(w).camera.distance *= std::pow(0.9f, float(dy));
}

// ImGui for one window: its context and GLFW backend, installed after horde's own callbacks,
// which it calls in turn.
struct OverlayContext {
    explicit OverlayContext(GLFWwindow* window) {
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr; // nothing written beside the binary
        ImGui_ImplGlfw_InitForVulkan(window, true);
    }
    ~OverlayContext() {
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    OverlayContext(const OverlayContext&) = delete;
    OverlayContext& operator=(const OverlayContext&) = delete;
};

} // namespace

int runCrowdWindow(const WindowArgs& a) {
    std::vector<std::string> extensions = Window::requiredExtensions();
    GpuSession session;
    if (int code = GpuSession::openCrowd(a.device, a.input, a.models, session, true, extensions); code != kExitOk)
        return session.finish(code);
    Device& device = *session.device;
    {
        Window window(a.width, a.height, "horde");
        Controls c;
        c.window.crowd = a.crowd;
        c.window.behaviours = {loopBehaviour(), wanderBehaviour()};
        if (a.crowd.behaviour != loopBehaviour() && a.crowd.behaviour != wanderBehaviour())
            c.window.behaviours.push_back(a.crowd.behaviour);
        c.window.crowd.picture.msaa = uint32_t(samplesOn(device, a.crowd.picture.msaa));
        const uint32_t maxSamples = uint32_t(device.supportedSamples(8));
        auto swapchain =
            std::make_unique<Swapchain>(device, window, kSlots, VkSampleCountFlagBits(c.window.crowd.picture.msaa));
        FrameSlots slots(device, kSlots);
        const GpuSession::PreparedCrowd prepared = session.prepareCrowd(a.crowd.units, a.crowd.count);
        if (!prepared.error.empty()) {
            std::fprintf(stderr, "horde: %s\n", prepared.error.c_str());
            return session.finish(kExitBadInput);
        }
        glfwSetWindowUserPointer(window.handle(), &c);
        glfwSetKeyCallback(window.handle(), onKey);
        glfwSetMouseButtonCallback(window.handle(), onButton);
        glfwSetCursorPosCallback(window.handle(), onCursor);
        glfwSetScrollCallback(window.handle(), onScroll);
        OverlayContext overlayContext(window.handle());
        Overlay overlay(device, swapchain->format(), kSlots);

        std::unique_ptr<CrowdScene> scene;
        // A scene made again keeps the last one's textures and impostors where they still fit.
        auto build = [&] {
            std::shared_ptr<SceneResources> resources = scene ? scene->resources() : nullptr;
            scene.reset();
            const CrowdSettings& s = c.window.crowd;
            scene = std::make_unique<CrowdScene>(
                device, pointers(prepared.models), s,
                SceneOutput{kSlots, swapchain->format(), VkSampleCountFlagBits(s.picture.msaa)},
                std::move(resources));
        };
        build();
        c.camera = crowdCamera(*scene, float(a.width) / float(a.height), a.height);
        FrameStats stats;
        PassHistory history;
        PassTimes shownTimes;
        FrameCounts shownCounts;
        ViewCamera frozen;
        bool wasFrozen = false;
        float time = 0.0f;
        auto last = std::chrono::steady_clock::now(), titleAt = last;
        uint32_t frame = 0, presented = 0;
        while (!window.shouldClose() && (a.frames == 0 || presented < a.frames)) {
            glfwPollEvents();
            // The keys and the last frame's panel changed the settings: the scene takes what its
            // passes read each frame, and is made again for the rest.
            if (!scene->update(c.window.crowd)) {
                slots.waitAll();
                if (c.window.crowd.picture.msaa != scene->settings().picture.msaa) {
                    swapchain.reset();
                    swapchain = std::make_unique<Swapchain>(device, window, kSlots,
                                                            VkSampleCountFlagBits(c.window.crowd.picture.msaa));
                }
                build();
                stats = {};
                history.clear();
            }
            if (swapchain->stale()) {
                VkExtent2D size = window.framebufferSize();
                if (size.width == 0 || size.height == 0) {
                    glfwWaitEvents(); // minimised
                    continue;
                }
                slots.waitAll();
                swapchain->rebuild();
                continue;
            }
            uint32_t slot = frame % kSlots;
            if (slots.wait(slot)) {
                scene->collectStats(slot, stats);
                if (!stats.gpu.empty()) history.add(stats.gpu.back());
            }
            Swapchain::Frame target;
            if (!swapchain->acquire(slot, target)) continue;

            auto now = std::chrono::steady_clock::now();
            float dt = std::chrono::duration<float>(now - last).count();
            last = now;
            if (!c.window.paused)
                time += dt;
            else if (c.step)
                time += 1.0f / 30.0f, c.step = false;

            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();
            if (c.window.showOverlay)
                drawCrowdPanel(c.window, history, shownCounts, shownTimes, maxSamples, stats.states);
            ImGui::Render();

            auto cpuStart = std::chrono::steady_clock::now();
            VkCommandBuffer cmd = slots.begin(slot);
            VkExtent2D extent = swapchain->extent();
            float aspect = float(extent.width) / float(extent.height);
            ViewCamera view = orbitView(c.camera, aspect, scene->worldBounds().radius(), extent.height);
            // `f` keeps culling and level choice where the camera was, so flying around shows
            // what that camera did not draw.
            if (c.window.freeze && !wasFrozen) frozen = view;
            wasFrozen = c.window.freeze;
            scene->setTintLevels(c.window.tintLevels);
            RenderTarget rt{target.color,   target.colorView,   target.depth, target.depthView,
                            target.samples, target.samplesView, extent,       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
            scene->recordFrame(cmd, slot, time, rt, view, c.window.freeze ? &frozen : nullptr);
            overlay.record(cmd, slot, *ImGui::GetDrawData(), target.color, target.colorView, extent,
                           VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
            slots.submit(slot, target.acquired, target.rendered);
            stats.cpuMs.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart)
                    .count());
            swapchain->present(target);
            ++frame;
            ++presented;

            if (now - titleAt > std::chrono::milliseconds(500) && !stats.gpu.empty()) {
                shownTimes = stats.medianGpu();
                shownCounts = stats.medianCounts();
                const PassTimes& g = shownTimes;
                const FrameCounts& n = shownCounts;
                std::string levels;
                for (size_t l = 0; l < n.perLevel.size(); ++l)
                    if (n.perLevel[l]) levels += " " + std::to_string(n.perLevel[l]);
                char title[384];
                std::snprintf(title, sizeof title,
                              "horde  %u/%u visible  levels%s  %.2f M tris  %s %s  gpu %.2f ms (cull %.2f "
                              "sample %.2f pose %.2f skin %.2f draw %.2f)  cpu %.2f ms%s%s%s%s",
                              n.visible, scene->settings().count, levels.c_str(), double(n.triangles) * 1e-6,
                              nameOf(scene->settings().technique).data(), skinName(scene->settings().skin).c_str(),
                              g.totalMs(), g.cullMs,
                              g.sampleMs, g.poseMs, g.skinMs, g.drawMs, stats.medianCpuMs(),
                              n.dropped ? ("  " + std::to_string(n.dropped) + " DROPPED").c_str() : "",
                              c.window.paused ? "  [paused]" : "", c.window.freeze ? "  [culling frozen]" : "",
                              c.window.tintLevels ? "  [levels]" : "");
                glfwSetWindowTitle(window.handle(), title);
                titleAt = now;
                stats = {};
            }
        }
        slots.waitAll();
        std::printf("window: presented %u frames, %u instances, technique %s, skinning %s\n", presented,
                    scene->settings().count, nameOf(scene->settings().technique).data(),
                    skinName(scene->settings().skin).c_str());
    }
    return session.finish(kExitOk);
}

} // namespace horde
