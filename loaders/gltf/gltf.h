#pragma once
#include <filesystem>
#include <span>

#include <tiny_gltf.h>

#include "core/result.h"

namespace horde::gltf {

// tinygltf's parse of a .glb or .gltf held in memory. Images are not decoded; external buffers
// are read only from the model's own folder.
Result<tinygltf::Model> parse(const std::filesystem::path& path, std::span<const std::byte> bytes);

} // namespace horde::gltf
