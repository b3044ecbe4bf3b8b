#include "crowd_sources.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "anim/reference.h"
#include "core/text.h"
#include "folder_input.h"
#include "folder_jobs.h"
#include "folder_pairs.h"
#include "model/axes.h"

namespace horde {

std::vector<Model*> CrowdSources::pointers() const {
    std::vector<Model*> out;
    for (const auto& m : models)
        out.push_back(m.get());
    return out;
}

namespace {

ModelInput completed(ModelInput input, const CrowdModelArg& arg) {
    if (!arg.skeleton.empty()) input.skeleton = arg.skeleton;
    input.anims.insert(input.anims.end(), arg.anims.begin(), arg.anims.end());
    input.materials.insert(input.materials.end(), arg.materials.begin(), arg.materials.end());
    if (!arg.clips.empty()) input.clips = arg.clips;
    return input;
}

// Why file `i` is a format's animation model (FolderRule::animationModels) rather than a creature,
// naming the models of the folder that inherit from it; empty when it is not one.
std::string animationModel(const Folder& folder, const std::vector<FilePairs>& pairs, size_t i) {
    const FolderFile& file = folder.files[i];
    const char* prefix = file.survey.format ? file.survey.format->folders.animationModels : nullptr;
    if (!prefix || !asciiLower(file.path.stem().string()).starts_with(prefix)) return {};
    std::vector<size_t> users;
    for (size_t user : pairs[i].users) {
        const std::vector<size_t>& chain = pairs[user].supermodels;
        if (std::find(chain.begin(), chain.end(), i) != chain.end()) users.push_back(user);
    }
    if (users.empty()) return std::string("animations for other models (named ") + prefix + "*)";
    std::stable_partition(users.begin(), users.end(), [&](size_t user) {
        return !asciiLower(folder.files[user].path.stem().string()).starts_with(prefix);
    });
    std::string out = "the animations of " + folder.files[users.front()].rel;
    if (users.size() > 1) out += " and " + std::to_string(users.size() - 1) + " more";
    return out;
}

// A folder's drawable models, each decoded once: kept with clips, else left out. A format's
// animation models (NWN's a_ba) are left out undecoded: the creatures inheriting them play them.
Status addFolder(const ModelInput& shared, const CrowdModelArg& arg, const ModelLoader& load,
                 const SourceReport& report, CrowdSources& out) {
    const unsigned threads = FolderJobs{}.threads();
    Result<Folder> folder = scanFolder(arg.model, threads);
    if (!folder) return folder.error();
    const std::vector<FilePairs> pairs = pairFolder(*folder, threads);
    size_t drawables = 0, kept = 0;
    for (size_t i = 0; i < folder->files.size(); ++i) {
        const FolderFile& file = folder->files[i];
        if (!file.error.empty() || !drawable(file.survey.kind)) continue;
        ++drawables;
        if (const std::string why = animationModel(*folder, pairs, i); !why.empty()) {
            report({file.rel, false, why});
            continue;
        }
        ModelInput input = completed(inputFor(*folder, pairs, i, shared), arg);
        Result<Model> model = load(input);
        if (!model) {
            report({file.rel, false, model.error().message});
            continue;
        }
        if (model->clips.empty() || model->meshes.empty()) {
            report({file.rel, false, "no clips"});
            continue;
        }
        report({file.rel, true, {}, pairs[i].anims.size()});
        out.inputs.push_back(std::move(input));
        out.models.push_back(std::make_unique<Model>(std::move(*model)));
        ++kept;
    }
    if (kept == 0)
        return Error{arg.model + ": no animated model among its " + std::to_string(drawables) +
                     " models (see `horde info " + arg.model + "`)"};
    return Ok{};
}

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

Result<CrowdSources> loadCrowdSources(const ModelInput& shared, std::span<const CrowdModelArg> args,
                                      const ModelLoader& load, const SourceReport& report) {
    CrowdSources out;
    for (const CrowdModelArg& arg : args) {
        if (std::filesystem::is_directory(arg.model)) {
            if (Status st = addFolder(shared, arg, load, report, out); !st) return st.error();
            continue;
        }
        ModelInput input = shared;
        input.model = arg.model;
        input = completed(std::move(input), arg);
        Result<Model> model = load(input);
        if (!model) return model.error();
        out.inputs.push_back(std::move(input));
        out.models.push_back(std::make_unique<Model>(std::move(*model)));
    }
    return out;
}

std::vector<ModelScale> crowdScales(std::span<Model* const> models, Units units) {
    const bool common = units == Units::Height || (units == Units::Auto && models.size() > 1);
    std::vector<ModelScale> scales(models.size());
    if (!common) return scales;
    for (size_t m = 0; m < models.size(); ++m) {
        ModelScale& s = scales[m];
        const glm::vec3 extent = worldExtent(*models[m]);
        s.common = true;
        s.height = extent.y;
        s.across = std::max(extent.x, extent.z);
        if (s.height > 0.0f && std::isfinite(s.height)) s.factor = kCommonHeight / s.height;
        // A flat thing (a floor tile, a button) stood 2 tall would cover the crowd's ground.
        s.flat = s.across * s.factor > kWidestAcross && std::isfinite(s.across);
        if (s.flat) s.factor = kWidestAcross / s.across;
    }
    return scales;
}

} // namespace horde
