#include "render/supersample.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace horde {

namespace {

// The sRGB transfer functions (IEC 61966-2-1), both ways.
double linearOf(uint8_t encoded) {
    const double c = encoded / 255.0;
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

uint8_t encodedOf(double linear) {
    const double c = linear <= 0.0031308 ? linear * 12.92 : 1.055 * std::pow(linear, 1.0 / 2.4) - 0.055;
    return uint8_t(std::lround(std::clamp(c, 0.0, 1.0) * 255.0));
}

} // namespace

Image8 averageBlocks(const Image8& image, uint32_t factor) {
    Image8 out{image.width / factor, image.height / factor, {}};
    out.rgba.resize(size_t(out.width) * out.height * 4);
    std::array<double, 256> linear;
    for (size_t v = 0; v < linear.size(); ++v) linear[v] = linearOf(uint8_t(v));
    const double samples = double(factor) * factor;
    for (uint32_t y = 0; y < out.height; ++y)
        for (uint32_t x = 0; x < out.width; ++x) {
            std::array<double, 4> sum{};
            for (uint32_t by = 0; by < factor; ++by) {
                const uint8_t* row = &image.rgba[(size_t(y * factor + by) * image.width + size_t(x) * factor) * 4];
                for (uint32_t bx = 0; bx < factor; ++bx)
                    for (size_t c = 0; c < 4; ++c) sum[c] += c < 3 ? linear[row[bx * 4 + c]] : row[bx * 4 + c];
            }
            uint8_t* pixel = &out.rgba[(size_t(y) * out.width + x) * 4];
            for (size_t c = 0; c < 3; ++c) pixel[c] = encodedOf(sum[c] / samples);
            pixel[3] = uint8_t(std::lround(sum[3] / samples));
        }
    return out;
}

} // namespace horde
