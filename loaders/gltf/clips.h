#pragma once
#include <vector>

#include <tiny_gltf.h>

#include "asset/model.h"
#include "core/result.h"

namespace horde::gltf {

// Every animation of `gltf` as a clip; `nodeOf` maps a glTF node index to a horde node (-1: not
// bound, an error when a channel drives it). Channels keep their keys exactly; "weights"
// channels (morph targets) are skipped with a warning in `warnings`.
Result<std::vector<Clip>> decodeClips(const tinygltf::Model& gltf, const std::vector<int32_t>& nodeOf,
                                      std::vector<std::string>& warnings);

} // namespace horde::gltf
