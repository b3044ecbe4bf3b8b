#include "loader.h"

#include "core/file.h"
#include "survey.h"
#include "texture/texture.h"

namespace horde {

AddedNodes addedNodes(const Model& source, const Model& read) {
    const Format* format = findFormat(read.format);
    if (format && format->addedNodes) return format->addedNodes(source, read);
    AddedNodes none;
    none.added.assign(read.nodes.size(), false);
    return none;
}

namespace {
const Format* detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    for (const Format* format : formats())
        if (format->detect(path, bytes)) return format;
    return nullptr;
}

// A material a submesh names that nothing horde read defines (a Grimrock name no Lua file read
// defines, a SWTOR material file horde does not read) is drawn as the missing-texture checker:
// say so. An empty name is no material at all, drawn in its palette colour.
void warnUndefinedMaterials(Model& model) {
    for (const Material& m : model.materials)
        if (!m.defined)
            model.warnings.push_back("material '" + m.name +
                                     "' is defined nowhere horde read: drawn as the missing-texture checker");
}

// An animation file that cannot be read costs the model its clip, not the model: the model loads
// without it, and a warning names the file and why.
Result<std::vector<Clip>> readAnimation(const std::filesystem::path& anim, Model& model) {
    Result<MappedFile> file = MappedFile::open(anim);
    if (!file) return file.error();
    const Format* format = detect(anim, file->bytes());
    if (!format || !format->readClips)
        return Error{anim.string() + ": not an animation file horde can bind to a model"};
    return format->readClips(anim, file->bytes(), model);
}

void bindAnimations(Model& model, const LoadOptions& options) {
    for (const std::filesystem::path& anim : options.anims) {
        const size_t warned = model.warnings.size();
        Result<std::vector<Clip>> clips = readAnimation(anim, model);
        if (!clips) {
            model.warnings.resize(warned); // what the failed read said of its items is moot
            model.warnings.push_back("animation not read, the model is loaded without it: " +
                                     clips.error().message);
            continue;
        }
        for (Clip& clip : *clips) {
            clip.source = anim.filename().string();
            model.clips.push_back(std::move(clip));
        }
    }
}
} // namespace

Result<Model> loadModel(const std::filesystem::path& path, const LoadOptions& options, MeshAllocator& allocator) {
    Result<MappedFile> file = MappedFile::open(path);
    if (!file) return file.error();
    const Format* format = detect(path, file->bytes());
    if (!format) {
        // A file whose extension a format claims is a broken file of that format: say which.
        if (const Format* claimed = claimOf(path).format)
            return Error{path.string() + ": offset 0 (0x0): magic: not a " + claimed->description +
                         " file (its bytes hold no header the format starts with)"};
        return Error{path.string() + ": not a format horde reads (no known magic or extension)"};
    }
    Result<Model> model = format->readModel(path, file->bytes(), options, allocator);
    if (!model) return model.error();
    bindAnimations(*model, options);
    if (Status finished = finishModel(path, *model); !finished) return finished.error();
    HeapTextureAllocator heap;
    TextureLibrary own(heap);
    resolveTextures(*model, path, options, format->textureSubstitutes, options.textures ? *options.textures : own);
    warnUndefinedMaterials(*model);
    for (Mesh& mesh : model->meshes) mesh.storage->commit();
    return model;
}

} // namespace horde
