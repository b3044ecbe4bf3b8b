// horde profile: every skinning technique over crowd sizes on the current device, in one
// process, repeated in turn and given with spreads, into a page a person reads (DIR/index.html)
// and DIR/profile.json (tools/profile/), both written again after every round of repeats.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
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
    uint32_t frames = 1;
    uint32_t repeats = 5;
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

// One repeat: `a.frames` frames from `start` seconds into the crowd's animation, the median kept.
ProfileSample measure(Device& device, CrowdScene& scene, const ViewCamera& view, const ProfileArgs& a, float start,
                      uint32_t frames) {
    HeadlessOptions options;
    options.width = a.width;
    options.height = a.height;
    options.frames = frames;
    options.startTime = start;
    const FrameStats stats = renderHeadless(device, scene, view, options).stats;
    return {stats.medianGpu(), stats.medianCounts(), stats.medianInvocations(), stats.medianCpuMs()};
}

std::string spreadText(const ProfileRun& r) {
    const Spread s = r.spread();
    char text[96];
    std::snprintf(text, sizeof text, "%.2f ms a frame, %.2f to %.2f", s.median, s.min, s.max);
    return text;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string commandLine(const ProfileArgs& a, const std::vector<ModelInput>& inputs) {
    std::string line = "horde profile";
    for (const ModelInput& input : inputs)
        line += " --model " + input.model;
    return line + " --counts " + a.counts + " --frames " + std::to_string(a.frames) + " --width " +
           std::to_string(a.width) + " --height " + std::to_string(a.height) + " --repeats " +
           std::to_string(a.repeats) + " --lod " +
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
    profile.repeats = a.repeats;
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
        // Every technique's scene is kept, sharing the models' textures and impostors, and the
        // repeats go round them in turn (each round in the other direction), so a machine that
        // speeds up or slows down over the run moves every technique alike. Where the scenes
        // would not fit together, each is made again (and warmed again) for its repeat.
        const auto began = std::chrono::steady_clock::now();
        std::shared_ptr<SceneResources> resources;
        for (uint32_t count : counts) {
            std::vector<ProfileRun> runs(all.size());
            std::vector<std::unique_ptr<CrowdScene>> scenes(all.size());
            std::optional<ViewCamera> view;
            bool keep = true;
            auto sceneFor = [&](size_t t) -> CrowdScene& {
                if (scenes[t]) return *scenes[t];
                CrowdSettings settings = a.crowd;
                settings.count = count;
                settings.technique = all[t].first;
                settings.skin = all[t].second;
                scenes[t] = std::make_unique<CrowdScene>(device, pointers(prepared.models), settings, output,
                                                         resources);
                resources = scenes[t]->resources();
                if (!view) {
                    const float aspect = float(a.width) / float(a.height);
                    view = orbitView(crowdCamera(*scenes[t], aspect, a.height), aspect,
                                     scenes[t]->worldBounds().radius(), a.height);
                    const uint64_t together = scenes[t]->slotBytes() * kFramesInFlight * all.size();
                    keep = together <= device.deviceLocalHeap() / 2;
                    if (!keep)
                        profile.notes.push_back(
                            "At " + std::to_string(count) + " instances the " + std::to_string(all.size()) +
                            " scenes would take " + std::to_string(together >> 20) +
                            " MiB together: each was made again for each repeat.");
                }
                measure(device, *scenes[t], *view, a, 0.0f, 1); // a driver's first use of its pipelines
                return *scenes[t];
            };
            for (size_t t = 0; t < all.size(); ++t) {
                runs[t].technique = all[t].first;
                runs[t].skin = all[t].second;
                runs[t].count = count;
            }
            for (uint32_t r = 0; r < a.repeats; ++r) {
                const float start = float(1 + r * a.frames) / 60.0f;
                for (size_t i = 0; i < all.size(); ++i) {
                    const size_t t = r % 2 == 0 ? i : all.size() - 1 - i;
                    runs[t].add(measure(device, sceneFor(t), *view, a, start, a.frames));
                    if (!keep) scenes[t].reset();
                }
                const ProfileRun* best = nullptr;
                for (const ProfileRun& run : runs)
                    if (!best || run.gpu.totalMs() < best->gpu.totalMs()) best = &run;
                std::printf("profile: %u instances, repeat %u of %u: fastest so far %s (%s), %.0f s in\n", count,
                            r + 1, a.repeats, best->name().c_str(), spreadText(*best).c_str(), secondsSince(began));
                std::fflush(stdout);
                Profile sofar = profile;
                sofar.runs.insert(sofar.runs.end(), runs.begin(), runs.end());
                if (const Status written = writeProfile(sofar, a.out); !written) {
                    std::fprintf(stderr, "horde: %s\n", written.error().message.c_str());
                    return session.finish(kExitBadInput);
                }
            }
            for (const ProfileRun& r : runs)
                std::printf("profile: %6u %-20s %s (median: skin %.2f, draw %.2f), %llu skinned vertices\n", count,
                            r.name().c_str(), spreadText(r).c_str(), r.gpu.skinMs, r.gpu.drawMs,
                            static_cast<unsigned long long>(r.counts.skinnedVertices));
            profile.runs.insert(profile.runs.end(), runs.begin(), runs.end());
        }
    }
    if (Status st = writeProfile(profile, a.out); !st) {
        std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
        return session.finish(kExitBadInput);
    }
    for (uint32_t count : counts) {
        const ProfileRun* best = profile.fastest(count);
        if (!best) continue;
        std::printf("fastest at %u: %s (%s): %s\n", count, best->name().c_str(), spreadText(*best).c_str(),
                    profile.verdict(count).c_str());
    }
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
    cmd->add_option("--frames", args->frames, "frames measured a repeat (its median is kept; default 1)")
        ->check(CLI::Range(1u, 1000u));
    cmd->add_option("--repeats", args->repeats,
                    "repeats of each run, taken in turn with the other runs (default 5): a winner is named "
                    "only where its slowest repeat beats every other run's fastest")
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
