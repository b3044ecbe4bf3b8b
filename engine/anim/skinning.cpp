#include "anim/skinning.h"

#include "shaders/gpu_types.h"

namespace horde {

std::string skinName(const SkinOptions& skin) {
    return std::string(nameOf(skin.skinning)) + "/" + std::string(nameOf(skin.precision)) + "/" +
           std::to_string(skin.influences);
}

uint32_t paletteEntryBytes(const SkinOptions& skin) {
    const bool half = skin.precision == Precision::Fp16;
    if (skin.skinning == Skinning::Dqs)
        return 4 * (half ? HORDE_PALETTE_WORDS_DQS_HALF : HORDE_PALETTE_WORDS_DQS);
    return 4 * (half ? HORDE_PALETTE_WORDS_LBS_HALF : HORDE_PALETTE_WORDS_LBS);
}

uint32_t poolVertexBytes(const SkinOptions& skin) {
    return skin.precision == Precision::Fp16 ? 4 * HORDE_POOL_WORDS_HALF : 2 * 3 * sizeof(float);
}

} // namespace horde
