#include "support/bytes.h"

namespace horde::test {

std::vector<std::vector<std::byte>> truncations(std::span<const std::byte> bytes, size_t maxCuts) {
    std::vector<std::vector<std::byte>> out;
    size_t step = bytes.size() > maxCuts ? bytes.size() / maxCuts : 1;
    for (size_t n = 0; n < bytes.size(); n += step) out.emplace_back(bytes.begin(), bytes.begin() + n);
    return out;
}

} // namespace horde::test
