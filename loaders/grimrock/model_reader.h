#pragma once
// Decodes an MDL1 model file: nodes, mesh entities (into the allocator's storage) and lights.
#include <filesystem>
#include <span>

#include "asset/model.h"
#include "core/result.h"

namespace horde::grimrock {

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes, MeshAllocator& allocator);

} // namespace horde::grimrock
