#pragma once
// A reference picture: a frame drawn at K times the width and height, each K x K block of pixels
// averaged into one. With 4x MSAA and K = 4, 64 samples a pixel: the image a crowd converges to,
// against which a fast path's picture (and brute force's own) is measured.
#include <cstdint>

#include "render/headless.h"

namespace horde {

// `image` (sRGB-encoded RGBA8, as kOffscreenColorFormat reads back) with each `factor` x `factor`
// block averaged in linear light (decoded, averaged, encoded again, as a multisample resolve of an
// sRGB image averages its samples); alpha averaged as it is.
// The width and height must be multiples of `factor`.
Image8 averageBlocks(const Image8& image, uint32_t factor);

} // namespace horde
