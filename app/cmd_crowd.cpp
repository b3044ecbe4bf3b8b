// horde crowd: the main job. N animated monsters, GPU-driven, headless (PNG and statistics) or
// in a window.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "commands.h"
#include "crowd_window.h"
#include "gpu_session.h"
#include "render/headless.h"
#include "render/png.h"
#include "render/view.h"

namespace horde {

namespace {
struct CrowdArgs {
    ModelInput input;                 // --skeleton, --anim, --search-path apply to every model
    std::vector<std::string> models{"monster"};
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

ModelInput withModel(const ModelInput& shared, const std::string& model) {
    ModelInput input = shared;
    input.model = model;
    return input;
}

int runHeadless(CrowdArgs& a) {
    GpuSession session;
    if (int code = GpuSession::open(a.device, withModel(a.input, a.models[0]), session); code != kExitOk)
        return session.finish(code);
    std::vector<Model*> models{&*session.model};
    for (size_t m = 1; m < a.models.size(); ++m) {
        Model* more = session.loadAnother(withModel(a.input, a.models[m]));
        if (!more) return session.finish(kExitBadInput);
        models.push_back(more);
    }
    Technique technique = a.technique == "vertex" ? Technique::Vertex : Technique::Compute;
    {
        std::vector<std::vector<gpu::InstanceRecord>> layout =
            mixedGrid(std::vector<const Model*>(models.begin(), models.end()), a.count);
        std::vector<std::unique_ptr<CrowdRenderer>> crowds;
        std::vector<CrowdRenderer*> frame;
        Bounds world{glm::vec3(1e30f), glm::vec3(-1e30f)};
        for (size_t m = 0; m < models.size(); ++m) {
            if (layout[m].empty()) continue;
            crowds.push_back(std::make_unique<CrowdRenderer>(*session.device, *models[m], layout[m],
                                                             technique, kFramesInFlight, kOffscreenColorFormat));
            frame.push_back(crowds.back().get());
            world.min = glm::min(world.min, crowds.back()->worldBounds().min);
            world.max = glm::max(world.max, crowds.back()->worldBounds().max);
        }
        float aspect = float(a.width) / float(a.height);
        OrbitCamera camera = frameBounds(world, aspect, 0.6f, 0.55f);
        HeadlessOptions options;
        options.width = a.width;
        options.height = a.height;
        options.frames = a.frames;
        HeadlessResult result = renderHeadless(*session.device, frame, camera.viewProjection(aspect, world.radius()), options);
        for (size_t c = 0; c < crowds.size(); ++c)
            std::printf("crowd: %u instances of %s (%u chunk%s), technique %s, %llu skinned vertices per frame\n",
                        crowds[c]->instanceCount(), a.models[c].c_str(), crowds[c]->chunkCount(),
                        crowds[c]->chunkCount() == 1 ? "" : "s", a.technique.c_str(),
                        static_cast<unsigned long long>(crowds[c]->skinnedVerticesPerFrame()));
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
    cmd->add_option("--model", args->models, "model file(s), or `monster` (default); several share the crowd")
        ->expected(1, -1);
    args->device.addOptions(*cmd);
    cmd->add_option("--count", args->count, "instances")->check(CLI::Range(1u, 1u << 20));
    CLI::Option* frames = cmd->add_option("--frames", args->frames,
                                          "frames to render (default: 30 headless; until closed in a window)");
    cmd->add_option("--out", args->out, "PNG of the last headless frame");
    cmd->add_option("--technique", args->technique, "compute: skin pass then draw; vertex: skin in the vertex shader")
        ->check(CLI::IsMember({"compute", "vertex"}));
    cmd->add_option("--width", args->width, "image width")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--height", args->height, "image height")->check(CLI::Range(16u, 8192u));
    cmd->add_flag("--headless", args->headless, "render offscreen even when a display exists");
    cmd->add_flag("--window", args->window, "open a window (fails without a display)");
    return {cmd, [args, frames] {
                if (args->window || (!args->headless && hasDisplay())) {
                    uint32_t windowFrames = frames->count() ? args->frames : 0;
                    WindowArgs w{args->input, args->models, args->device, args->count, windowFrames, args->technique,
                                 args->width, args->height};
                    return runCrowdWindow(w);
                }
                return runHeadless(*args);
            }};
}

} // namespace horde
