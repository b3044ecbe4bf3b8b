#include "anim/skinning.h"

#include "shaders/gpu_types.h"

namespace horde {

std::string_view skinningName(Skinning skinning) {
    return skinning == Skinning::Dqs ? "dqs" : "lbs";
}

std::string_view precisionName(Precision precision) {
    return precision == Precision::Fp16 ? "fp16" : "fp32";
}

std::optional<Skinning> parseSkinning(std::string_view word) {
    if (word == "lbs") return Skinning::Lbs;
    if (word == "dqs") return Skinning::Dqs;
    return std::nullopt;
}

std::optional<Precision> parsePrecision(std::string_view word) {
    if (word == "fp32") return Precision::Fp32;
    if (word == "fp16") return Precision::Fp16;
    return std::nullopt;
}

std::string skinName(const SkinOptions& skin) {
    return std::string(skinningName(skin.skinning)) + "/" + std::string(precisionName(skin.precision)) + "/" +
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
