#include "crowd/impostor_coverage.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "shaders/gpu_types.h"

namespace horde {

namespace {
constexpr std::array<uint32_t, 16> kBayer{0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5};
} // namespace

uint32_t impostorSamples(float alpha, uint32_t samples, glm::uvec2 pixel) {
    const float dither = (float(kBayer[(pixel.y % 4) * 4 + pixel.x % 4]) + 0.5f) / 16.0f;
    return uint32_t(std::clamp(std::floor(alpha * float(samples) + dither), 0.0f, float(samples)));
}

uint32_t sampleRun(uint32_t covered, uint32_t samples, glm::uvec2 pixel) {
    const uint32_t all = (1u << samples) - 1u, run = (1u << covered) - 1u;
    const uint32_t first = (pixel.x + 2u * pixel.y) % samples;
    return ((run << first) | (run >> (samples - first))) & all;
}

uint32_t fadeMask(uint32_t step, uint32_t samples, glm::uvec2 pixel) {
    const double share = double(step) / HORDE_FADE_STEPS;
    const uint32_t dither = kBayer[(pixel.y % 4) * 4 + pixel.x % 4];
    uint32_t mask = 0;
    for (uint32_t i = 0; i < samples; ++i)
        if (double(dither * samples + i) + 0.5 < share * 16.0 * samples) mask |= 1u << i;
    return mask;
}

} // namespace horde
