#include "support/image.h"

#include <cstdlib>
#include <vector>

namespace horde::test {

namespace {
const uint8_t* pixel(const Image8& image, uint32_t x, uint32_t y) { return &image.rgba[(size_t(y) * image.width + x) * 4]; }
}

bool isForeground(const Image8& image, uint32_t x, uint32_t y) {
    const uint8_t* bg = pixel(image, 0, 0);
    const uint8_t* p = pixel(image, x, y);
    for (int c = 0; c < 3; ++c)
        if (std::abs(int(p[c]) - int(bg[c])) > 8) return true;
    return false;
}

Coverage coverage(const Image8& image) {
    Coverage c;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x)
            if (isForeground(image, x, y)) {
                ++c.pixels;
                c.minX = std::min(c.minX, x);
                c.minY = std::min(c.minY, y);
                c.maxX = std::max(c.maxX, x);
                c.maxY = std::max(c.maxY, y);
            }
    return c;
}

size_t blobs(const Image8& image, size_t minPixels) {
    std::vector<uint8_t> seen(size_t(image.width) * image.height, 0);
    std::vector<std::pair<uint32_t, uint32_t>> stack;
    size_t count = 0;
    for (uint32_t y = 0; y < image.height; ++y)
        for (uint32_t x = 0; x < image.width; ++x) {
            if (seen[size_t(y) * image.width + x] || !isForeground(image, x, y)) continue;
            size_t size = 0;
            stack.push_back({x, y});
            seen[size_t(y) * image.width + x] = 1;
            while (!stack.empty()) {
                auto [px, py] = stack.back();
                stack.pop_back();
                ++size;
                const int dx[] = {1, -1, 0, 0}, dy[] = {0, 0, 1, -1};
                for (int k = 0; k < 4; ++k) {
                    int nx = int(px) + dx[k], ny = int(py) + dy[k];
                    if (nx < 0 || ny < 0 || nx >= int(image.width) || ny >= int(image.height)) continue;
                    size_t i = size_t(ny) * image.width + size_t(nx);
                    if (seen[i] || !isForeground(image, uint32_t(nx), uint32_t(ny))) continue;
                    seen[i] = 1;
                    stack.push_back({uint32_t(nx), uint32_t(ny)});
                }
            }
            count += size >= minPixels;
        }
    return count;
}

double differingFraction(const Image8& a, const Image8& b, int tolerance) {
    if (a.rgba.size() != b.rgba.size() || a.rgba.empty()) return 1.0;
    size_t differ = 0;
    for (size_t i = 0; i < a.rgba.size(); i += 4)
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(a.rgba[i + c]) - int(b.rgba[i + c])) > tolerance) {
                ++differ;
                break;
            }
    return double(differ) / double(a.rgba.size() / 4);
}

} // namespace horde::test
