#pragma once
// How vertices are skinned, beside where (the crowd's technique: a compute pass into a vertex
// pool, or the vertex shader): a linear blend of the palette's matrices or of dual quaternions
// (Kavan et al. 2007), palettes and pooled vertices in single or half precision, each vertex's
// four strongest influences or up to eight. The GPU passes take these as specialization
// constants (shaders/skinning.glsl); the CPU reference (anim/reference.h) mirrors each blend.
#include <cstdint>
#include <string>

#include "core/words.h"

namespace horde {

enum class Skinning : uint8_t { Lbs, Dqs };
template <> struct Words<Skinning> {
    static constexpr std::array<std::string_view, 2> list{"lbs", "dqs"};
};
enum class Precision : uint8_t { Fp32, Fp16 };
template <> struct Words<Precision> {
    static constexpr std::array<std::string_view, 2> list{"fp32", "fp16"};
};

struct SkinOptions {
    Skinning skinning = Skinning::Lbs;
    Precision precision = Precision::Fp32;
    uint32_t influences = 4; // 4, or 8 where a mesh keeps more (model/mesh_storage.h)
    bool operator==(const SkinOptions&) const = default;
};

// "dqs/fp16/8": one name for a combination (benchmark rows, the profile report).
std::string skinName(const SkinOptions& skin);

// Bytes of one palette entry (per pose and joint) and of one skinned vertex in the pool.
uint32_t paletteEntryBytes(const SkinOptions& skin);
uint32_t poolVertexBytes(const SkinOptions& skin);

} // namespace horde
