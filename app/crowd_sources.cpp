#include "crowd_sources.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "anim/reference.h"
#include "folder_commands.h"
#include "model/axes.h"

namespace horde {

std::vector<CrowdModelArg> modelsInOrder(const CLI::App& command, ModelInput& shared) {
    const CLI::Option* model = command.get_option("--model");
    const CLI::Option* skeleton = command.get_option("--skeleton");
    const CLI::Option* anim = command.get_option("--anim");
    const CLI::Option* materials = command.get_option("--materials");
    // CLI11 lists every value it parsed, in order, as the option it belongs to.
    std::map<const CLI::Option*, size_t> taken;
    std::vector<CrowdModelArg> models;
    ModelInput all = shared;
    all.skeleton.clear();
    all.anims.clear();
    all.materials.clear();
    for (const CLI::Option* option : command.parse_order()) {
        const std::string& value = option->results().at(taken[option]++);
        if (option == model)
            models.push_back({value, {}, {}, {}});
        else if (option == skeleton)
            (models.empty() ? all.skeleton : models.back().skeleton) = value;
        else if (option == anim)
            (models.empty() ? all.anims : models.back().anims).push_back(value);
        else if (option == materials)
            (models.empty() ? all.materials : models.back().materials).push_back(value);
    }
    shared = all;
    if (models.empty()) models.push_back({"monster", {}, {}, {}});
    return models;
}

std::vector<ModelInput> crowdInputs(const ModelInput& shared, const std::vector<CrowdModelArg>& models) {
    std::vector<ModelInput> out;
    for (const CrowdModelArg& m : models) {
        std::vector<ModelInput> found;
        if (std::filesystem::is_directory(m.model)) {
            found = animatedModels(m.model, FolderJobs{}, shared);
            if (found.empty()) return {};
        } else {
            found.push_back(shared);
            found.back().model = m.model;
        }
        for (ModelInput& input : found) {
            if (!m.skeleton.empty()) input.skeleton = m.skeleton;
            input.anims.insert(input.anims.end(), m.anims.begin(), m.anims.end());
            input.materials.insert(input.materials.end(), m.materials.begin(), m.materials.end());
        }
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

namespace {
// The bind pose's extent in the world (Y up), in the file's units: x and z across, y its height.
glm::vec3 worldExtent(const Model& model) {
    const Bounds b = bindPoseBounds(model);
    const glm::mat4 toWorld = axesToWorld(model.axes);
    glm::vec3 low(INFINITY), high(-INFINITY);
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? b.max.x : b.min.x, (corner & 2) ? b.max.y : b.min.y,
                    (corner & 4) ? b.max.z : b.min.z);
        const glm::vec3 w(toWorld * glm::vec4(p, 1.0f));
        low = glm::min(low, w);
        high = glm::max(high, w);
    }
    return high - low;
}
} // namespace

std::vector<float> crowdScales(const std::vector<Model*>& models, const std::vector<ModelInput>& inputs,
                               const std::string& units) {
    const bool common = units == "height" || (units == "auto" && models.size() > 1);
    std::vector<float> scales(models.size(), 1.0f);
    if (!common) return scales;
    for (size_t m = 0; m < models.size(); ++m) {
        const glm::vec3 extent = worldExtent(*models[m]);
        const float height = extent.y, across = std::max(extent.x, extent.z);
        if (height > 0.0f && std::isfinite(height)) scales[m] = kCommonHeight / height;
        // A flat thing (a floor tile, a button) stood 2 tall would cover the crowd's ground.
        const bool flat = across * scales[m] > kWidestAcross && std::isfinite(across);
        if (flat) scales[m] = kWidestAcross / across;
        std::printf("scale %s: %.4g units tall, %.4g across, x %.4g to %s %.3g %s (--units file keeps file "
                    "units)\n",
                    inputs[m].model.c_str(), double(height), double(across), double(scales[m]),
                    flat ? "span" : "stand", double(flat ? kWidestAcross : kCommonHeight),
                    flat ? "across" : "tall");
    }
    return scales;
}

} // namespace horde
