#pragma once
// The one bounds-checked reader every loader decodes untrusted bytes with. Errors are sticky:
// the first failure is kept (file, byte offset, field, reason) and every later read returns
// zero, so a decoder checks ok() at the points where it is about to allocate or commit.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include <glm/glm.hpp>

#include "core/result.h"

namespace horde {

// What decoding may do again and again because offsets let a file's structures share bytes:
// read the same array, copy the same name, store the same mesh. A forged file can point every
// structure at one large array and make the work grow with the square of its size; real files
// use each once or a few times. A budget allows so many bytes in all, sized from the input
// (format.h's storage cap, NWN's reads, SWTOR's copies), and the first charge past it fails the
// file, so decoding stays linear in the input's size.
class Budget {
  public:
    // `reason`: what a failure says, e.g. "the file's structures share data so much that ...".
    Budget(uint64_t limit, std::string reason) : left_(limit), reason_(std::move(reason)) {}

    // Takes `bytes`; false, taking nothing, when fewer are left.
    bool take(uint64_t bytes) {
        if (bytes > left_) return false;
        left_ -= bytes;
        return true;
    }
    const std::string& reason() const { return reason_; }

  private:
    uint64_t left_;
    std::string reason_;
};

class Reader {
  public:
    Reader(std::span<const std::byte> bytes, std::string file) : bytes_(bytes), file_(std::move(file)) {}

    size_t size() const { return bytes_.size(); }
    size_t offset() const { return offset_; }
    size_t remaining() const { return ok() ? bytes_.size() - offset_ : 0; }
    bool ok() const { return error_.empty(); }
    Error error() const { return Error{error_}; }
    const std::string& file() const { return file_; }
    std::span<const std::byte> all() const { return bytes_; }

    // Records the first failure, at the current offset unless one is given. Always false.
    bool fail(std::string_view field, std::string_view reason) { return failAt(offset_, field, reason); }
    bool failAt(size_t offset, std::string_view field, std::string_view reason);

    // Little-endian scalars and vectors.
    template <class T> T read(std::string_view field) {
        T value{};
        if (need(sizeof(T), field)) {
            std::memcpy(&value, bytes_.data() + offset_, sizeof(T));
            offset_ += sizeof(T);
        }
        return value;
    }
    uint8_t u8(std::string_view field) { return read<uint8_t>(field); }
    uint16_t u16(std::string_view field) { return read<uint16_t>(field); }
    int16_t i16(std::string_view field) { return read<int16_t>(field); }
    uint32_t u32(std::string_view field) { return read<uint32_t>(field); }
    int32_t i32(std::string_view field) { return read<int32_t>(field); }
    float f32(std::string_view field) { return read<float>(field); }
    glm::vec2 vec2(std::string_view field) { return read<glm::vec2>(field); }
    glm::vec3 vec3(std::string_view field) { return read<glm::vec3>(field); }
    glm::vec4 vec4(std::string_view field) { return read<glm::vec4>(field); }

    // `n` raw bytes, in place.
    std::span<const std::byte> bytes(size_t n, std::string_view field);
    // Compares the next bytes with `magic` and fails naming both when they differ.
    bool expect(std::string_view magic, std::string_view field);
    // A fixed-width name: up to the first NUL; the junk some tools leave after it is ignored.
    std::string fixedString(size_t width, std::string_view field);

    // Fails unless `count` elements of `elementSize` bytes fit in what remains: call before
    // allocating anything sized by a count read from the file.
    bool fits(uint64_t count, uint64_t elementSize, std::string_view field);
    // Fails unless `count` is at most `limit` (counts that index 16-bit tables, say).
    bool atMost(uint64_t count, uint64_t limit, std::string_view field);
    bool seek(size_t absolute, std::string_view field);
    bool skip(size_t n, std::string_view field);

    // Charges `bytes` to `budget`; once it is spent, fails at the current offset (or at
    // `offset`) with the budget's reason.
    bool charge(Budget& budget, uint64_t bytes, std::string_view field) { return chargeAt(offset_, budget, bytes, field); }
    bool chargeAt(size_t offset, Budget& budget, uint64_t bytes, std::string_view field) {
        return budget.take(bytes) || failAt(offset, field, budget.reason());
    }

  private:
    bool need(size_t n, std::string_view field);

    std::span<const std::byte> bytes_;
    std::string file_;
    size_t offset_ = 0;
    std::string error_;
};

} // namespace horde
