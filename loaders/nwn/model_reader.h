#pragma once
#include <filesystem>
#include <span>

#include "asset/model.h"
#include "format.h"

namespace horde::nwn {

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                        MeshAllocator& allocator);
// The animations of another binary MDL, bound to `target` by node name (for --anim).
Result<std::vector<Clip>> readClipsFor(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& target);

} // namespace horde::nwn
