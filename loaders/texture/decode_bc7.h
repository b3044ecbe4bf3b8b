#pragma once
// One BC7 block to sixteen RGBA8 texels, rows top-down (decode_bc7.cpp).
#include <array>
#include <cstddef>
#include <cstdint>

namespace horde {

void decodeBc7Block(const std::byte* block, std::array<uint8_t, 4> out[16]);

} // namespace horde
