#pragma once
// Decodes an ANIM file into one clip bound to `target`'s nodes by name.
#include <filesystem>
#include <span>
#include <vector>

#include "asset/model.h"
#include "core/result.h"

namespace horde::grimrock {

Result<std::vector<Clip>> readAnimation(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& target);

} // namespace horde::grimrock
