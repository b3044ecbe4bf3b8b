// What an EMI file is, by its extension: a mesh, a skeleton, or an animation with the bones it
// keys: each entry's bone name, read past its keys (an entry without keys drives nothing), with
// the checks readClips makes on the same fields.
#include "core/text.h"
#include "emi/emi.h"
#include "survey.h"

namespace horde::emi {

namespace {
Result<std::vector<std::string>> animationBones(const std::filesystem::path& path,
                                                std::span<const std::byte> bytes) {
    constexpr uint32_t kTranslate = 3, kRotate = 4;
    Reader r(bytes, path.string());
    readString(r, "animation name");
    r.f32("duration");
    uint32_t entries = r.u32("bone entry count");
    if (!r.fits(entries, 20, "bone entry count")) return r.error();
    std::vector<std::string> bones;
    for (uint32_t e = 0; e < entries && r.ok(); ++e) {
        std::string bone = readString(r, "bone name");
        size_t at = r.offset();
        uint32_t operation = r.u32("operation");
        if (r.ok() && operation != kTranslate && operation != kRotate)
            return failedAt(r, at, "operation",
                            std::to_string(operation) + " is neither 3 (translation) nor 4 (rotation)");
        r.u32("priority");
        r.u32("unused");
        uint32_t keys = r.u32("key count");
        uint64_t keyBytes = operation == kTranslate ? 16 : 20;
        if (!r.fits(keys, keyBytes, "key count")) return r.error();
        r.skip(size_t(keys * keyBytes), "keys");
        if (keys > 0) bones.push_back(std::move(bone));
    }
    if (!r.ok()) return r.error();
    return bones;
}

} // namespace

Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    const std::string ext = lowerExtension(path);
    FileSurvey s;
    s.kind = ext == ".animb" ? FileKind::Animation : ext == ".sklb" ? FileKind::Skeleton : FileKind::Mesh;
    if (s.kind != FileKind::Animation) return s;
    Result<std::vector<std::string>> bones = animationBones(path, bytes);
    if (!bones) return bones.error();
    s.names = std::move(*bones);
    return s;
}

} // namespace horde::emi
