// The EMI format entry. Escape from Monkey Island (2000) creatures: a .meshb mesh, a .sklb
// skeleton read through LoadOptions::skeleton, and .animb clips bound by bone name. Layout and
// decisions: docs/formats/emi.md. The files carry no magic: detection goes by extension and
// checks that the first fields are plausible.
#include <algorithm>
#include <cctype>

#include "core/file.h"
#include "format.h"
#include "emi/emi.h"

namespace horde {

namespace {
std::string extension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// A .meshb or .animb opens with a name: a length that counts the NUL, then the bytes.
bool plausibleName(std::span<const std::byte> bytes) {
    Reader r(bytes, "");
    uint32_t length = r.u32("");
    return r.ok() && length >= 1 && length <= 4096 && r.fits(length, 1, "") && bytes[4 + length - 1] == std::byte{0};
}

bool detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::string ext = extension(path);
    if (ext == ".meshb" || ext == ".animb") return plausibleName(bytes);
    if (ext != ".sklb") return false;
    Reader r(bytes, "");
    uint32_t joints = r.u32("");
    return r.ok() && joints > 0 && r.fits(joints, 92, "");
}

Model emptyModel() {
    Model model;
    model.format = "emi";
    model.axes.up = Axes::Up::Y;
    model.axes.leftHanded = true;
    model.axes.clockwiseFrontFaces = false; // see docs/formats/emi.md, "Handedness and winding"
    return model;
}

Result<Model> load(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                   MeshAllocator& allocator) {
    Model model = emptyModel();
    std::string ext = extension(path);
    if (ext == ".animb")
        return Error{path.string() + ": an .animb holds an animation: load its .meshb and pass this file with --anim"};
    if (ext == ".sklb") {
        if (Status st = emi::readSkeleton(path, bytes, model); !st) return st.error();
        return model;
    }
    bool skinned = !options.skeleton.empty();
    if (skinned) {
        Result<MappedFile> skeleton = MappedFile::open(options.skeleton);
        if (!skeleton) return skeleton.error();
        if (Status st = emi::readSkeleton(options.skeleton, skeleton->bytes(), model); !st) return st.error();
    }
    if (Status st = emi::readMesh(path, bytes, skinned, allocator, model); !st) return st.error();
    return model;
}
} // namespace

const Format& emiFormat() {
    static const Format format{"emi", "Escape from Monkey Island mesh (.meshb), skeleton (.sklb), animation (.animb)",
                               detect, load, emi::readClips, emi::write, ".meshb"};
    return format;
}

} // namespace horde
