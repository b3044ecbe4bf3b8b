#pragma once
// The writers' side of reader.h: little-endian values appended to one byte vector, and the
// whole file written in one go.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"

namespace horde {

struct ByteWriter {
    std::vector<std::byte> bytes;

    template <class T> void put(T value) {
        const size_t at = bytes.size();
        bytes.resize(at + sizeof(T));
        std::memcpy(bytes.data() + at, &value, sizeof(T));
    }
    void u8(uint8_t v) { put(v); }
    void u16(uint16_t v) { put(v); }
    void u32(uint32_t v) { put(v); }
    void i32(int32_t v) { put(v); }
    void f32(float v) { put(v); }
    void vec3(glm::vec3 v) { put(v); }
    void vec4(glm::vec4 v) { put(v); }
    void text(std::string_view s) {
        for (char c : s) bytes.push_back(std::byte(c));
    }
    void zeros(size_t n) { bytes.resize(bytes.size() + n); }
    uint32_t pos() const { return uint32_t(bytes.size()); }
    // Overwrites a uint32 written earlier (an offset known only once its target is placed).
    void patch32(size_t at, uint32_t value) { std::memcpy(bytes.data() + at, &value, 4); }
};

// Writes `bytes` as the whole of `path`; the error names the file.
Status saveBytes(const std::vector<std::byte>& bytes, const std::filesystem::path& path);

} // namespace horde
