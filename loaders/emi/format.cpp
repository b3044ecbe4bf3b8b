// The EMI format entry: detection, which goes by extension and checks that the first fields are
// plausible (the files carry no magic), and the readers and writer behind the Format.
#include "emi/emi.h"

#include "core/text.h"
#include "registry.h"

namespace horde {

namespace {
// A .meshb or .animb opens with a name: a length that counts the NUL, then the bytes.
bool plausibleName(std::span<const std::byte> bytes) {
    Reader r(bytes, "");
    uint32_t length = r.u32("");
    return r.ok() && length >= 1 && length <= 4096 && r.fits(length, 1, "") && bytes[4 + length - 1] == std::byte{0};
}

bool detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    std::string ext = lowerExtension(path);
    if (ext == ".meshb" || ext == ".animb") return plausibleName(bytes);
    if (ext != ".sklb") return false;
    Reader r(bytes, "");
    uint32_t joints = r.u32("");
    return r.ok() && joints > 0 && r.fits(joints, 92, "");
}

constexpr FileExtension kExtensions[] = {
    {".meshb", FileKind::Mesh}, {".sklb", FileKind::Skeleton}, {".animb", FileKind::Animation}};
} // namespace

const Format& emiFormat() {
    static const Format format{
        .id = "emi",
        .description = "Escape from Monkey Island mesh (.meshb), skeleton (.sklb), animation (.animb)",
        .detect = detect,
        .readModel = emi::readModel,
        .readClips = emi::readClips,
        .write = emi::write,
        .extension = ".meshb",
        .extensions = kExtensions,
        .survey = emi::survey,
        .folders = {.family = "emi",
                    .name = "EMI",
                    .animations = FolderRule::Animations::SkeletonNodes,
                    .ignoreCase = true, // EMI looks bones up ignoring case
                    .skeletonFor = emi::skeletonPathFor},
        .addedNodes = emi::addedNodes};
    return format;
}

} // namespace horde
