#pragma once
// One entry point for every file format: detects the format, decodes straight into storage from
// the given allocator, binds extra animation files, and validates the result. A failed load
// returns one error and leaves nothing behind.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "asset/model.h"
#include "core/result.h"

namespace horde {

// What a decoder may allocate for mesh storage (and, separately, for animation keys): at most
// kStoragePerInputByte bytes per byte of its input, plus kStorageSlack. A Grimrock vertex can sit in one byte of the file and take 80
// bytes of storage; anything far beyond that means a count or a shared structure was trusted.
// glTF checks it as it decodes (meshes placed on many nodes are stored once per node); the other
// formats stay within it by checking every count against the bytes that hold its elements, and
// NWN and SWTOR also what structures pointing at the same bytes add up to (nwn_file.h,
// swtor_load.cpp). The fuzz targets hold every decode to it.
constexpr uint64_t kStoragePerInputByte = 128;
constexpr uint64_t kStorageSlack = uint64_t(1) << 20;

struct LoadOptions {
    std::filesystem::path skeleton;             // formats whose skeleton is a separate file
    std::vector<std::filesystem::path> anims;   // animation files bound to the model's nodes
    std::vector<std::filesystem::path> searchPaths; // where referenced files (supermodels) may be
};

// A format's entry. `detect` looks at the bytes (and name). `load` decodes a model, reading
// options.skeleton itself where the format keeps skeletons apart. `loadClips` (may be null)
// decodes an animation file and binds it to `target`'s nodes by name. `write` (may be null)
// writes a model in the format; formats of several files derive their names from `path`.
struct Format {
    const char* id;
    const char* description;
    bool (*detect)(const std::filesystem::path& path, std::span<const std::byte> bytes);
    Result<Model> (*load)(const std::filesystem::path& path, std::span<const std::byte> bytes,
                          const LoadOptions& options, MeshAllocator& allocator);
    Result<std::vector<Clip>> (*loadClips)(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                           Model& target);
    Status (*write)(const Model& model, const std::filesystem::path& path);
    const char* extension = nullptr; // of the main file the writer writes, e.g. ".model"
};

std::span<const Format* const> formats();
const Format* findFormat(std::string_view id);

// Decodes `path`, then binds every options.anims file to it (any format whose clips bind by
// node name), then validates. Clips from anim files carry the file name as their source.
Result<Model> loadModel(const std::filesystem::path& path, const LoadOptions& options, MeshAllocator& allocator);

} // namespace horde
