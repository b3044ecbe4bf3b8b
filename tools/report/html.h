#pragma once
// Text placed in the HTML reports (validate's, the folder's, the profile's): names come from
// files, so they are escaped.
#include <string>
#include <string_view>

namespace horde {

inline std::string htmlEscape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

} // namespace horde
