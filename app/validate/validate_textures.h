#pragma once
// `horde validate`'s texture check: each material both models have, slot by slot, compared by a
// hash of its decoded base level, so a conversion that re-encodes a texture (BC1 in, PNG in a
// .glb out) passes when the texels are the same.
#include "model/model.h"
#include "validate_compare.h"

namespace horde {

// FNV-1a over the base level's RGBA8 texels and size, every format decoded on the CPU (a level
// that does not decode hashes its stored bytes instead).
uint64_t textureContentHash(const Texture& texture);

// One check named "textures": passes unless some material has, in one slot on both sides,
// textures whose content differs; names those materials and slots, and says what was not
// compared (no textures on one side).
Check compareTextures(const Model& a, const Model& b);

} // namespace horde
