// The SWTOR format entry: detection by magic, and the reader and writer behind the Format.
#include "swtor/swtor.h"

#include <cstring>

#include "format.h"

namespace horde {

namespace {
bool detect(const std::filesystem::path&, std::span<const std::byte> bytes) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), "GAWB", 4) == 0;
}
} // namespace

const Format& swtorFormat() {
    static const Format format{
        "swtor",
        "Star Wars: The Old Republic GAWB .gr2 (version 4): meshes, and skeletons given with --skeleton",
        detect,
        swtor::readModel,
        nullptr, // the spec defines no SWTOR animation format; clips of other formats bind by name
        swtor::write,
        ".gr2",
    };
    return format;
}

} // namespace horde
