#include "core/text.h"

namespace horde {

std::string asciiLower(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return out;
}

std::string lowerExtension(const std::filesystem::path& path) {
    return asciiLower(path.extension().string());
}

} // namespace horde
