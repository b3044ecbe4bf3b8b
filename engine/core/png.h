#pragma once
// Writes a frame read back from the GPU as an 8-bit RGBA PNG (stb_image_write): the --out image of
// the render and crowd commands and the pictures of validate reports.
#include <cstdint>
#include <filesystem>
#include <span>

#include "core/result.h"

namespace horde {

Status writePng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba);

} // namespace horde
