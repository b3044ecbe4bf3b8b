#include "model/influences.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

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

EightInfluences strongestEight(std::span<const Influence> influences) {
    // Sources carry at most a few sets of four: sorting the indices is cheap and keeps ties in
    // input order.
    std::array<uint32_t, 32> order{};
    const uint32_t n = uint32_t(std::min(influences.size(), order.size()));
    std::iota(order.begin(), order.begin() + n, 0u);
    auto weight = [&](uint32_t i) {
        const float w = influences[i].weight;
        return w > 0.0f && std::isfinite(w) ? w : 0.0f;
    };
    std::stable_sort(order.begin(), order.begin() + n, [&](uint32_t a, uint32_t b) { return weight(a) > weight(b); });
    float four = 0.0f, eight = 0.0f, total = 0.0f;
    for (uint32_t i = 0; i < n; ++i) {
        total += weight(order[i]);
        if (i < 8) eight += weight(order[i]);
        if (i < 4) four += weight(order[i]);
    }
    EightInfluences out;
    if (!(four > 0.0f)) return out;
    for (uint32_t i = 0; i < std::min(n, 8u); ++i) {
        const Influence in = influences[order[i]];
        const float w = weight(order[i]);
        if (w == 0.0f) break;
        if (i < 4) {
            out.joints[i] = uint16_t(in.joint);
            out.weights[i] = w / four;
        } else {
            out.more.joints[i - 4] = uint16_t(in.joint);
            out.more.weights[i - 4] = w / eight;
        }
    }
    for (uint32_t i = 8; i < n; ++i)
        if (weight(order[i]) > 0.0f) {
            ++out.dropped;
            out.droppedMax = std::max(out.droppedMax, weight(order[i]) / total);
        }
    return out;
}

VertexInfluences influencesOf(const MeshArrays& a, size_t v, uint32_t limit) {
    VertexInfluences out;
    const bool eight = limit >= 8 && !a.more.empty();
    double rest = 1.0;
    if (eight)
        for (int k = 0; k < 4; ++k)
            rest -= double(a.more[v].weights[k]);
    for (int k = 0; k < 4; ++k) {
        out.joints[out.count] = a.joints[v][k];
        out.weights[out.count++] = double(a.weights[v][k]) * rest;
    }
    if (eight)
        for (int k = 0; k < 4; ++k) {
            out.joints[out.count] = a.more[v].joints[k];
            out.weights[out.count++] = double(a.more[v].weights[k]);
        }
    return out;
}

} // namespace horde
