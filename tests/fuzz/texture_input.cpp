#include "fuzz/texture_input.h"

#include "format.h"
#include "texture/texture.h"

namespace horde::fuzz {

bool isTextureKind(std::string_view kind) { return kind == "dds" || kind == "tga" || kind == "png" || kind == "jpeg"; }

std::string exerciseTexture(std::string_view kind, std::span<const std::byte> bytes) {
    const std::string file = "fuzz." + std::string(kind == "jpeg" ? "jpg" : kind);
    HeapTextureAllocator heap;
    Result<Texture> t = readTexture(file, bytes, heap);
    if (!t) return t.error().message.rfind(file + ": ", 0) == 0 ? "" : "error does not name the file: " + t.error().message;
    if (t->bytes.size() > bytes.size() * kStoragePerInputByte + kStorageSlack)
        return std::to_string(t->bytes.size()) + " bytes of texels from " + std::to_string(bytes.size()) + " input bytes";
    if (t->levels.empty() || t->width == 0 || t->height == 0) return "a texture without levels";
    for (const TextureLevel& level : t->levels)
        if (level.offset > t->bytes.size() || level.size > t->bytes.size() - level.offset ||
            level.size != levelBytes(t->format, level.width, level.height))
            return "a level outside the texture's bytes";
    // What an export does with it: every level decodes on the CPU to w x h texels.
    for (size_t m = 0; m < t->levels.size(); ++m) {
        Result<std::vector<uint8_t>> rgba = decodeRgba8(*t, m);
        if (!rgba || rgba->size() != uint64_t(t->levels[m].width) * t->levels[m].height * 4) return "a level the CPU decoder refuses";
    }
    return "";
}

} // namespace horde::fuzz
