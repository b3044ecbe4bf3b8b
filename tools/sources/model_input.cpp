#include "model_input.h"

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
