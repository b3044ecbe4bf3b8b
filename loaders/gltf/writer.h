#pragma once
#include <filesystem>

#include "asset/model.h"
#include "core/result.h"

namespace horde::gltf {

// .glb when `path` ends in .glb, otherwise .gltf with the buffer embedded as a data URI.
Status write(const Model& model, const std::filesystem::path& path);

} // namespace horde::gltf
