// horde crowd: the main job. N animated monsters, GPU-driven, headless (PNG and statistics) or
// in a window.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/png.h"
#include "crowd/frame_stats.h"
#include "crowd/sight.h"
#include "crowd/view.h"
#include "crowd_options.h"
#include "crowd_window.h"
#include "gpu_session.h"
#include "render/crowd_camera.h"
#include "animation_writer.h"
#include "render/headless.h"
#include "render/supersample.h"

namespace horde {

namespace {
struct CrowdArgs {
    ModelInput input; // --skeleton, --anim, --search-path given before any --model: every model's
    std::vector<CrowdModelArg> models;
    DeviceChoice device;
    CrowdSettings crowd;
    uint32_t frames = 30;
    std::string out = "crowd.png";
    std::string stats;
    std::string video; // an animated WebP of every headless frame
    uint32_t width = 1280, height = 720;
    uint32_t supersample = 1; // drawn at this many times the width and height, blocks averaged
    bool headless = false, window = false;
};

constexpr uint32_t kVideoFramesPerSecond = 30;
constexpr uint32_t kMaxDrawnSide = 16384;

const char* onOff(bool on) {
    return on ? "on" : "off";
}

bool hasDisplay() {
    const char* x = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    return (x && *x) || (wayland && *wayland);
}

// "model: material: texture" for every texture a material names and no file gave. A folder
// given as one --model is many inputs: models and inputs pair one to one.
std::vector<std::string> missingTextures(const std::vector<Model*>& models,
                                         const std::vector<ModelInput>& inputs) {
    std::vector<std::string> out;
    for (size_t m = 0; m < models.size(); ++m)
        for (const Material& material : models[m]->materials)
            for (const TextureRef& t : material.textures)
                if (!t.texture) out.push_back(inputs[m].model + ": " + material.name + ": " + t.path);
    return out;
}

// Per model of the median frame: what was drawn, its scale, and how tall its nearest seen
// instance stands.
nlohmann::json modelStats(const CrowdScene& scene, const std::vector<std::unique_ptr<CrowdModel>>& models,
                          const std::vector<ModelInput>& inputs, const std::vector<ModelScale>& scales,
                          const FrameCounts& counts, const ViewCamera& view, uint32_t height) {
    nlohmann::json out = nlohmann::json::array();
    size_t part = 0;
    for (size_t m = 0; m < models.size(); ++m) {
        const std::span<const gpu::InstanceRecord> instances = scene.instancesOf(models[m].get());
        FrameCounts::Model drawn;
        if (!instances.empty() && part < counts.models.size()) drawn = counts.models[part++];
        std::vector<uint32_t> levels(drawn.perLevel.begin(), drawn.perLevel.end());
        while (!levels.empty() && levels.back() == 0)
            levels.pop_back();
        out.push_back(
            {{"name", std::filesystem::path(inputs[m].model).stem().string()},
             {"source", inputs[m].model},
             {"instances", instances.size()},
             {"visible", drawn.visible},
             {"dropped", drawn.dropped},
             {"scale", scales[m].factor},
             {"nearest_height_px", nearestHeightPixels(models[m]->asset(), instances, view, height)},
             {"levels", levels}});
    }
    return out;
}

int runHeadless(CrowdArgs& a) {
    // Vulkan promises images of 4,096 a side; lavapipe and desktop GPUs take 16,384.
    if (std::max(a.width, a.height) * a.supersample > kMaxDrawnSide) {
        std::fprintf(stderr, "horde: --supersample %u draws %u x %u; at most %u a side\n", a.supersample,
                     a.width * a.supersample, a.height * a.supersample, kMaxDrawnSide);
        return kExitUsage;
    }
    GpuSession session;
    if (int code = GpuSession::openCrowd(a.device, a.input, a.models, session); code != kExitOk)
        return session.finish(code);
    {
        const std::vector<Model*> models = session.crowd.pointers();
        const std::vector<ModelInput>& inputs = session.crowd.inputs;
        const auto start = std::chrono::steady_clock::now();
        const GpuSession::PreparedCrowd prepared = session.prepareCrowd(a.crowd.units, a.crowd.count);
        if (!prepared.error.empty()) {
            std::fprintf(stderr, "horde: %s\n", prepared.error.c_str());
            return session.finish(kExitBadInput);
        }
        const std::vector<std::unique_ptr<CrowdModel>>& crowdModelsOwned = prepared.models;
        const auto preparedAt = std::chrono::steady_clock::now();
        CrowdScene scene(*session.device, pointers(crowdModelsOwned), a.crowd,
                         {kFramesInFlight, kOffscreenColorFormat, samplesOn(*session.device, a.crowd.picture.msaa)});
        const auto created = std::chrono::steady_clock::now();
        using Ms = std::chrono::duration<double, std::milli>;
        std::printf("prepared: %zu model%s in %.0f ms (LOD chains, bounds, tables, their upload), the scene "
                    "in %.0f ms\n",
                    crowdModelsOwned.size(), crowdModelsOwned.size() == 1 ? "" : "s",
                    Ms(preparedAt - start).count(), Ms(created - preparedAt).count());
        const uint32_t drawnWidth = a.width * a.supersample, drawnHeight = a.height * a.supersample;
        float aspect = float(a.width) / float(a.height);
        const ViewCamera view = orbitView(crowdCamera(scene, aspect, drawnHeight), aspect,
                                          scene.worldBounds().radius(), drawnHeight);
        HeadlessOptions options;
        options.width = drawnWidth;
        options.height = drawnHeight;
        options.frames = a.frames;
        std::unique_ptr<AnimationWriter> video;
        Status videoStatus = Ok{};
        if (!a.video.empty()) {
            // A moving picture plays at 30 frames a second, each frame a thirtieth of a second on.
            options.frameTime = 1.0f / float(kVideoFramesPerSecond);
            Result<std::unique_ptr<AnimationWriter>> opened =
                AnimationWriter::open(a.video, a.width, a.height, 1000 / kVideoFramesPerSecond);
            if (!opened) {
                std::fprintf(stderr, "horde: %s\n", opened.error().message.c_str());
                return session.finish(kExitUsage);
            }
            video = std::move(*opened);
            options.onFrame = [&](const Image8& frame) {
                if (!videoStatus) return;
                if (a.supersample == 1)
                    videoStatus = video->add(frame.rgba);
                else
                    videoStatus = video->add(averageBlocks(frame, a.supersample).rgba);
            };
        }
        HeadlessResult result = renderHeadless(*session.device, scene, view, options);
        const Image8 averaged = a.supersample == 1 ? Image8{} : averageBlocks(result.image, a.supersample);
        const Image8& image = a.supersample == 1 ? result.image : averaged;
        if (video) {
            if (videoStatus) videoStatus = video->finish();
            if (!videoStatus) {
                std::fprintf(stderr, "horde: %s\n", videoStatus.error().message.c_str());
                return session.finish(kExitBadInput);
            }
            std::printf("wrote %s (%u frames, %.1f s)\n", a.video.c_str(), video->frames(),
                        double(video->frames()) / kVideoFramesPerSecond);
        }
        for (size_t m = 0; m < crowdModelsOwned.size(); ++m) {
            const CrowdModel& cm = *crowdModelsOwned[m];
            std::string levels;
            for (const LodChain& chain : cm.asset().lods)
                for (const LodLevel& level : chain.levels)
                    levels += " " + std::to_string(level.vertexCount);
            std::printf("model %s: %zu mesh%s, level vertices%s, pose sphere radius %.3g\n",
                        inputs[m].model.c_str(), cm.model().meshes.size(),
                        cm.model().meshes.size() == 1 ? "" : "es", levels.c_str(),
                        double(cm.asset().worldSphere.w));
            for (const std::string& w : warningsOf(cm.model(), a.input.verbose))
                std::printf("warning %s: %s\n", inputs[m].model.c_str(), w.c_str());
        }
        for (const std::string& w : scene.materials().warnings())
            std::printf("warning: %s\n", w.c_str());
        const std::vector<std::string> missing = missingTextures(models, inputs);
        std::printf(
            "crowd: %u instances, technique %s, skinning %s, lod %s (%.2f px), cull %s, textures %s (%u images), "
            "view %s, %.1f MiB per frame slot\n",
            scene.instanceCount(), nameOf(a.crowd.technique).data(), skinName(a.crowd.skin).c_str(),
            onOff(a.crowd.lod), double(a.crowd.lodErrorPixels), onOff(a.crowd.cull), onOff(a.crowd.textures),
            scene.materials().textureCount(), nameOf(a.crowd.view).data(),
            double(scene.slotBytes()) / (1024.0 * 1024.0));
        std::printf("%s\n", FrameStats::frameHeader().c_str());
        for (size_t f = 0; f < result.stats.gpu.size(); ++f)
            std::printf("%s\n", result.stats.frameLine(f).c_str());
        if (const std::string line = result.stats.firstFrameLine(); !line.empty()) std::printf("%s\n", line.c_str());
        std::printf("median: %s\n", result.stats.summary().c_str());
        if (const std::string line = result.stats.invocationsLine(); !line.empty()) std::printf("%s\n", line.c_str());
        if (const std::string dropped = result.stats.droppedLine(); !dropped.empty())
            std::printf("%s\n", dropped.c_str());
        if (!missing.empty()) std::printf("textures not found: %zu\n", missing.size());
        if (!a.stats.empty()) {
            std::ofstream file(a.stats);
            nlohmann::json stats = nlohmann::json::parse(result.stats.json());
            stats["missing_textures"] = missing;
            stats["models"] = modelStats(scene, crowdModelsOwned, inputs, prepared.scales,
                                         result.stats.medianCounts(), view, a.height);
            file << stats.dump();
            if (!file) {
                std::fprintf(stderr, "horde: %s: cannot write\n", a.stats.c_str());
                return session.finish(kExitBadInput);
            }
            std::printf("wrote %s\n", a.stats.c_str());
        }
        if (!a.out.empty()) {
            if (Status st = writePng(a.out, image.width, image.height, image.rgba);
                !st) {
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
    CLI::App* cmd =
        app.add_subcommand("crowd", "animate and draw a crowd (window if there is a display, else headless)");
    auto args = std::make_shared<CrowdArgs>();
    addCrowdModelOptions(*cmd, args->input);
    addVerboseOption(*cmd, args->input);
    args->device.addOptions(*cmd);
    cmd->add_option("--count", args->crowd.count, "instances")->check(CLI::Range(kCountRange.min, kCountRange.max));
    CLI::Option* frames = cmd->add_option(
        "--frames", args->frames, "frames to render (default: 30 headless; until closed in a window)");
    cmd->add_option("--out", args->out, "PNG of the last headless frame");
    addCrowdOptions(*cmd, args->crowd);
    cmd->add_option("--stats", args->stats, "per-frame statistics as JSON (headless)");
    cmd->add_option("--video", args->video,
                    "FILE.webp: every headless frame as an animated WebP, at 30 frames a second (so --frames 150 "
                    "is 5 s)");
    cmd->add_option("--width", args->width, "image width")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--height", args->height, "image height")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--supersample", args->supersample,
                    "headless: draw at K times the width and height and average each K x K block into a pixel "
                    "(in linear light): with --msaa 4, K 4 gives 64 samples a pixel, a reference "
                    "picture; LOD and culling judge pixels at the drawn size")
        ->check(CLI::Range(1u, 8u));
    cmd->add_flag("--headless", args->headless, "render offscreen even when a display exists");
    cmd->add_flag("--window", args->window, "open a window (fails without a display)");
    return {cmd, [args, frames, cmd] {
                args->models = crowdModelArgs(*cmd, args->input);
                if (args->window || (!args->headless && hasDisplay())) {
                    uint32_t windowFrames = frames->count() ? args->frames : 0;
                    WindowArgs w{args->input, args->models, args->device, args->crowd,
                                 windowFrames, args->width, args->height};
                    return runCrowdWindow(w);
                }
                return runHeadless(*args);
            }};
}

} // namespace horde
