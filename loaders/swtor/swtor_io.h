#pragma once
// The SWTOR format entry's two halves (swtor_load.cpp, swtor_write.cpp).
#include <filesystem>

#include "format.h"

namespace horde::swtor {

Result<Model> load(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                   MeshAllocator& allocator);

// Writes the meshes to `path` and, when any mesh is skinned, the skeleton beside it
// (skeletonPathFor(path)), which it reports.
Result<Companions> write(const Model& model, const std::filesystem::path& path);

// body.gr2 -> body_skeleton.gr2 in the same folder.
std::filesystem::path skeletonPathFor(const std::filesystem::path& meshPath);

} // namespace horde::swtor
