#include "emi/emi.h"

#include "core/text.h"

namespace horde::emi {

Axes fileAxes() {
    return Axes{.up = Axes::Up::Y, .leftHanded = true, .clockwiseFrontFaces = false};
}

std::string readString(Reader& r, std::string_view field) {
    uint32_t length = r.u32(field);
    if (!r.fits(length, 1, field)) return {};
    std::string out;
    for (std::byte b : r.bytes(length, field)) {
        if (b == std::byte{0}) break;
        out += char(b);
    }
    return out;
}

NameIndex::NameIndex(const Model& model) {
    for (size_t n = 0; n < model.nodes.size(); ++n) add(model.nodes[n].name, int32_t(n));
}

bool NameIndex::add(std::string_view name, int32_t node) { return nodes_.emplace(asciiLower(name), node).second; }

int32_t NameIndex::find(std::string_view name) const {
    auto it = nodes_.find(asciiLower(name));
    return it == nodes_.end() ? -1 : it->second;
}

} // namespace horde::emi
