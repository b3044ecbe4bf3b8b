#include "crowd/layout.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numbers>

namespace horde {

namespace {

// Small integer hash: deterministic variety without a random engine.
uint32_t hash(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
float unit(uint32_t x) {
    return float(hash(x) & 0xFFFFFF) / float(0x1000000);
}

// Clip, phase, speed and shade: what makes a crowd look alive, from the instance's hash.
gpu::InstanceRecord animated(const CrowdAsset& asset, uint32_t h, bool single) {
    gpu::InstanceRecord r{};
    std::vector<uint32_t> played;
    for (uint32_t c = 0; c < asset.playedClips.size(); ++c)
        if (asset.playedClips[c]) played.push_back(c);
    r.clip = played.empty() ? HORDE_NONE : played[h % played.size()];
    const float duration = r.clip != HORDE_NONE ? asset.tables.clips[r.clip].duration : 0.0f;
    r.phase = single ? 0.0f : unit(h + 1) * duration;
    r.speed = single ? 1.0f : kSlowestPlayback + kPlaybackSpan * unit(h + 2);
    r.loop = 1;
    const float shade = single ? 1.0f : 0.85f + 0.3f * unit(h + 4);
    r.tint = glm::vec4(shade, shade, shade, 1.0f);
    r.fromClip = HORDE_NONE;
    r.state = HORDE_NONE;
    return r;
}

// Rows spaced by the widest and deepest bind pose, about as deep as wide so the crowd fills a
// framed view.
std::vector<std::vector<gpu::InstanceRecord>> gridLayout(std::span<const CrowdAsset* const> assets,
                                                         uint32_t count, uint32_t seed) {
    const bool single = count == 1;
    float spacingX = 1e-3f, spacingZ = 1e-3f;
    for (const CrowdAsset* asset : assets) {
        const glm::vec3 size = asset->worldBindBounds.max - asset->worldBindBounds.min;
        spacingX = std::max(spacingX, size.x * 1.3f);
        spacingZ = std::max(spacingZ, size.z * 1.1f);
    }
    const uint32_t columns = std::clamp(uint32_t(std::ceil(std::sqrt(double(count) * spacingZ / spacingX))),
                                        1u, std::max(count, 1u));
    const uint32_t rows = (count + columns - 1) / columns;
    std::vector<std::vector<gpu::InstanceRecord>> out(assets.size());
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t h = hash(i * 4u + seed * 7919u);
        gpu::InstanceRecord r = animated(*assets[i % assets.size()], h, single);
        const float x = (float(i % columns) - float(columns - 1) * 0.5f) * spacingX;
        const float z = (float(i / columns) - float(rows - 1) * 0.5f) * spacingZ;
        r.placement = glm::vec4(x, 0.0f, z, single ? 0.0f : (unit(h + 3) - 0.5f) * 0.8f);
        out[i % assets.size()].push_back(r);
    }
    return out;
}

// Where the blocks of a scatter go: square blocks of whole cells, each at the lowest stretch of a
// skyline (bottom-left packing) in the order given, so small models fill the gaps beside large
// ones; the first blocks stand at the front (+z). Returns each block's corner in cells.
std::vector<glm::uvec2> packBlocks(std::span<const uint32_t> sides, uint32_t width) {
    std::vector<uint32_t> skyline(width, 0);
    std::vector<glm::uvec2> corners;
    corners.reserve(sides.size());
    for (uint32_t side : sides) {
        // The lowest top of every stretch [x + 1 - side, x], from a sliding window's maximum: the
        // deque holds the stretch's columns whose tops no later column of it reaches.
        uint32_t bestX = 0, bestZ = UINT32_MAX;
        std::deque<uint32_t> window;
        for (uint32_t x = 0; x < width; ++x) {
            while (!window.empty() && skyline[window.back()] <= skyline[x])
                window.pop_back();
            window.push_back(x);
            if (window.front() + side <= x) window.pop_front();
            if (x + 1 >= side && skyline[window.front()] < bestZ) {
                bestZ = skyline[window.front()];
                bestX = x + 1 - side;
            }
        }
        for (uint32_t x = bestX; x < bestX + side; ++x)
            skyline[x] = bestZ + side;
        corners.push_back({bestX, bestZ});
    }
    return corners;
}

// Instances at random points of their own square blocks (a block holds the instance's footprint
// with air around it, as many cells of the smallest footprint as that takes), at random headings:
// no two footprints overlap. Blocks are packed from the front in instance order, models
// interleaved, so every model stands in the front rows and small ones fill between large ones.
std::vector<std::vector<gpu::InstanceRecord>> scatterLayout(std::span<const CrowdAsset* const> assets,
                                                            uint32_t count, uint32_t seed) {
    const size_t models = assets.size();
    constexpr float kAir = 2.2f; // a block's width over the radius of the footprint it holds
    float smallest = INFINITY;
    for (const CrowdAsset* asset : assets)
        smallest = std::min(smallest, std::max(asset->footprint, 1e-3f));
    const float cell = smallest * kAir;
    std::vector<uint32_t> side(models);
    uint64_t area = 0;
    uint32_t widest = 1;
    for (size_t m = 0; m < models; ++m) {
        side[m] =
            std::max(1u, uint32_t(std::ceil(std::max(assets[m]->footprint, 1e-3f) * kAir / cell - 1e-4f)));
        const uint64_t instances = count / models + (m < count % models ? 1u : 0u);
        area += instances * side[m] * side[m];
        widest = std::max(widest, side[m]);
    }
    // About as deep as wide, so the crowd fills a framed view.
    const uint32_t width = std::max(widest, uint32_t(std::ceil(std::sqrt(double(area)))));
    std::vector<uint32_t> sides(count);
    for (uint32_t i = 0; i < count; ++i)
        sides[i] = side[i % models];
    std::vector<glm::uvec2> corners;
    if (widest == 1) { // every block one cell: rows, no search
        for (uint32_t i = 0; i < count; ++i)
            corners.push_back({i % width, i / width});
    } else {
        corners = packBlocks(sides, width);
    }
    uint32_t depth = 0;
    for (uint32_t i = 0; i < count; ++i)
        depth = std::max(depth, corners[i].y + sides[i]);

    const bool single = count == 1;
    std::vector<std::vector<gpu::InstanceRecord>> out(models);
    for (uint32_t i = 0; i < count; ++i) {
        const size_t m = i % models;
        const CrowdAsset& asset = *assets[m];
        const uint32_t h = hash(i * 4u + seed * 7919u);
        gpu::InstanceRecord r = animated(asset, h, single);
        const float block = float(side[m]) * cell;
        const float slack = single ? 0.0f : std::max(block * 0.5f - asset.footprint, 0.0f);
        const float x = (float(corners[i].x) - float(width) * 0.5f) * cell + block * 0.5f +
                        (unit(h + 5) * 2.0f - 1.0f) * slack;
        const float z = (float(depth) * 0.5f - float(corners[i].y)) * cell - block * 0.5f +
                        (unit(h + 6) * 2.0f - 1.0f) * slack;
        r.placement = glm::vec4(single ? 0.0f : x, 0.0f, single ? 0.0f : z,
                                single ? 0.0f : unit(h + 3) * 2.0f * std::numbers::pi_v<float>);
        out[m].push_back(r);
    }
    return out;
}

} // namespace

std::vector<std::vector<gpu::InstanceRecord>> crowdLayout(std::span<const CrowdAsset* const> assets,
                                                          uint32_t count, const LayoutOptions& options) {
    if (assets.empty()) return {};
    return options.kind == Layout::Scatter ? scatterLayout(assets, count, options.seed)
                                           : gridLayout(assets, count, options.seed);
}

std::vector<gpu::InstanceRecord> crowdLayout(const CrowdAsset& asset, uint32_t count,
                                             const LayoutOptions& options) {
    const CrowdAsset* one = &asset;
    return std::move(crowdLayout(std::span(&one, 1), count, options)[0]);
}

} // namespace horde
