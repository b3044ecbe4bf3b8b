#pragma once
// What `horde crowd` asks of the crowd, headless or in a window: technique, culling, LOD and
// its error, texture sampling, the view, and the models it is made of.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "gpu_session.h"
#include "render/crowd_scene.h"

namespace horde {

struct CrowdOptions {
    std::string technique = "compute";
    std::string lod = "on";
    std::string cull = "on";
    std::string textures = "on";
    float lodErrorPixels = 1.0f;
    std::string view = "overview";
    std::string units = "auto";

    void addOptions(CLI::App& command);
    CrowdSettings settings(VkFormat colorFormat, uint32_t slots) const;
};

// The camera a view starts from: overview frames the whole crowd, street stands at its edge.
OrbitCamera initialCamera(const CrowdScene& scene, const std::string& view, float aspect);

// Every loaded model made ready for crowds (LOD chains, motion bounds, GPU tables), each drawn
// at its scale (crowd_sources.h).
std::vector<std::unique_ptr<CrowdModel>> crowdModels(Device& device, const std::vector<Model*>& models,
                                                     const std::vector<float>& scales);
std::vector<const CrowdModel*> pointers(const std::vector<std::unique_ptr<CrowdModel>>& models);

} // namespace horde
