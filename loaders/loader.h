#pragma once
// One entry point for every file format: detects the format, decodes straight into storage from
// the given allocator, binds extra animation files, and validates the result. A failed load
// returns one error and leaves nothing behind.
#include <filesystem>
#include <string>
#include <vector>

#include "asset/model.h"
#include "core/result.h"

namespace horde {

struct LoadOptions {
    std::filesystem::path skeleton;             // formats whose skeleton is a separate file
    std::vector<std::filesystem::path> anims;   // animation files bound to the model's nodes
    std::vector<std::filesystem::path> searchPaths; // where referenced files (supermodels) may be
};

// A format's entry: `detect` looks at the bytes (and name); `load` decodes.
struct Format {
    const char* id;
    const char* description;
    bool (*detect)(const std::filesystem::path& path, std::span<const std::byte> bytes);
    Result<Model> (*load)(const std::filesystem::path& path, std::span<const std::byte> bytes,
                          const LoadOptions& options, MeshAllocator& allocator);
};

std::span<const Format> formats();
Result<Model> loadModel(const std::filesystem::path& path, const LoadOptions& options, MeshAllocator& allocator);

} // namespace horde
