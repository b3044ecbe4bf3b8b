// What a GAWB file is: a skeleton (header type 2) or a mesh, from its validated header.
#include "survey.h"
#include "swtor/swtor.h"

namespace horde::swtor {

Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    Reader r(bytes, path.string());
    Header h = readHeader(r);
    if (!r.ok()) return r.error();
    FileSurvey s;
    s.kind = h.type == kTypeSkeleton ? FileKind::Skeleton : FileKind::Mesh;
    return s;
}

} // namespace horde::swtor
