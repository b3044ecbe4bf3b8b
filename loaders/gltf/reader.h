#pragma once
#include <filesystem>
#include <span>
#include <vector>

#include "format.h"

namespace horde::gltf {

Result<Model> load(const std::filesystem::path& path, std::span<const std::byte> bytes,
                   const LoadOptions& options, MeshAllocator& allocator);
// The file's animations bound to `target`'s nodes by name.
Result<std::vector<Clip>> loadClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target);

} // namespace horde::gltf
