#include "crowd/impostor_coverage.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace horde {

uint32_t impostorSamples(float alpha, uint32_t samples, glm::uvec2 pixel) {
    static constexpr std::array<uint32_t, 16> kBayer{0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5};
    const float dither = (float(kBayer[(pixel.y % 4) * 4 + pixel.x % 4]) + 0.5f) / 16.0f;
    return uint32_t(std::clamp(std::floor(alpha * float(samples) + dither), 0.0f, float(samples)));
}

uint32_t sampleRun(uint32_t covered, uint32_t samples, glm::uvec2 pixel) {
    const uint32_t all = (1u << samples) - 1u, run = (1u << covered) - 1u;
    const uint32_t first = (pixel.x + 2u * pixel.y) % samples;
    return ((run << first) | (run >> (samples - first))) & all;
}

} // namespace horde
