#include "core/png.h"

#include <stb/stb_image_write.h>

namespace horde {

Status writePng(const std::filesystem::path& path, uint32_t width, uint32_t height, std::span<const uint8_t> rgba) {
    if (rgba.size() != size_t(width) * height * 4) return Error{path.string() + ": image size does not match its pixels"};
    if (!stbi_write_png(path.c_str(), int(width), int(height), 4, rgba.data(), int(width * 4)))
        return Error{path.string() + ": cannot write PNG"};
    return Ok{};
}

} // namespace horde
