#pragma once
// What every command that takes a model accepts: the word `monster` or a file, with the options
// that complete it (separate skeleton, animation files, search paths).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "model/model.h"
#include "core/result.h"

namespace horde {

class TextureLibrary;

struct ModelInput {
    std::string model = "monster";
    std::string skeleton;
    std::vector<std::string> anims;
    std::vector<std::string> searchPaths;
    std::vector<std::string> materials;

    void addOptions(CLI::App& command, bool positional = true);
    // `textures`: shared by every model of one session so each texture file is read once.
    Result<Model> load(MeshAllocator& allocator, TextureLibrary* textures = nullptr) const;
};

// Exit codes users can script against.
enum ExitCode : int { kExitOk = 0, kExitUsage = 1, kExitBadInput = 2, kExitDevice = 3 };

struct DeviceChoice {
    std::string device;
    bool validation = false;
    void addOptions(CLI::App& command);
};

} // namespace horde
