// What a Grimrock file is: a model, or an animation with the nodes it drives: the item names,
// read past their keys (an item without keys drives nothing), with the checks readClips makes on
// the same fields.
#include "survey.h"
#include "grimrock/grimrock.h"

namespace horde::grimrock {

namespace {
Result<std::vector<std::string>> animationNodes(const std::filesystem::path& path,
                                                std::span<const std::byte> bytes) {
    constexpr uint64_t kKeyBytes = 12 + 16 + 12; // position, rotation, scale
    Reader r(bytes, path.string());
    r.expect("ANIM", "magic");
    r.i32("version");
    readString(r, "name");
    r.f32("framesPerSecond");
    r.i32("numFrames");
    size_t itemsAt = r.offset();
    int32_t items = r.i32("numItems");
    if (r.ok() && items < 0) r.failAt(itemsAt, "numItems", "count " + std::to_string(items) + " is negative");
    if (!r.ok() || !r.fits(uint64_t(items), 8, "numItems")) return r.error();
    std::vector<std::string> nodes;
    for (int32_t i = 0; i < items; ++i) {
        std::string at = "items[" + std::to_string(i) + "]";
        std::string name = readString(r, at + ".node");
        size_t countAt = r.offset();
        int32_t keys = r.i32(at + ".numKeys");
        if (r.ok() && keys < 0)
            r.failAt(countAt, at + ".numKeys", "count " + std::to_string(keys) + " is negative");
        if (!r.ok() || !r.fits(uint64_t(keys), kKeyBytes, at + ".keys")) return r.error();
        r.skip(size_t(keys) * kKeyBytes, at + ".keys");
        if (keys > 0) nodes.push_back(std::move(name));
    }
    if (!r.ok()) return r.error();
    return nodes;
}

} // namespace

Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    FileSurvey s;
    s.kind = hasMagic(bytes, "ANIM") ? FileKind::Animation : FileKind::Model;
    if (s.kind != FileKind::Animation) return s;
    Result<std::vector<std::string>> nodes = animationNodes(path, bytes);
    if (!nodes) return nodes.error();
    s.names = std::move(*nodes);
    return s;
}

} // namespace horde::grimrock
