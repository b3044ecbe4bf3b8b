#include "model/influences.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace horde {

FourInfluences strongestFour(std::span<const Influence> influences) {
    std::array<Influence, 4> best{};
    size_t kept = 0;
    float total = 0.0f, droppedMax = 0.0f;
    uint32_t dropped = 0;
    for (Influence in : influences) {
        if (!(in.weight > 0.0f) || !std::isfinite(in.weight)) continue;
        total += in.weight;
        if (kept < best.size()) {
            best[kept++] = in;
        } else {
            auto weakest = std::min_element(best.begin(), best.end(),
                                            [](auto a, auto b) { return a.weight < b.weight; });
            Influence loser = in;
            if (in.weight > weakest->weight) std::swap(loser, *weakest);
            ++dropped;
            droppedMax = std::max(droppedMax, loser.weight);
        }
    }
    // Strongest first, so a reader sees the dominant joint in slot 0.
    std::stable_sort(best.begin(), best.begin() + kept, [](auto a, auto b) { return a.weight > b.weight; });
    FourInfluences out;
    float keptSum = 0.0f;
    for (size_t i = 0; i < kept; ++i) keptSum += best[i].weight;
    for (int i = 0; i < int(kept); ++i) {
        out.joints[i] = static_cast<uint16_t>(best[i].joint);
        out.weights[i] = best[i].weight / keptSum;
    }
    out.dropped = dropped;
    out.droppedMax = total > 0.0f ? droppedMax / total : 0.0f;
    return out;
}

} // namespace horde
