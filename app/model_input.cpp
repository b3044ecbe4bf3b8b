#include "model_input.h"

#include "loader.h"
#include "monster.h"
#include "vk/device.h"

namespace horde {

void ModelInput::addOptions(CLI::App& command, bool positional) {
    if (positional) command.add_option("model", model, "model file, or `monster` for the built-in creature")->required();
    command.add_option("--skeleton", skeleton, "separate skeleton file (EMI .sklb, SWTOR skeleton .gr2)");
    command.add_option("--anim", anims, "animation file(s) bound to the model by node name");
    command.add_option("--search-path", searchPaths, "folders to look in for referenced files (supermodels, textures)");
    command.add_option("--materials", materials, "material definition file(s): Grimrock Lua with defineMaterial{...} blocks");
}

Result<Model> ModelInput::load(MeshAllocator& allocator, TextureLibrary* textures) const {
    if (model == "monster") {
        if (!skeleton.empty() || !anims.empty()) return Error{"monster: --skeleton and --anim need a model file"};
        return buildMonster(allocator);
    }
    LoadOptions options;
    options.skeleton = skeleton;
    for (const std::string& a : anims) options.anims.emplace_back(a);
    for (const std::string& s : searchPaths) options.searchPaths.emplace_back(s);
    for (const std::string& m : materials) options.materials.emplace_back(m);
    options.textures = textures;
    return loadModel(model, options, allocator);
}

void DeviceChoice::addOptions(CLI::App& command) {
    validation = validationByDefault();
    command.add_option("--device", device, "Vulkan device: index or part of its name (default: best GPU, else CPU)");
    command.add_flag("--validation,!--no-validation", validation, "Vulkan validation layers");
}

} // namespace horde
