// The Grimrock format entry: detection by magic, and the readers and writer behind the Format.
#include "grimrock/grimrock.h"

#include "format.h"

namespace horde {

namespace {
bool detect(const std::filesystem::path&, std::span<const std::byte> bytes) {
    return grimrock::hasMagic(bytes, "MDL1") || grimrock::hasMagic(bytes, "ANIM");
}

// The game converts its .tga textures to .dds when a mod is exported and opens the .dds.
constexpr std::string_view kTextureSubstitutes[] = {".dds"};
} // namespace

const Format& grimrockFormat() {
    static const Format format{"grimrock",
                               "Legend of Grimrock MDL1 model / ANIM animation",
                               detect,
                               grimrock::readModel,
                               grimrock::readClips,
                               grimrock::write,
                               ".model",
                               kTextureSubstitutes};
    return format;
}

} // namespace horde
