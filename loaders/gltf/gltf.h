#pragma once
// glTF 2.0 (.glb and .gltf with embedded or external buffers), read and written through tinygltf.
// See docs/formats/gltf.md for what is kept, how axes are converted and where glTF cannot say
// exactly what a horde clip does.
#include "loader.h"

namespace horde {

const Format& gltfFormat();

} // namespace horde
