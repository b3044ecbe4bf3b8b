#pragma once
// A model as a command takes it: the word `monster` (the built-in creature) or a file, with what
// completes it (a separate skeleton, animation files, search paths, material files).
#include <string>
#include <vector>

#include "core/result.h"
#include "model/model.h"
#include "monster.h"

namespace horde {

class TextureLibrary;

struct ModelInput {
    std::string model = kMonsterName;
    std::string skeleton;
    std::vector<std::string> anims;
    std::vector<std::string> searchPaths;
    std::vector<std::string> materials;
    // What a crowd plays of it (CrowdAssetOptions::clips): names, patterns, @roles; none: the default.
    std::vector<std::string> clips;

    // `textures`: shared by every model of one session so each texture file is read once.
    Result<Model> load(MeshAllocator& allocator, TextureLibrary* textures = nullptr) const;
};

} // namespace horde
