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

namespace {
// How a texture is named in the detail: the file it was read from, else the name the material gives.
std::string named(const TextureRef& t) {
    return t.file.empty() || t.file == t.path ? "'" + t.path + "'" : "'" + t.path + "' (" + t.file + ")";
}

std::string list(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size() && i < 4; ++i)
        out += (out.empty() ? "" : "; ") + items[i];
    if (items.size() > 4) out += "; and " + std::to_string(items.size() - 4) + " more";
    return out;
}
} // namespace

Check compareTextures(const Model& a, const Model& b, const std::map<std::string, std::string>& toB) {
    constexpr TextureSlot kSlots[] = {TextureSlot::Base, TextureSlot::Normal, TextureSlot::Specular,
                                      TextureSlot::MetalRough, TextureSlot::Emissive};
    size_t compared = 0;
    std::vector<std::string> differ, lost, gained, notKept;
    for (const Material& ma : a.materials) {
        const auto mapped = toB.find(ma.name);
        const int32_t index = findMaterial(b, mapped == toB.end() ? ma.name : mapped->second);
        if (index < 0) continue;
        const Material& mb = b.materials[size_t(index)];
        for (TextureSlot slot : kSlots) {
            const TextureRef *ta = ma.find(slot), *tb = mb.find(slot);
            const bool inA = ta && ta->texture, inB = tb && tb->texture;
            if (inA && inB) {
                ++compared;
                if (textureContentHash(*ta->texture) != textureContentHash(*tb->texture))
                    differ.push_back(ma.name + " (" + textureSlotName(slot) + ")");
            } else if (slot == TextureSlot::Base && inA) {
                lost.push_back("material '" + ma.name + "' has base texture " + named(*ta) + " in A, " +
                               (tb ? "B's " + named(*tb) + " was not found" : "none in B"));
            } else if (slot == TextureSlot::Base && inB) {
                gained.push_back("material '" + ma.name + "' has base texture " + named(*tb) + " in B, " +
                                 (ta ? "A's " + named(*ta) + " was not found" : "none in A"));
            } else if (inA) {
                notKept.push_back(ma.name + " (" + textureSlotName(slot) + ")");
            }
        }
    }
    Check check{"textures", differ.empty() && lost.empty() && gained.empty(), ""};
    check.compared = compared > 0;
    std::vector<std::string> parts;
    if (!lost.empty()) parts.push_back("base textures lost: " + list(lost));
    if (!gained.empty()) parts.push_back("base textures only in B: " + list(gained));
    if (!differ.empty()) {
        std::string names;
        for (const std::string& d : differ)
            names += (names.empty() ? "" : ", ") + d;
        parts.push_back("texels differ: " + names);
    }
    if (check.passed)
        parts.push_back(std::to_string(compared) + " texture" + (compared == 1 ? "" : "s") + " compared" +
                        (compared ? ", the same texels" : ": no base texture on either side"));
    if (!notKept.empty()) {
        std::string names;
        for (const std::string& n : notKept)
            names += (names.empty() ? "" : ", ") + n;
        parts.push_back("not kept in B (not drawn, not failed): " + names);
    }
    for (const std::string& p : parts)
        check.detail += (check.detail.empty() ? "" : "; ") + p;
    return check;
}

} // namespace horde
