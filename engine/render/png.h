#pragma once
#include <cstdint>
#include <filesystem>
#include <span>

#include "core/result.h"

namespace horde {

Status writePng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba);

} // namespace horde
