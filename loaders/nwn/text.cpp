// The ASCII MDL text cursor: lines and tokens found in place, numbers parsed with from_chars.
#include "nwn/nwn.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace horde::nwn {

namespace {
// Space, tab, CR, and the vertical tab and form feed ('\n' never reaches here).
bool blank(char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}
} // namespace

bool isAscii(std::span<const std::byte> bytes) {
    if (bytes.size() < 4) return !bytes.empty(); // too short for a binary header: only text can be valid
    uint32_t first = 0;
    std::memcpy(&first, bytes.data(), 4);
    return first != 0;
}

Text::Text(std::span<const std::byte> bytes, std::string file)
    : end_(reinterpret_cast<const char*>(bytes.data()) + bytes.size()),
      next_(reinterpret_cast<const char*>(bytes.data())), file_(std::move(file)) {}

bool Text::nextLine() {
    while (ok() && next_ < end_) {
        line_ = next_;
        const char* newline = static_cast<const char*>(std::memchr(line_, '\n', size_t(end_ - line_)));
        const char* lineEnd = newline ? newline : end_;
        next_ = newline ? newline + 1 : end_;
        ++lineNumber_;
        const char* comment = static_cast<const char*>(std::memchr(line_, '#', size_t(lineEnd - line_)));
        content_ = comment ? comment : lineEnd;
        cursor_ = line_;
        while (cursor_ < content_ && blank(*cursor_))
            ++cursor_;
        if (cursor_ < content_) return true;
    }
    cursor_ = content_; // errors at the end of the text point past its last line's content
    return false;
}

void Text::unreadLine() {
    if (line_ == nullptr) return;
    next_ = line_;
    --lineNumber_;
    cursor_ = content_ = line_;
}

std::string_view Text::peek() {
    if (!ok() || cursor_ == nullptr) return {};
    const char* p = cursor_;
    while (p < content_ && blank(*p))
        ++p;
    const char* q = p;
    while (q < content_ && !blank(*q))
        ++q;
    return std::string_view(p, size_t(q - p));
}

std::string_view Text::word() {
    std::string_view w = peek();
    if (!w.empty()) cursor_ = w.data() + w.size();
    return w;
}

TextAt Text::at() const {
    if (cursor_ == nullptr) return {lineNumber_, 1};
    const char* p = cursor_;
    while (p < content_ && blank(*p))
        ++p;
    return where(p);
}

// Numbers are the bulk of a file: each token is found once, and its place is worked out only
// when it fails.

float Text::number(std::string_view field) {
    std::string_view w = word();
    if (!ok()) return 0.0f;
    if (w.empty()) return failAt(where(w.data()), field, "expected a number at the end of the line"), 0.0f;
    // from_chars takes no leading '+', which some exporters write.
    std::string_view digits = w.size() > 1 && w[0] == '+' ? w.substr(1) : w;
    float value = 0.0f;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec == std::errc::result_out_of_range)
        return failAt(where(w.data()), field, "'" + quote(w) + "' is out of range"), 0.0f;
    if (ec != std::errc() || end != digits.data() + digits.size())
        return failAt(where(w.data()), field, "'" + quote(w) + "' is not a number"), 0.0f;
    if (!std::isfinite(value))
        return failAt(where(w.data()), field, "'" + quote(w) + "' is not finite"), 0.0f;
    return value;
}

uint32_t Text::integer(std::string_view field) {
    std::string_view w = word();
    if (!ok()) return 0;
    if (w.empty()) return failAt(where(w.data()), field, "expected an integer at the end of the line"), 0;
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (ec == std::errc::result_out_of_range)
        return failAt(where(w.data()), field, "'" + quote(w) + "' is out of range"), 0;
    if (ec != std::errc() || end != w.data() + w.size())
        return failAt(where(w.data()), field, "'" + quote(w) + "' is not a non-negative integer"), 0;
    return value;
}

uint32_t Text::bits(std::string_view field) {
    std::string_view w = word();
    if (!ok()) return 0;
    int64_t value = 0;
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (w.empty() || ec != std::errc() || end != w.data() + w.size() || value < INT32_MIN ||
        value > int64_t(UINT32_MAX))
        return failAt(where(w.data()), field, "'" + quote(w) + "' is not a 32-bit integer"), 0;
    return uint32_t(value);
}

uint32_t Text::count(std::string_view field) {
    TextAt place = at();
    uint32_t n = integer(field);
    if (ok() && uint64_t(n) > uint64_t(end_ - next_) / 2)
        return failAt(place, field,
                      "count " + std::to_string(n) + " cannot fit in the " + std::to_string(end_ - next_) +
                          " bytes left"),
               0;
    return n;
}

bool Text::failAt(TextAt place, std::string_view field, std::string_view reason) {
    if (error_.empty())
        error_ = file_ + ": line " + std::to_string(place.line) + ", column " + std::to_string(place.column) +
                 ": " + std::string(field) + ": " + std::string(reason);
    return false;
}

std::string Text::quote(std::string_view token) {
    std::string out;
    for (char c : token.substr(0, 40)) {
        auto u = static_cast<unsigned char>(c);
        if (u >= 32 && u < 127) {
            out += c;
        } else {
            char hexText[8];
            std::snprintf(hexText, sizeof hexText, "\\x%02X", u);
            out += hexText;
        }
    }
    if (token.size() > 40) out += "...";
    return out;
}

} // namespace horde::nwn
