#include "loader.h"

#include <array>

#include "asset/validate.h"
#include "core/file.h"

namespace horde {

std::span<const Format> formats() {
    static constexpr std::array<Format, 0> all{};
    return all;
}

Result<Model> loadModel(const std::filesystem::path& path, const LoadOptions& options, MeshAllocator& allocator) {
    Result<MappedFile> file = MappedFile::open(path);
    if (!file) return file.error();
    std::span<const std::byte> bytes = file->bytes();
    for (const Format& format : formats()) {
        if (!format.detect(path, bytes)) continue;
        Result<Model> model = format.load(path, bytes, options, allocator);
        if (!model) return model.error();
        finalizeMeshes(*model);
        if (Status valid = validateModel(*model); !valid) return Error{path.string() + ": " + valid.error().message};
        for (Mesh& mesh : model->meshes) mesh.storage->commit();
        return model;
    }
    return Error{path.string() + ": not a format horde reads (no known magic or extension)"};
}

} // namespace horde
