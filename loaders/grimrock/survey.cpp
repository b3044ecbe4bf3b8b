// What a Grimrock file is: a model, or an animation with the nodes it drives: the item names,
// read past their keys by the scan readClips decodes from (an item without keys drives nothing).
#include "survey.h"
#include "grimrock/grimrock.h"

namespace horde::grimrock {

Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    FileSurvey s;
    s.kind = hasMagic(bytes, "ANIM") ? FileKind::Animation : FileKind::Model;
    if (s.kind != FileKind::Animation) return s;
    Reader r(bytes, path.string());
    AnimScan scan = scanAnimation(r);
    if (!r.ok()) return r.error();
    for (AnimItem& item : scan.items)
        if (item.keyed()) s.names.push_back(std::move(item.node));
    return s;
}

} // namespace horde::grimrock
