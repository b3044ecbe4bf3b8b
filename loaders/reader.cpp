#include "reader.h"

#include <cstdio>

namespace horde {

bool Reader::failAt(size_t offset, std::string_view field, std::string_view reason) {
    if (error_.empty()) {
        char where[64];
        std::snprintf(where, sizeof where, "offset %zu (0x%zx)", offset, offset);
        error_ = file_ + ": " + where + ": " + std::string(field) + ": " + std::string(reason);
    }
    return false;
}

bool Reader::need(size_t n, std::string_view field) {
    if (!ok()) return false;
    if (n > bytes_.size() - offset_)
        return fail(field, "needs " + std::to_string(n) + " bytes but only " + std::to_string(bytes_.size() - offset_) +
                               " remain (file is " + std::to_string(bytes_.size()) + " bytes)");
    return true;
}

std::span<const std::byte> Reader::bytes(size_t n, std::string_view field) {
    if (!need(n, field)) return {};
    auto out = bytes_.subspan(offset_, n);
    offset_ += n;
    return out;
}

bool Reader::expect(std::string_view magic, std::string_view field) {
    size_t at = offset_;
    auto got = bytes(magic.size(), field);
    if (got.empty() && !magic.empty()) return false;
    if (std::memcmp(got.data(), magic.data(), magic.size()) == 0) return true;
    std::string seen;
    for (std::byte b : got) {
        char c = char(b);
        seen += (c >= 32 && c < 127) ? std::string(1, c) : "\\x" + std::to_string(int(b));
    }
    return failAt(at, field, "expected '" + std::string(magic) + "', found '" + seen + "'");
}

std::string Reader::fixedString(size_t width, std::string_view field) {
    auto raw = bytes(width, field);
    std::string out;
    for (std::byte b : raw) {
        if (b == std::byte{0}) break;
        out += char(b);
    }
    return out;
}

bool Reader::fits(uint64_t count, uint64_t elementSize, std::string_view field) {
    if (!ok()) return false;
    uint64_t left = bytes_.size() - offset_;
    if (elementSize != 0 && count > left / elementSize)
        return fail(field, "count " + std::to_string(count) + " of " + std::to_string(elementSize) +
                               "-byte elements does not fit in the " + std::to_string(left) + " bytes that remain");
    return true;
}

bool Reader::atMost(uint64_t count, uint64_t limit, std::string_view field) {
    if (!ok()) return false;
    if (count > limit) return fail(field, "value " + std::to_string(count) + " exceeds the limit " + std::to_string(limit));
    return true;
}

bool Reader::seek(size_t absolute, std::string_view field) {
    if (!ok()) return false;
    if (absolute > bytes_.size())
        return fail(field, "offset " + std::to_string(absolute) + " is past the end of the file (" +
                               std::to_string(bytes_.size()) + " bytes)");
    offset_ = absolute;
    return true;
}

bool Reader::skip(size_t n, std::string_view field) { return need(n, field) && ((offset_ += n), true); }

} // namespace horde
