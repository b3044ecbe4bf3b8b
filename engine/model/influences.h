#pragma once
// Skinning influences: every mesh keeps its four strongest, renormalized, in `joints` and
// `weights` (what the writers and four-influence skinning read); a source with more (glTF
// JOINTS_1/WEIGHTS_1) also keeps influences five to eight in `more`, as shares of all eight.
#include <array>
#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "model/mesh_storage.h"

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

// The eight strongest: the first four as strongestFour gives them (weights summing to one, up to
// a tie at the fourth place, which goes to the earlier influence here), the next four in `more`
// with weights that are shares of the eight's total.
struct EightInfluences {
    glm::u16vec4 joints{0};
    glm::vec4 weights{0.0f};
    MoreInfluences more;
    uint32_t dropped = 0;    // influences with weight past the eighth
    float droppedMax = 0.0f; // largest normalized weight among them
};
EightInfluences strongestEight(std::span<const Influence> influences);

// One vertex's influences as skinning blends them, in double precision (the CPU reference):
// its four strongest, or, with `limit` 8 and a mesh that keeps more, all eight, the four scaled
// by one minus the share of the other four (what the GPU passes do in float).
struct VertexInfluences {
    std::array<uint32_t, 8> joints{};
    std::array<double, 8> weights{};
    uint32_t count = 0;
};
VertexInfluences influencesOf(const MeshArrays& arrays, size_t vertex, uint32_t limit);

// One vertex's four influence slots, as vertex arrays store them, reduced in place to what
// strongestFour keeps, bit for bit. Files written by skinning tools almost always hold the
// slots strongest first already; then only the renormalization is left, and the selection and
// sort are skipped. Loaders decode the raw slots into the streams first and reduce them in a
// pass of their own, so the slots are read back long after they were written.
inline void keepStrongestFour(glm::u16vec4& joints, glm::vec4& weights) {
    const glm::vec4 w = weights;
    const float sum = w.x + w.y + w.z + w.w;
    // Strongest first, finite and not negative; a NaN fails every comparison.
    const bool sorted = (w.x >= w.y) & (w.y >= w.z) & (w.z >= w.w) & (w.w >= 0.0f) & (w.x <= 3.4e38f);
    if (sorted && sum > 0.0f) {
        joints *= glm::u16vec4(glm::greaterThan(w, glm::vec4(0.0f)));
        weights = w / sum + 0.0f; // adding +0 turns a -0 slot into the +0 strongestFour leaves there
        return;
    }
    Influence all[4];
    for (int k = 0; k < 4; ++k) all[k] = Influence{joints[k], w[k]};
    FourInfluences four = strongestFour(std::span<const Influence>(all, 4));
    joints = four.joints;
    weights = four.weights;
}

} // namespace horde
