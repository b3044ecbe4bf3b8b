#pragma once
// What `horde crowd` asks of the crowd, headless or in a window: technique, culling, LOD and
// its error, texture sampling, the view, and the models it is made of.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpu_session.h"
#include "render/crowd_scene.h"
#include "skin_options.h"
#include "view_options.h"

namespace horde {

struct CrowdOptions {
    std::string technique = "compute";
    SkinArgs skin;
    std::string lod = "on";
    std::string cull = "on";
    std::string textures = "on";
    std::string impostors = "on";
    float lodErrorPixels = kDefaultLodErrorPixels;
    std::string view = "front";
    std::string units = "auto";
    std::string layout = "scatter";
    uint32_t seed = 1;
    ViewOptions picture;

    // `skinning` off: no --technique and skinning options (a command that sweeps them).
    void addOptions(CLI::App& command, bool skinning = true);
    CrowdSettings settings(VkFormat colorFormat, uint32_t slots, VkSampleCountFlagBits samples) const;
    // The camera the view starts from, with --yaw, --pitch and --distance around its centre:
    // front stands at the crowd's edge with its front row readable, overview frames the whole
    // crowd, street stands at its edge at eye height.
    OrbitCamera camera(const CrowdScene& scene, float aspect, uint32_t viewportHeight) const;
};

// The front view's monsters stand this tall in the front row (the goal is 120 at 1280 x 720).
constexpr float kFrontRowPixels = 150.0f;

// Every loaded model made ready for crowds (LOD chains, motion bounds, GPU tables), each drawn
// at its scale (crowd_sources.h).
std::vector<std::unique_ptr<CrowdModel>> crowdModels(Device& device, const std::vector<Model*>& models,
                                                     const std::vector<float>& scales);
std::vector<const CrowdModel*> pointers(const std::vector<std::unique_ptr<CrowdModel>>& models);

} // namespace horde
