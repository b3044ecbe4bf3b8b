// The SWTOR format entry: detection by magic, and the reader and writer behind the Format.
#include "swtor/swtor.h"

#include <cstring>

#include "format.h"
#include "registry.h"

namespace horde {

namespace {
bool detect(const std::filesystem::path&, std::span<const std::byte> bytes) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), "GAWB", 4) == 0;
}

// A mesh or a skeleton: only the header tells, so a file that cannot be read is taken for a model.
constexpr FileExtension kExtensions[] = {{".gr2", FileKind::Model}};
} // namespace

const Format& swtorFormat() {
    static const Format format{
        .id = "swtor",
        .description =
            "Star Wars: The Old Republic GAWB .gr2 (version 4): meshes, and skeletons given with --skeleton",
        .detect = detect,
        .readModel = swtor::readModel,
        .readClips =
            nullptr, // the spec defines no SWTOR animation format; clips of other formats bind by name
        .write = swtor::write,
        .extension = ".gr2",
        .extensions = kExtensions,
        .survey = swtor::survey,
        .folders = {.family = "swtor", .name = "SWTOR", .skeletonFor = swtor::skeletonPathFor}};
    return format;
}

} // namespace horde
