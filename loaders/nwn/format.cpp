// The NWN format entries: `nwn` (compiled, binary) and `nwn-ascii` (text), one .mdl extension.
// Either entry loads either encoding (the first 32-bit word decides, as in xoreos), so a chain of
// supermodels may mix them; each writes its own.
#include "nwn/nwn.h"

#include <cstring>

#include "format.h"
#include "registry.h"

namespace horde {

namespace {
uint32_t word(std::span<const std::byte> bytes, size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
}

// Binary: a zero word, then sizes that account for the file. A .mdl whose first word is zero is
// binary whatever its sizes say (text never starts with four zero bytes): a file cut short is
// then refused by the reader naming the byte it ends at, not as a format horde does not read.
bool detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    const bool mdl = lowerExtension(path) == ".mdl";
    if (bytes.size() < 4 || word(bytes, 0) != 0) return false;
    if (mdl) return true;
    if (bytes.size() < nwn::kFileHeaderSize) return false;
    uint64_t end = nwn::kFileHeaderSize + uint64_t(word(bytes, 4)) + word(bytes, 8);
    return word(bytes, 4) >= nwn::kModelHeaderSize && end == bytes.size();
}

// ASCII: a .mdl whose first word is not zero; the text's own errors say what is wrong with it.
bool detectAscii(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    return lowerExtension(path) == ".mdl" && nwn::isAscii(bytes);
}

// Bitmap names carry no extension; the game opens the .dds before the .tga of a name (rollnw's
// texture lookup order).
constexpr std::string_view kTextureSubstitutes[] = {".dds", ".tga"};
constexpr FileExtension kExtensions[] = {{".mdl", FileKind::Model}};
// One family: a chain of supermodels may mix the encodings.
constexpr FolderRule kFolderRule{.family = "nwn", .name = "NWN", .supermodels = true, .animationModels = "a_"};

// The two entries differ in what they detect and write; either reads, surveys, pairs and maps
// both encodings.
Format entry(const char* id, const char* description, decltype(Format::detect) detects,
             decltype(Format::write) writes) {
    return Format{.id = id,
                  .description = description,
                  .detect = detects,
                  .readModel = nwn::readModel,
                  .readClips = nwn::readClips,
                  .write = writes,
                  .extension = ".mdl",
                  .textureSubstitutes = kTextureSubstitutes,
                  .extensions = kExtensions,
                  .survey = nwn::survey,
                  .folders = kFolderRule,
                  .addedNodes = nwn::addedNodes};
}
} // namespace

const Format& nwnFormat() {
    static const Format format = entry(
        "nwn", "Neverwinter Nights binary MDL (model, skins, animations, supermodels)", detect, nwn::write);
    return format;
}

const Format& nwnAsciiFormat() {
    static const Format format = entry("nwn-ascii", "Neverwinter Nights ASCII MDL (the same content as text)",
                                       detectAscii, nwn::writeAscii);
    return format;
}

} // namespace horde
