#include "validate_textures.h"

#include "texture/texture.h"

namespace horde {

namespace {
uint64_t fnv1a(uint64_t hash, const uint8_t* bytes, size_t n) {
    for (size_t i = 0; i < n; ++i) hash = (hash ^ bytes[i]) * 0x100000001B3ull;
    return hash;
}
} // namespace

uint64_t textureContentHash(const Texture& texture) {
    uint64_t hash = 0xCBF29CE484222325ull;
    const uint32_t size[2] = {texture.levels.empty() ? 0 : texture.levels[0].width, texture.levels.empty() ? 0 : texture.levels[0].height};
    hash = fnv1a(hash, reinterpret_cast<const uint8_t*>(size), sizeof size);
    if (Result<std::vector<uint8_t>> rgba = decodeRgba8(texture)) return fnv1a(hash, rgba->data(), rgba->size());
    if (texture.levels.empty()) return hash;
    const TextureLevel& base = texture.levels[0];
    return fnv1a(hash, reinterpret_cast<const uint8_t*>(texture.bytes.data()) + base.offset, size_t(base.size));
}

Check compareTextures(const Model& a, const Model& b) {
    Check check{"textures", true, ""};
    size_t compared = 0;
    std::string differ;
    for (const Material& ma : a.materials) {
        const int32_t index = findMaterial(b, ma.name);
        if (index < 0) continue;
        const Material& mb = b.materials[size_t(index)];
        for (const TextureRef& ta : ma.textures) {
            const TextureRef* tb = mb.find(ta.slot);
            if (!ta.texture || !tb || !tb->texture) continue;
            ++compared;
            if (textureContentHash(*ta.texture) != textureContentHash(*tb->texture))
                differ += std::string(differ.empty() ? "" : ", ") + ma.name + " (" + textureSlotName(ta.slot) + ")";
        }
    }
    if (!differ.empty()) {
        check.passed = false;
        check.detail = "texels differ: " + differ;
    } else {
        check.detail = compared ? std::to_string(compared) + " textures, the same texels" : "no texture on both sides to compare";
    }
    return check;
}

} // namespace horde
