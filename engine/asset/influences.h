#pragma once
// Skinning influences beyond four are reduced to the four strongest, renormalized; the GPU
// passes and the CPU reference both read exactly four.
#include <cstdint>
#include <span>

#include <glm/glm.hpp>

namespace horde {

struct Influence {
    uint32_t joint = 0;
    float weight = 0.0f;
};

struct FourInfluences {
    glm::u16vec4 joints{0};
    glm::vec4 weights{0.0f};  // sum to 1, or all zero when no influence had weight
    uint32_t dropped = 0;     // influences with weight that did not make the four
    float droppedMax = 0.0f;  // largest normalized weight among them
};

// Negative or non-finite weights count as zero. Input order breaks ties (stable).
FourInfluences strongestFour(std::span<const Influence> influences);

} // namespace horde
