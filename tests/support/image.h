#pragma once
// Reading a rendered frame: which pixels are not background, where they are, how many blobs.
#include <cstdint>

#include "render/headless.h"

namespace horde::test {

struct Coverage {
    size_t pixels = 0;
    uint32_t minX = UINT32_MAX, minY = UINT32_MAX, maxX = 0, maxY = 0;
};

// Background is the colour of the top-left pixel (the clear colour in every framed view).
bool isForeground(const Image8& image, uint32_t x, uint32_t y);
Coverage coverage(const Image8& image);
// Connected foreground regions of at least `minPixels` pixels.
size_t blobs(const Image8& image, size_t minPixels);
// Fraction of pixels whose colour differs by more than `tolerance` in any channel.
double differingFraction(const Image8& a, const Image8& b, int tolerance = 8);

} // namespace horde::test
