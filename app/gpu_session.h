#pragma once
// What the GPU commands share: a device chosen as the user asked, and a model loaded straight
// into GPU-visible memory, its textures too.
#include <memory>
#include <optional>

#include "model_input.h"
#include "texture/texture.h"
#include "vk/device.h"
#include "vk/gpu_mesh.h"
#include "vk/gpu_texture.h"

namespace horde {

struct GpuSession {
    std::unique_ptr<Device> device;
    std::unique_ptr<GpuTextureAllocator> textureAllocator;
    std::unique_ptr<TextureLibrary> textures; // every texture file read once, into GPU-visible memory
    std::optional<Model> model;
    std::vector<std::unique_ptr<Model>> others; // further models (a mixed crowd)

    // Prints the error and returns its exit code when the model cannot be loaded.
    static int open(const DeviceChoice& choice, const ModelInput& input, GpuSession& out, bool swapchain = false,
                    std::vector<std::string> instanceExtensions = {});
    // Loads one more model into GPU memory; prints the error and returns null on failure.
    Model* loadAnother(const ModelInput& input);
    // Opens the device with `inputs[0]` and loads the others beside it: every model of a crowd.
    // Empty `models` on failure.
    static int openAll(const DeviceChoice& choice, const std::vector<ModelInput>& inputs, GpuSession& out,
                       std::vector<Model*>& models, bool swapchain = false,
                       std::vector<std::string> instanceExtensions = {});
    // Reports what the validation layers said; device trouble if they complained.
    int finish(int code);
};

int pickClip(const Model& model, const std::string& name, bool preferAnimFiles);

} // namespace horde
