#include "crowd_sources.h"

#include <cstdio>
#include <filesystem>

#include "anim/reference.h"
#include "model/axes.h"
#include "folder_commands.h"

namespace horde {

std::vector<ModelInput> crowdInputs(const ModelInput& shared, const std::vector<std::string>& models) {
    std::vector<ModelInput> out;
    for (const std::string& m : models) {
        if (std::filesystem::is_directory(m)) {
            std::vector<ModelInput> found = animatedModels(m, FolderJobs{});
            if (found.empty()) return {};
            out.insert(out.end(), found.begin(), found.end());
            continue;
        }
        ModelInput input = shared;
        input.model = m;
        out.push_back(std::move(input));
    }
    return out;
}

namespace {
// The bind pose's height in the world (Y up), in the file's units.
float worldHeight(const Model& model) {
    const Bounds b = bindPoseBounds(model);
    const glm::mat4 toWorld = axesToWorld(model.axes);
    float low = INFINITY, high = -INFINITY;
    for (int corner = 0; corner < 8; ++corner) {
        glm::vec3 p((corner & 1) ? b.max.x : b.min.x, (corner & 2) ? b.max.y : b.min.y,
                    (corner & 4) ? b.max.z : b.min.z);
        float y = (toWorld * glm::vec4(p, 1.0f)).y;
        low = std::min(low, y);
        high = std::max(high, y);
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
        const float height = worldHeight(*models[m]);
        if (height > 0.0f && std::isfinite(height)) scales[m] = kCommonHeight / height;
        std::printf("scale %s: %.4g units tall, x %.4g to stand %.3g tall (--units file keeps file units)\n",
                    inputs[m].model.c_str(), double(height), double(scales[m]), double(kCommonHeight));
    }
    return scales;
}

} // namespace horde
