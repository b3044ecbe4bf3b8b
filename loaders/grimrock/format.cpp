// The Grimrock format entry: detection by magic, and the readers and writer behind the Format.
#include "grimrock/grimrock.h"

#include <cstring>

#include "format.h"

namespace horde {

namespace {
bool starts(std::span<const std::byte> bytes, const char* magic) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), magic, 4) == 0;
}

// Magic alone decides: .model and .animation are names other games use too.
bool detect(const std::filesystem::path&, std::span<const std::byte> bytes) {
    return starts(bytes, "MDL1") || starts(bytes, "ANIM");
}

Result<Model> load(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                   MeshAllocator& allocator) {
    if (starts(bytes, "ANIM"))
        return Error{path.string() + ": offset 0 (0x0): magic: a Grimrock animation, not a model; pass it with --anim next to its .model"};
    Result<Model> model = grimrock::readModel(path, bytes, allocator);
    if (!model) return model;
    if (Status st = grimrock::applyMaterials(*model, options); !st) return st.error();
    return model;
}

// The game converts its .tga textures to .dds when a mod is exported and opens the .dds.
constexpr std::string_view kTextureSubstitutes[] = {".dds"};

Result<std::vector<Clip>> loadClips(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& target) {
    return grimrock::readAnimation(path, bytes, target);
}

Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    grimrock::Conversion conversion = grimrock::toFileAxes(model.axes);
    if (Status st = grimrock::writeModel(model, conversion, path); !st) return st.error();
    Companions written;
    for (const Clip& clip : model.clips) {
        written.anims.push_back(grimrock::animationPath(path, clip.name));
        if (Status st = grimrock::writeAnimation(model, clip, conversion, written.anims.back()); !st) return st.error();
    }
    return written;
}
} // namespace

const Format& grimrockFormat() {
    static const Format format{"grimrock", "Legend of Grimrock MDL1 model / ANIM animation", detect, load, loadClips, write,
                               ".model", kTextureSubstitutes};
    return format;
}

} // namespace horde
