#include "emi/emi.h"

#include "core/file.h"
#include "core/text.h"

namespace horde::emi {

namespace {
Model emptyModel() {
    Model model;
    model.format = "emi";
    model.axes = fileAxes();
    return model;
}
} // namespace

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator) {
    Model model = emptyModel();
    std::string ext = lowerExtension(path);
    if (ext == ".animb")
        return Error{path.string() + ": an .animb holds an animation: load its .meshb and pass this file with --anim"};
    if (ext == ".sklb") {
        if (Status st = readSkeleton(path, bytes, model); !st) return st.error();
        return model;
    }
    bool skinned = !options.skeleton.empty();
    if (skinned) {
        Result<MappedFile> skeleton = MappedFile::open(options.skeleton);
        if (!skeleton) return skeleton.error();
        if (Status st = readSkeleton(options.skeleton, skeleton->bytes(), model); !st) return st.error();
    }
    if (Status st = readMesh(path, bytes, skinned, allocator, model); !st) return st.error();
    return model;
}

} // namespace horde::emi
