#include "gpu_session.h"

#include <cstdio>

namespace horde {

int GpuSession::open(const DeviceChoice& choice, const ModelInput& input, GpuSession& out, bool swapchain,
                     std::vector<std::string> instanceExtensions) {
    DeviceOptions options;
    options.validation = choice.validation;
    options.device = choice.device;
    options.swapchain = swapchain;
    options.instanceExtensions = std::move(instanceExtensions);
    out.device = std::make_unique<Device>(options);
    out.textureAllocator = std::make_unique<GpuTextureAllocator>(*out.device);
    out.textures = std::make_unique<TextureLibrary>(*out.textureAllocator);
    GpuMeshAllocator allocator(*out.device);
    Result<Model> model = input.load(allocator, out.textures.get());
    if (!model) {
        std::fprintf(stderr, "horde: %s\n", model.error().message.c_str());
        return kExitBadInput;
    }
    out.model.emplace(std::move(*model));
    return kExitOk;
}

Model* GpuSession::loadAnother(const ModelInput& input) {
    GpuMeshAllocator allocator(*device);
    Result<Model> loaded = input.load(allocator, textures.get());
    if (!loaded) {
        std::fprintf(stderr, "horde: %s\n", loaded.error().message.c_str());
        return nullptr;
    }
    others.push_back(std::make_unique<Model>(std::move(*loaded)));
    return others.back().get();
}

int GpuSession::openAll(const DeviceChoice& choice, const std::vector<ModelInput>& inputs, GpuSession& out,
                        std::vector<Model*>& models, bool swapchain, std::vector<std::string> instanceExtensions) {
    models.clear();
    if (int code = open(choice, inputs.at(0), out, swapchain, std::move(instanceExtensions)); code != kExitOk)
        return code;
    models.push_back(&*out.model);
    for (size_t m = 1; m < inputs.size(); ++m) {
        Model* more = out.loadAnother(inputs[m]);
        if (!more) {
            models.clear();
            return kExitBadInput;
        }
        models.push_back(more);
    }
    return kExitOk;
}

int GpuSession::finish(int code) {
    if (!device) return code;
    others.clear();
    model.reset();
    textures.reset();
    textureAllocator.reset();
    auto log = device->messageLog();
    bool validation = device->validation();
    device.reset();
    if (validation && log->problems() > 0) {
        std::fprintf(stderr, "horde: validation reported %u errors and %u warnings\n", log->error, log->warning);
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
