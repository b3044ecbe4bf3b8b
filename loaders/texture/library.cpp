#include "core/file.h"
#include "format.h"
#include "texture/texture.h"

namespace horde {

const TextureLibrary::Entry& TextureLibrary::load(const std::filesystem::path& file) {
    std::error_code ec;
    std::filesystem::path key = std::filesystem::weakly_canonical(file, ec);
    if (ec) key = file;
    if (auto it = files_.find(key); it != files_.end()) return it->second;
    Entry entry;
    if (Result<MappedFile> mapped = MappedFile::open(file); !mapped) entry.error = mapped.error().message;
    else if (Result<Texture> texture = readTexture(file.string(), mapped->bytes(), allocator_); !texture) entry.error = texture.error().message;
    else entry.texture = std::make_shared<const Texture>(std::move(*texture));
    return files_.emplace(key, std::move(entry)).first->second;
}

void resolveTextures(Model& model, const std::filesystem::path& modelPath, const LoadOptions& options,
                     std::span<const std::string_view> substitutes, TextureLibrary& library) {
    std::vector<std::filesystem::path> dirs{modelPath.parent_path().empty() ? "." : modelPath.parent_path()};
    dirs.insert(dirs.end(), options.searchPaths.begin(), options.searchPaths.end());
    for (Material& material : model.materials) {
        for (TextureRef& ref : material.textures) {
            if (ref.texture || ref.path.empty()) continue;
            std::filesystem::path found = findTextureFile(ref.path, substitutes, dirs);
            if (found.empty()) {
                model.warnings.push_back("material '" + material.name + "': " + textureSlotName(ref.slot) + " texture '" + ref.path +
                                         "' not found beside the model or on the search paths");
                continue;
            }
            ref.file = found.string();
            const TextureLibrary::Entry& entry = library.load(found);
            if (entry.texture) ref.texture = entry.texture;
            else
                model.warnings.push_back("material '" + material.name + "': " + textureSlotName(ref.slot) + " texture: " + entry.error);
        }
    }
}

} // namespace horde
