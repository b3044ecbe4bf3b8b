// horde profile: every skinning technique over crowd sizes on the current device, in one
// process, into a page a person reads (DIR/index.html) and DIR/profile.json (app/profile/).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <sstream>

#include "commands.h"
#include "crowd_options.h"
#include "gpu_session.h"
#include "profile.h"
#include "render/crowd_camera.h"
#include "render/headless.h"

namespace horde {

namespace {

struct ProfileArgs {
    ModelInput input; // --skeleton, --anim, --search-path given before any --model: every model's
    std::vector<CrowdModelArg> models;
    DeviceChoice device;
    CrowdSettings crowd;
    std::string counts = "1024,4096";
    uint32_t frames = 8;
    uint32_t width = 1280, height = 720;
    std::string out = "profile";
};

// "1024,4096" -> {1024, 4096}; empty when a value is not a count.
std::vector<uint32_t> parseCounts(const std::string& text) {
    std::vector<uint32_t> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        try {
            size_t used = 0;
            const unsigned long v = std::stoul(item, &used);
            if (used != item.size() || v == 0 || v > (1u << 20)) return {};
            out.push_back(uint32_t(v));
        } catch (const std::exception&) {
            return {};
        }
    }
    return out;
}

// Every technique the models can tell apart: eight influences only where a mesh keeps more.
std::vector<std::pair<Technique, SkinOptions>> techniques(const std::vector<Model*>& models) {
    bool more = false;
    for (const Model* m : models)
        for (const Mesh& mesh : m->meshes)
            more |= mesh.layout().moreInfluences;
    std::vector<std::pair<Technique, SkinOptions>> out;
    for (Technique technique : {Technique::Compute, Technique::Vertex})
        for (Skinning skinning : {Skinning::Lbs, Skinning::Dqs})
            for (Precision precision : {Precision::Fp32, Precision::Fp16})
                for (uint32_t influences : {4u, 8u})
                    if (influences == 4 || more) out.push_back({technique, {skinning, precision, influences}});
    return out;
}

// The median frame of `frames` after one more run first and left out: a driver that compiles
// shaders on first use (lavapipe) pays that in the first frame.
ProfileRun measure(Device& device, CrowdScene& scene, const ViewCamera& view, const ProfileArgs& a) {
    HeadlessOptions options;
    options.width = a.width;
    options.height = a.height;
    options.frames = a.frames + 1;
    FrameStats stats = renderHeadless(device, scene, view, options).stats;
    if (stats.gpu.size() > 1) {
        stats.gpu.erase(stats.gpu.begin());
        stats.counts.erase(stats.counts.begin());
        if (!stats.invocations.empty()) stats.invocations.erase(stats.invocations.begin());
        stats.cpuMs.erase(stats.cpuMs.begin());
    }
    ProfileRun run;
    run.gpu = stats.medianGpu();
    run.counts = stats.medianCounts();
    run.invocations = stats.medianInvocations();
    run.cpuMs = stats.medianCpuMs();
    return run;
}

std::string commandLine(const ProfileArgs& a, const std::vector<ModelInput>& inputs) {
    std::string line = "horde profile";
    for (const ModelInput& input : inputs)
        line += " --model " + input.model;
    return line + " --counts " + a.counts + " --frames " + std::to_string(a.frames) + " --width " +
           std::to_string(a.width) + " --height " + std::to_string(a.height) + " --lod " +
           (a.crowd.lod ? "on" : "off") + " --cull " + (a.crowd.cull ? "on" : "off") + " --view " +
           std::string(nameOf(a.crowd.view)) + " --out " + a.out;
}

int run(ProfileArgs& a) {
    const std::vector<uint32_t> counts = parseCounts(a.counts);
    if (counts.empty()) {
        std::fprintf(stderr, "horde: --counts takes crowd sizes separated by commas (1024,4096), not '%s'\n",
                     a.counts.c_str());
        return kExitUsage;
    }
    GpuSession session;
    if (int code = GpuSession::openCrowd(a.device, a.input, a.models, session); code != kExitOk)
        return session.finish(code);
    Device& device = *session.device;
    const std::vector<Model*> models = session.crowd.pointers();
    const std::vector<ModelInput>& inputs = session.crowd.inputs;
    Profile profile;
    profile.device = device.name();
    profile.driver = device.driver();
    profile.command = commandLine(a, inputs);
    for (const ModelInput& input : inputs)
        profile.models.push_back(input.model);
    profile.width = a.width;
    profile.height = a.height;
    profile.frames = a.frames;
    profile.counts = counts;
    {
        const GpuSession::PreparedCrowd prepared = session.prepareCrowd(
            a.crowd.units, *std::max_element(counts.begin(), counts.end()));
        if (!prepared.error.empty()) {
            std::fprintf(stderr, "horde: %s\n", prepared.error.c_str());
            return session.finish(kExitBadInput);
        }
        const std::vector<std::pair<Technique, SkinOptions>> all = techniques(models);
        const SceneOutput output{kFramesInFlight, kOffscreenColorFormat, samplesOn(device, a.crowd.picture.msaa)};
        if (all.size() < 16)
            profile.notes.push_back(
                "No mesh keeps more than four influences, so eight-influence runs are left out "
                "(they would blend the same four).");
        if (!device.pipelineStatistics())
            profile.notes.push_back(
                "This device has no pipeline-statistics queries: invocations are not counted.");
        if (device.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU)
            profile.notes.push_back(
                "This device runs on the CPU: its compute and vertex work share the CPU's cores, "
                "so the figures are the CPU's costs, not a GPU's.");
        for (uint32_t count : counts)
            for (const auto& [technique, skin] : all) {
                CrowdSettings settings = a.crowd;
                settings.count = count;
                settings.technique = technique;
                settings.skin = skin;
                CrowdScene scene(device, pointers(prepared.models), settings, output);
                const float aspect = float(a.width) / float(a.height);
                const ViewCamera view = orbitView(crowdCamera(scene, aspect, a.height), aspect,
                                                  scene.worldBounds().radius(), a.height);
                ProfileRun r = measure(device, scene, view, a);
                r.technique = technique;
                r.skin = skin;
                r.count = count;
                std::printf(
                    "profile: %6u %-20s %9.2f ms a frame (skin %.2f, draw %.2f), %llu skinned vertices\n",
                    count, r.name().c_str(), r.gpu.totalMs(), r.gpu.skinMs, r.gpu.drawMs,
                    static_cast<unsigned long long>(r.counts.skinnedVertices));
                std::fflush(stdout);
                profile.runs.push_back(r);
            }
    }
    if (Status st = writeProfile(profile, a.out); !st) {
        std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
        return session.finish(kExitBadInput);
    }
    for (uint32_t count : counts)
        if (const ProfileRun* w = profile.winner(count))
            std::printf("fastest at %u: %s (%.2f ms a frame)\n", count, w->name().c_str(), w->gpu.totalMs());
    std::printf("wrote %s/index.html and %s/profile.json\n", a.out.c_str(), a.out.c_str());
    return session.finish(kExitOk);
}

} // namespace

Command addProfileCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand(
        "profile",
        "every skinning technique over crowd sizes on this device, into a report (index.html, profile.json)");
    auto args = std::make_shared<ProfileArgs>();
    addCrowdModelOptions(*cmd, args->input);
    args->device.addOptions(*cmd);
    cmd->add_option("--counts", args->counts, "crowd sizes, separated by commas (default 1024,4096)");
    cmd->add_option("--frames", args->frames, "frames measured per run (the median is kept)")
        ->check(CLI::Range(1u, 1000u));
    cmd->add_option("--width", args->width, "image width")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--height", args->height, "image height")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--out", args->out, "folder for index.html and profile.json (default profile)");
    addCrowdOptions(*cmd, args->crowd, false);
    return {cmd, [args, cmd] {
                args->models = crowdModelArgs(*cmd, args->input);
                return run(*args);
            }};
}

} // namespace horde
