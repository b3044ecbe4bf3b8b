#pragma once
// `horde validate`'s texture check: each material both models have, slot by slot, compared by a
// hash of its decoded base level, so a conversion that re-encodes a texture (BC1 in, PNG in a
// .glb out) passes when the texels are the same.
#include <map>
#include <string>

#include "model/model.h"
#include "validate_compare.h"

namespace horde {

// FNV-1a over the base level's RGBA8 texels and size, every format decoded on the CPU (a level
// that does not decode hashes its stored bytes instead).
uint64_t textureContentHash(const Texture& texture);

// One check named "textures", material by material (A's name, B's through `toB` where the
// materials check mapped it, else the same name). It fails when a slot holds textures on both
// sides whose content differs, or when a base texture is present on one side and absent on the
// other (a conversion that lost it, or one that gained a texture from nowhere), naming the
// material and the file; another slot kept on one side only is noted (formats hold different
// slots; only the base texture is drawn). Passing, it says how many textures were compared.
Check compareTextures(const Model& a, const Model& b, const std::map<std::string, std::string>& toB);

} // namespace horde
