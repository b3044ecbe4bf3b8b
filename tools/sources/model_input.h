#pragma once
// A model as a command takes it: the word `monster` (the built-in creature) or a file, with what
// completes it (a separate skeleton, animation files, search paths, material files).
#include <string>
#include <string_view>
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
    // --verbose: warnings in full (warningsOf).
    bool verbose = false;

    // `textures`: shared by every model of one session so each texture file is read once.
    Result<Model> load(MeshAllocator& allocator, TextureLibrary* textures = nullptr) const;
};

// The warnings a command prints for `model`: the loader's, which sum up; `verbose` adds a line for
// each clip that keys nodes the model lacks, naming them (an NWN creature's inherited clips: a
// hundred and more).
std::vector<std::string> warningsOf(const Model& model, bool verbose);
// What converting `model` to `format` (a Format id) loses that the writer cannot say: morph
// targets, which only glTF keeps.
std::vector<std::string> conversionWarnings(const Model& model, std::string_view format);

} // namespace horde
