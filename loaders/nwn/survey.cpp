// The supermodel an NWN model names, from the model header (binary) or the `setsupermodel` line
// (ASCII), read as the loaders read them.
#include "survey.h"
#include "nwn/nwn.h"

namespace horde::nwn {

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

} // namespace horde::nwn
