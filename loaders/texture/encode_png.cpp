#include <stb/stb_image_write.h>

#include "texture/texture.h"

namespace horde {

Result<std::vector<uint8_t>> encodePng(const Texture& t) {
    Result<std::vector<uint8_t>> rgba = decodeRgba8(t, 0);
    if (!rgba) return rgba.error();
    std::vector<uint8_t> png;
    auto append = [](void* context, void* data, int size) {
        auto* out = static_cast<std::vector<uint8_t>*>(context);
        out->insert(out->end(), static_cast<uint8_t*>(data), static_cast<uint8_t*>(data) + size);
    };
    const TextureLevel& base = t.levels[0];
    if (!stbi_write_png_to_func(append, &png, int(base.width), int(base.height), 4, rgba->data(), int(base.width * 4)))
        return Error{t.file + ": PNG encoding failed"};
    return png;
}

} // namespace horde
