#include "registry.h"

#include <array>

namespace horde {

std::span<const Format* const> formats() {
    // Each format's entry lives beside its decoder (loaders/<id>/).
    static const auto all = std::to_array<const Format*>(
        {&grimrockFormat(), &emiFormat(), &gltfFormat(), &swtorFormat(), &nwnFormat(), &nwnAsciiFormat()});
    return all;
}

const Format* findFormat(std::string_view id) {
    for (const Format* format : formats())
        if (id == format->id) return format;
    return nullptr;
}

} // namespace horde
