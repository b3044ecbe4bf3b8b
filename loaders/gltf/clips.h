#pragma once
#include <cstdint>
#include <vector>

#include <tiny_gltf.h>

#include "asset/model.h"
#include "core/result.h"

namespace horde::gltf {

// Every animation of `gltf` as a clip; `nodeOf` maps a glTF node index to a horde node (-1: not
// bound, an error when a channel drives it). Channels keep their keys exactly; "weights"
// channels (morph targets) are skipped with a warning in `warnings`. Each channel holds its own
// copy of its sampler's keys, so the keys of every channel together may take at most
// `keyBytes`: channels sharing one large sampler must not grow memory with the square of the file.
Result<std::vector<Clip>> decodeClips(const tinygltf::Model& gltf, const std::vector<int32_t>& nodeOf,
                                      std::vector<std::string>& warnings, uint64_t keyBytes);

} // namespace horde::gltf
