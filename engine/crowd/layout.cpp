#include "crowd/layout.h"

#include <algorithm>
#include <cmath>
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
    const uint32_t clips = uint32_t(asset.tables.clips.size());
    r.clip = clips > 0 ? h % clips : HORDE_NONE;
    const float duration = clips > 0 ? asset.tables.clips[r.clip].duration : 0.0f;
    r.phase = single ? 0.0f : unit(h + 1) * duration;
    r.speed = single ? 1.0f : 0.8f + 0.4f * unit(h + 2);
    r.loop = 1;
    const float shade = single ? 1.0f : 0.85f + 0.3f * unit(h + 4);
    r.tint = glm::vec4(shade, shade, shade, 1.0f);
    return r;
}

} // namespace

std::vector<std::vector<gpu::InstanceRecord>> crowdLayout(std::span<const CrowdAsset* const> assets,
                                                          uint32_t count, const LayoutOptions& options) {
    const bool single = count == 1;
    float spacingX = 1e-3f, spacingZ = 1e-3f, footprint = 1e-3f;
    for (const CrowdAsset* asset : assets) {
        const glm::vec3 size = asset->worldBindBounds.max - asset->worldBindBounds.min;
        spacingX = std::max(spacingX, size.x * 1.3f);
        spacingZ = std::max(spacingZ, size.z * 1.1f);
        footprint = std::max(footprint, asset->footprint);
    }
    // A scattered instance's cell holds its footprint with a little air around it.
    const float cell = footprint * 2.1f;
    if (options.kind == Layout::Scatter) spacingX = spacingZ = cell;
    // About as deep as wide, so the crowd fills a framed view.
    const uint32_t columns = std::clamp(uint32_t(std::ceil(std::sqrt(double(count) * spacingZ / spacingX))),
                                        1u, std::max(count, 1u));
    const uint32_t rows = (count + columns - 1) / columns;
    std::vector<std::vector<gpu::InstanceRecord>> out(assets.size());
    for (uint32_t i = 0; i < count; ++i) {
        const CrowdAsset& asset = *assets[i % assets.size()];
        const uint32_t h = hash(i * 4u + options.seed * 7919u);
        gpu::InstanceRecord r = animated(asset, h, single);
        float x = (float(i % columns) - float(columns - 1) * 0.5f) * spacingX;
        float z = (float(i / columns) - float(rows - 1) * 0.5f) * spacingZ;
        float yaw = single ? 0.0f : (unit(h + 3) - 0.5f) * 0.8f;
        if (options.kind == Layout::Scatter && !single) {
            const float slack = std::max(cell * 0.5f - asset.footprint, 0.0f);
            x += (unit(h + 5) * 2.0f - 1.0f) * slack;
            z += (unit(h + 6) * 2.0f - 1.0f) * slack;
            yaw = unit(h + 3) * 2.0f * std::numbers::pi_v<float>;
        }
        r.placement = glm::vec4(x, 0.0f, z, yaw);
        out[i % assets.size()].push_back(r);
    }
    return out;
}

std::vector<gpu::InstanceRecord> crowdLayout(const CrowdAsset& asset, uint32_t count,
                                             const LayoutOptions& options) {
    const CrowdAsset* one = &asset;
    return std::move(crowdLayout(std::span(&one, 1), count, options)[0]);
}

} // namespace horde
