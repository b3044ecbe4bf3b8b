#pragma once
// What the GPU commands share: a device chosen as the user asked, and models loaded straight into
// GPU-visible memory, their textures too, each texture file read once.
#include <memory>
#include <optional>
#include <span>

#include "crowd_sources.h"
#include "model_options.h"
#include "render/crowd_model.h"
#include "texture/texture.h"
#include "vk/device.h"
#include "vk/gpu_mesh.h"
#include "vk/gpu_texture.h"

namespace horde {

struct GpuSession {
    std::unique_ptr<Device> device;
    std::unique_ptr<GpuTextureAllocator> textureAllocator;
    std::unique_ptr<TextureLibrary> textures; // every texture file read once, into GPU-visible memory
    std::optional<Model> model;               // a single model's command
    CrowdSources crowd;                       // a crowd's models

    // The device, with `input` loaded into `model`; prints the error and returns its exit code when
    // the model cannot be loaded.
    static int open(const DeviceChoice& choice, const ModelInput& input, GpuSession& out,
                    bool swapchain = false, std::vector<std::string> instanceExtensions = {});
    // The device, with a crowd's models loaded into `crowd` (each decoded once; crowd_sources.h),
    // what became of a folder's models printed; prints the error and returns its exit code when
    // they cannot be loaded.
    static int openCrowd(const DeviceChoice& choice, const ModelInput& shared,
                         std::span<const CrowdModelArg> args, GpuSession& out, bool swapchain = false,
                         std::vector<std::string> instanceExtensions = {});
    // The crowd's models made ready for crowds (render/crowd_model.h), each scaled as `units` says, the
    // factor printed where it is not 1 by choice. Gone before finish().
    struct PreparedCrowd {
        std::vector<ModelScale> scales;
        std::vector<std::unique_ptr<CrowdModel>> models;
        std::string error; // a model that --clips leaves nothing to play; nothing is drawn then
    };
    // `count` instances in all, instance i of model i % models (crowd/layout.h).
    PreparedCrowd prepareCrowd(Units units, uint32_t count);
    // Reports what the validation layers said; device trouble if they complained.
    int finish(int code);

  private:
    void openDevice(const DeviceChoice& choice, bool swapchain, std::vector<std::string> instanceExtensions);
    Result<Model> load(const ModelInput& input);
};

// The clip named `name` (-1 when none is), or with no name the first clip an animation file gave
// where `preferAnimFiles`, else the bind pose (-1).
int pickClip(const Model& model, const std::string& name, bool preferAnimFiles);

} // namespace horde
