#include "gpu_session.h"

#include <algorithm>
#include <cstdio>

namespace horde {

namespace {

// The first clips' names, for a message.
std::string someClips(const Model& model) {
    std::string out;
    for (size_t c = 0; c < model.clips.size() && c < 8; ++c) out += (c ? ", " : "") + model.clips[c].name;
    return model.clips.size() > 8 ? out + ", ..." : out;
}

} // namespace

void GpuSession::openDevice(const DeviceChoice& choice, bool swapchain,
                            std::vector<std::string> instanceExtensions) {
    DeviceOptions options;
    options.validation = choice.validation;
    options.device = choice.device;
    options.swapchain = swapchain;
    options.instanceExtensions = std::move(instanceExtensions);
    device = std::make_unique<Device>(options);
    textureAllocator = std::make_unique<GpuTextureAllocator>(*device);
    textures = std::make_unique<TextureLibrary>(*textureAllocator);
}

Result<Model> GpuSession::load(const ModelInput& input) {
    GpuMeshAllocator allocator(*device);
    return input.load(allocator, textures.get());
}

int GpuSession::open(const DeviceChoice& choice, const ModelInput& input, GpuSession& out, bool swapchain,
                     std::vector<std::string> instanceExtensions) {
    out.openDevice(choice, swapchain, std::move(instanceExtensions));
    Result<Model> model = out.load(input);
    if (!model) {
        std::fprintf(stderr, "horde: %s\n", model.error().message.c_str());
        return kExitBadInput;
    }
    out.model.emplace(std::move(*model));
    return kExitOk;
}

int GpuSession::openCrowd(const DeviceChoice& choice, const ModelInput& shared,
                          std::span<const CrowdModelArg> args, GpuSession& out, bool swapchain,
                          std::vector<std::string> instanceExtensions) {
    out.openDevice(choice, swapchain, std::move(instanceExtensions));
    Result<CrowdSources> sources = loadCrowdSources(
        shared, args, [&out](const ModelInput& input) { return out.load(input); },
        [](const FolderModelNote& note) {
            if (note.kept && note.pairedAnimations == 0)
                std::printf("crowd model %s\n", note.model.c_str());
            else if (note.kept)
                std::printf("crowd model %s: %zu paired animation%s\n", note.model.c_str(),
                            note.pairedAnimations, note.pairedAnimations == 1 ? "" : "s");
            else
                std::fprintf(stderr, "horde: %s: %s, left out\n", note.model.c_str(), note.why.c_str());
        });
    if (!sources) {
        std::fprintf(stderr, "horde: %s\n", sources.error().message.c_str());
        return kExitBadInput;
    }
    out.crowd = std::move(*sources);
    return kExitOk;
}

GpuSession::PreparedCrowd GpuSession::prepareCrowd(Units units, uint32_t count) {
    const std::vector<Model*> models = crowd.pointers();
    PreparedCrowd out;
    out.scales = crowdScales(models, units);
    for (size_t m = 0; m < models.size(); ++m) {
        const ModelScale& s = out.scales[m];
        if (!s.common) continue;
        std::printf("scale %s: %.4g units tall, %.4g across, x %.4g to %s %.3g %s (--units file keeps file "
                    "units)\n",
                    crowd.inputs[m].model.c_str(), double(s.height), double(s.across), double(s.factor),
                    s.flat ? "span" : "stand", double(s.flat ? kWidestAcross : kCommonHeight),
                    s.flat ? "across" : "tall");
    }
    std::vector<CrowdAssetOptions> options;
    for (size_t m = 0; m < models.size(); ++m)
        options.push_back({.scale = out.scales[m].factor,
                           .clips = crowd.inputs[m].clips,
                           .instances = uint32_t((uint64_t(count) + models.size() - 1) / models.size()),
                           .name = crowd.inputs[m].model});
    out.models = crowdModels(*device, models, options);
    for (size_t m = 0; m < models.size() && out.error.empty(); ++m) {
        const std::vector<bool>& played = out.models[m]->asset().playedClips;
        const std::vector<std::string>& clips = options[m].clips;
        if (clips.empty() || std::find(played.begin(), played.end(), true) != played.end()) continue;
        std::string patterns;
        for (const std::string& p : clips) patterns += (patterns.empty() ? "" : ",") + p;
        out.error = crowd.inputs[m].model + ": --clips " + patterns + " matches none of its " +
                    std::to_string(models[m]->clips.size()) + " clips (" + someClips(*models[m]) + ")";
    }
    if (!out.error.empty()) out.models.clear(); // before the device goes
    return out;
}

int GpuSession::finish(int code) {
    if (!device) return code;
    crowd = {};
    model.reset();
    textures.reset();
    textureAllocator.reset();
    auto log = device->messageLog();
    bool validation = device->validation();
    device.reset();
    if (validation && log->problems() > 0) {
        std::fprintf(stderr, "horde: validation reported %u errors and %u warnings\n", log->error,
                     log->warning);
        return code == kExitOk ? int(kExitDevice) : code;
    }
    return code;
}

int pickClip(const Model& model, const std::string& name, bool preferAnimFiles) {
    if (!name.empty()) return findClip(model, name);
    if (preferAnimFiles)
        for (size_t i = 0; i < model.clips.size(); ++i)
            if (!model.clips[i].source.empty()) return int(i);
    return -1;
}

} // namespace horde
