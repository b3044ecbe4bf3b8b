// The Grimrock format entry: detection by magic, and the readers and writer behind the Format.
#include "grimrock/grimrock.h"

#include "format.h"
#include "registry.h"

namespace horde {

namespace {
bool detect(const std::filesystem::path&, std::span<const std::byte> bytes) {
    return grimrock::hasMagic(bytes, "MDL1") || grimrock::hasMagic(bytes, "ANIM");
}

// The game converts its .tga textures to .dds when a mod is exported and opens the .dds.
constexpr std::string_view kTextureSubstitutes[] = {".dds"};
constexpr FileExtension kExtensions[] = {{".model", FileKind::Model}, {".animation", FileKind::Animation}};
} // namespace

const Format& grimrockFormat() {
    static const Format format{.id = "grimrock",
                               .description = "Legend of Grimrock MDL1 model / ANIM animation",
                               .detect = detect,
                               .readModel = grimrock::readModel,
                               .readClips = grimrock::readClips,
                               .write = grimrock::write,
                               .extension = ".model",
                               .textureSubstitutes = kTextureSubstitutes,
                               .extensions = kExtensions,
                               .survey = grimrock::survey,
                               .folders = {.family = "grimrock",
                                           .name = "Grimrock",
                                           .animations = FolderRule::Animations::ModelNodes}};
    return format;
}

} // namespace horde
