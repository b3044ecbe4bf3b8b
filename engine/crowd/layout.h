#pragma once
// Where a crowd's instances stand, with varied clips, phases, speeds and shades, shared by every
// model of a mixed crowd and sized by the models as the crowd draws them (their scaled bind
// poses and footprints, crowd/crowd_asset.h), so models from files of any units stand apart.
#include <cstdint>
#include <span>
#include <vector>

#include "core/words.h"
#include "crowd/crowd_asset.h"
#include "shaders/gpu_types.h"

namespace horde {

enum class Layout : uint8_t {
    // Rows spaced by the widest and deepest bind pose, headings within +-0.4 rad of forward: the
    // benchmarks' crowd, the same every run.
    Grid,
    // One cell per instance, as wide as the largest footprint: each instance at a random point of
    // its cell that keeps its footprint inside, at a random heading. No two instances overlap.
    Scatter,
};
template <> struct Words<Layout> {
    static constexpr std::array<std::string_view, 2> list{"grid", "scatter"};
};

struct LayoutOptions {
    Layout kind = Layout::Grid;
    uint32_t seed = 1; // the same seed, the same crowd
    bool operator==(const LayoutOptions&) const = default;
};

// Instance i is model i % assets.size(); one list per model. A crowd of one instance stands at
// the origin facing forward, at the start of its first clip.
std::vector<std::vector<gpu::InstanceRecord>> crowdLayout(std::span<const CrowdAsset* const> assets,
                                                          uint32_t count, const LayoutOptions& options = {});
std::vector<gpu::InstanceRecord> crowdLayout(const CrowdAsset& asset, uint32_t count,
                                             const LayoutOptions& options = {});

} // namespace horde
