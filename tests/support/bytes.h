#pragma once
// Builds little-endian byte vectors field by field, so tests can write a file from a spec's
// layout by hand and know every expected value.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

namespace horde::test {

class Bytes {
  public:
    template <class T> Bytes& put(T value) {
        const auto* raw = reinterpret_cast<const std::byte*>(&value);
        data_.insert(data_.end(), raw, raw + sizeof(T));
        return *this;
    }
    Bytes& u8(uint8_t v) { return put(v); }
    Bytes& u16(uint16_t v) { return put(v); }
    Bytes& i16(int16_t v) { return put(v); }
    Bytes& u32(uint32_t v) { return put(v); }
    Bytes& i32(int32_t v) { return put(v); }
    Bytes& f32(float v) { return put(v); }
    Bytes& text(const std::string& s) {
        for (char c : s) data_.push_back(std::byte(c));
        return *this;
    }
    Bytes& zeros(size_t n) {
        data_.insert(data_.end(), n, std::byte{0});
        return *this;
    }
    // Overwrites a 32-bit value at `offset` (patching counts and pointers after the fact).
    Bytes& patch32(size_t offset, uint32_t v) {
        std::memcpy(data_.data() + offset, &v, 4);
        return *this;
    }
    size_t size() const { return data_.size(); }
    const std::vector<std::byte>& data() const { return data_; }
    std::span<const std::byte> span() const { return data_; }

  private:
    std::vector<std::byte> data_;
};

// Every prefix of `bytes` shorter than the whole, each copied into its own allocation so the
// address sanitizer sees any read past its end.
std::vector<std::vector<std::byte>> truncations(std::span<const std::byte> bytes, size_t maxCuts = 4096);

} // namespace horde::test
