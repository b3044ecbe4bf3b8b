#include "model_input.h"

#include <algorithm>

#include "loader.h"

namespace horde {

Result<Model> ModelInput::load(MeshAllocator& allocator, TextureLibrary* textures) const {
    if (model == kMonsterName) {
        if (!skeleton.empty() || !anims.empty())
            return Error{std::string(kMonsterName) + ": --skeleton and --anim need a model file"};
        return buildMonster(allocator);
    }
    LoadOptions options;
    options.skeleton = skeleton;
    for (const std::string& a : anims)
        options.anims.emplace_back(a);
    for (const std::string& s : searchPaths)
        options.searchPaths.emplace_back(s);
    for (const std::string& m : materials)
        options.materials.emplace_back(m);
    options.textures = textures;
    return loadModel(model, options, allocator);
}

std::vector<std::string> conversionWarnings(const Model& model, std::string_view format) {
    const size_t morphed = size_t(std::count_if(model.meshes.begin(), model.meshes.end(),
                                                [](const Mesh& mesh) { return mesh.morphTargets() > 0; }));
    if (morphed == 0 || format == "gltf") return {};
    const size_t keyed = size_t(std::count_if(model.clips.begin(), model.clips.end(),
                                               [](const Clip& clip) { return !clip.morphs.empty(); }));
    return {std::to_string(morphed) + " mesh" + (morphed == 1 ? " has" : "es have") + " morph targets, weighted by " +
            std::to_string(keyed) + " clip" + (keyed == 1 ? "" : "s") + ": " + std::string(format) +
            " has no place for them and the conversion draws the base shape; only glTF keeps them"};
}

std::vector<std::string> warningsOf(const Model& model, bool verbose) {
    std::vector<std::string> out = model.warnings;
    if (!verbose) return out;
    for (const Clip& clip : model.clips) {
        if (clip.absentNodes.empty()) continue;
        std::string line = "clip " + clip.name + (clip.source.empty() ? "" : " (from " + clip.source + ")") +
                           " keys nodes the model lacks:";
        for (size_t n = 0; n < clip.absentNodes.size(); ++n) line += (n ? ", " : " ") + clip.absentNodes[n];
        out.push_back(std::move(line));
    }
    return out;
}

} // namespace horde
