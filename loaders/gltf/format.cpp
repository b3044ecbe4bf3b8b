// The glTF format entry. glTF 2.0 (.glb and .gltf with embedded or external buffers), read and
// written through tinygltf. See docs/formats/gltf.md for what is kept, how axes are converted
// and where glTF cannot say exactly what a horde clip does.
#include <algorithm>
#include <cstring>

#include "format.h"
#include "gltf/reader.h"
#include "gltf/writer.h"

namespace horde {

namespace {
bool detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) return true;
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext == ".gltf" || ext == ".glb";
}

// One file holds everything (a .gltf embeds its buffer): nothing beside it.
Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    if (Status st = gltf::write(model, path); !st) return st.error();
    return Companions{};
}
} // namespace

const Format& gltfFormat() {
    static const Format format{
        "gltf", "glTF 2.0 (.glb, .gltf)", detect, gltf::load, gltf::loadClips, write, ".glb"};
    return format;
}

} // namespace horde
