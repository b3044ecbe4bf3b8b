// What an NWN file is: a model, pointing at the supermodel its header (binary) or its
// `setsupermodel` line (ASCII) names, read as the loaders read them.
#include "survey.h"
#include "nwn/nwn.h"

namespace horde::nwn {

namespace {
Result<std::string> supermodelName(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    if (isAscii(bytes)) {
        Text text(bytes, path.string());
        AsciiModel ascii;
        if (!parseAscii(text, ascii)) return text.error();
        return ascii.supermodel;
    }
    File file(bytes, path);
    ModelHeader header;
    if (!file.open() || !readModelHeader(file, header)) return file.error();
    return header.supermodel;
}
} // namespace

Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    Result<std::string> super = supermodelName(path, bytes);
    if (!super) return super.error();
    FileSurvey s;
    s.kind = FileKind::Model;
    if (!super->empty()) s.names.push_back(*super);
    return s;
}

} // namespace horde::nwn
