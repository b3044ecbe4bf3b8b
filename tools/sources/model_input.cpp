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

} // namespace horde
