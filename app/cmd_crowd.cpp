// horde crowd: the main job. N animated monsters, GPU-driven, headless (PNG and statistics) or
// in a window.
#include <cstdio>
#include <cstdlib>

#include "commands.h"
#include "crowd_window.h"
#include "gpu_session.h"
#include "render/headless.h"
#include "render/png.h"
#include "render/view.h"

namespace horde {

namespace {
struct CrowdArgs {
    ModelInput input;
    DeviceChoice device;
    uint32_t count = 1024;
    uint32_t frames = 30;
    std::string out = "crowd.png";
    std::string technique = "compute";
    uint32_t width = 1280, height = 720;
    bool headless = false, window = false;
};

bool hasDisplay() {
    const char* x = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wayland && *wayland);
}

int runHeadless(CrowdArgs& a) {
    GpuSession session;
    if (int code = GpuSession::open(a.device, a.input, session); code != kExitOk) return session.finish(code);
    Model& model = *session.model;
    Technique technique = a.technique == "vertex" ? Technique::Vertex : Technique::Compute;
    {
        CrowdRenderer crowd(*session.device, model, gridInstances(model, a.count), technique, kFramesInFlight,
                            kOffscreenColorFormat);
        float aspect = float(a.width) / float(a.height);
        Bounds world = crowd.worldBounds();
        OrbitCamera camera = frameBounds(world, aspect, 0.6f, 0.55f);
        HeadlessOptions options;
        options.width = a.width;
        options.height = a.height;
        options.frames = a.frames;
        HeadlessResult result = renderHeadless(*session.device, crowd, camera.viewProjection(aspect, world.radius()), options);
        std::printf("crowd: %u instances of %s (%u chunk%s), technique %s, %llu skinned vertices per frame\n", a.count,
                    a.input.model.c_str(), crowd.chunkCount(), crowd.chunkCount() == 1 ? "" : "s", a.technique.c_str(),
                    static_cast<unsigned long long>(crowd.skinnedVerticesPerFrame()));
        std::printf("%6s %10s %10s %10s %10s %10s %10s\n", "frame", "sample", "pose", "skin", "draw", "gpu ms", "cpu ms");
        for (size_t f = 0; f < result.stats.gpu.size(); ++f) {
            const PassTimes& t = result.stats.gpu[f];
            std::printf("%6zu %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", f, t.sampleMs, t.poseMs, t.skinMs, t.drawMs,
                        t.totalMs(), f < result.stats.cpuMs.size() ? result.stats.cpuMs[f] : 0.0);
        }
        std::printf("median: %s\n", result.stats.summary().c_str());
        if (!a.out.empty()) {
            if (Status st = writePng(a.out, result.image.width, result.image.height, result.image.rgba); !st) {
                std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
                return session.finish(kExitBadInput);
            }
            std::printf("wrote %s\n", a.out.c_str());
        }
    }
    return session.finish(kExitOk);
}
} // namespace

Command addCrowdCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand("crowd", "animate and draw a crowd (window if there is a display, else headless)");
    auto args = std::make_shared<CrowdArgs>();
    args->input.addOptions(*cmd, false);
    cmd->add_option("--model", args->input.model, "model file, or `monster` (default)");
    args->device.addOptions(*cmd);
    cmd->add_option("--count", args->count, "instances")->check(CLI::Range(1u, 1u << 20));
    cmd->add_option("--frames", args->frames, "frames to render headless (window: frames before closing, 0 = until closed)");
    cmd->add_option("--out", args->out, "PNG of the last headless frame");
    cmd->add_option("--technique", args->technique, "compute: skin pass then draw; vertex: skin in the vertex shader")
        ->check(CLI::IsMember({"compute", "vertex"}));
    cmd->add_option("--width", args->width, "image width")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--height", args->height, "image height")->check(CLI::Range(16u, 8192u));
    cmd->add_flag("--headless", args->headless, "render offscreen even when a display exists");
    cmd->add_flag("--window", args->window, "open a window (fails without a display)");
    return {cmd, [args] {
                if (args->window || (!args->headless && hasDisplay())) {
                    WindowArgs w{args->input, args->device, args->count, args->frames, args->technique, args->width, args->height};
                    return runCrowdWindow(w);
                }
                return runHeadless(*args);
            }};
}

} // namespace horde
