// The glTF format entry: detection by magic or extension, and the readers and writer behind
// the Format.
#include "gltf/gltf.h"

#include <cstring>

#include "core/text.h"
#include "format.h"
#include "registry.h"

namespace horde {

namespace {
bool detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return true;
    const std::string ext = lowerExtension(path);
    return ext == ".gltf" || ext == ".glb";
}

constexpr FileExtension kExtensions[] = {{".glb", FileKind::Model}, {".gltf", FileKind::Model}};
} // namespace

const Format& gltfFormat() {
    static const Format format{.id = "gltf",
                               .description = "glTF 2.0 (.glb, .gltf)",
                               .detect = detect,
                               .readModel = gltf::readModel,
                               .readClips = gltf::readClips,
                               .write = gltf::write,
                               .extension = ".glb",
                               .extensions = kExtensions,
                               .folders = {.family = "gltf", .name = "glTF"}};
    return format;
}

} // namespace horde
