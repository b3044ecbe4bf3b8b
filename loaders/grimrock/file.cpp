#include "grimrock/grimrock.h"

#include <cmath>
#include <cstring>

#include <glm/gtc/quaternion.hpp>

namespace horde::grimrock {

Axes fileAxes() {
    return Axes{.up = Axes::Up::Y, .leftHanded = true, .clockwiseFrontFaces = true};
}

bool hasMagic(std::span<const std::byte> bytes, const char* magic) {
    return bytes.size() >= 4 && std::memcmp(bytes.data(), magic, 4) == 0;
}

std::string readString(Reader& r, std::string_view field) {
    int32_t length = r.i32(field);
    if (!r.ok()) return {};
    if (length < 0) {
        r.fail(field, "string length " + std::to_string(length) + " is negative");
        return {};
    }
    if (!r.fits(uint64_t(length), 1, field)) return {};
    auto raw = r.bytes(size_t(length), field);
    return std::string(reinterpret_cast<const char*>(raw.data()), raw.size());
}

glm::mat4 readMat4x3(Reader& r, std::string_view field) {
    glm::mat4 m(1.0f);
    for (int c = 0; c < 4; ++c) m[c] = glm::vec4(r.vec3(field), c == 3 ? 1.0f : 0.0f);
    return m;
}

} // namespace horde::grimrock
