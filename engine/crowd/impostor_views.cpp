#include "crowd/impostor_views.h"

#include <cmath>

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>

#include "model/coverage.h"

namespace horde {

namespace {

// A level's triangles as indices into the positions of every mesh laid end to end.
void appendLevel(std::vector<uint32_t>& out, const LodChain& chain, uint32_t level, uint32_t firstVertex) {
    for (const Submesh& s : chain.levels[level].submeshes)
        for (uint32_t i = s.firstIndex; i < s.firstIndex + s.indexCount; ++i)
            out.push_back(firstVertex + chain.order[chain.indices[i]]);
}

} // namespace

glm::vec3 impostorViewBack(uint32_t view) {
    const float a = float(view % HORDE_IMPOSTOR_AZIMUTHS) * 2.0f * float(M_PI) / HORDE_IMPOSTOR_AZIMUTHS;
    const float e = float(view / HORDE_IMPOSTOR_AZIMUTHS) * HORDE_IMPOSTOR_ELEVATION_STEP;
    return {std::sin(a) * std::cos(e), std::sin(e), std::cos(a) * std::cos(e)};
}

uint32_t impostorBakeLevel(const CrowdAsset& asset, uint32_t mesh) {
    const float texel = 2.0f * asset.worldSphere.w / float(HORDE_IMPOSTOR_TILE);
    const gpu::CullMesh& m = asset.cullMeshes[mesh];
    uint32_t level = 0;
    while (level + 1 < m.levelCount && asset.cullLevels[m.firstLevel + level + 1].error <= texel)
        ++level;
    return level;
}

std::vector<float> impostorCoverageScales(const CrowdAsset& asset,
                                          std::span<const std::vector<glm::vec3>> restPositions) {
    std::vector<float> scales(kImpostorViews, 1.0f);
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> source, baked;
    bool coarser = false;
    for (uint32_t m = 0; m < asset.lods.size() && m < restPositions.size(); ++m) {
        const LodChain& chain = asset.lods[m];
        if (chain.levels.empty()) continue;
        const uint32_t first = uint32_t(positions.size()), level = impostorBakeLevel(asset, m);
        positions.insert(positions.end(), restPositions[m].begin(), restPositions[m].end());
        appendLevel(source, chain, 0, first);
        appendLevel(baked, chain, level, first);
        coarser = coarser || level > 0;
    }
    if (!coarser) return scales;
    // The views in the model's axes: the axes and the crowd's scale turn, mirror and scale alike,
    // so areas keep their ratios.
    const glm::mat3 toModel = glm::inverse(glm::mat3(asset.axesToWorld));
    std::vector<glm::vec3> along;
    for (uint32_t view = 0; view < kImpostorViews; ++view)
        along.push_back(glm::normalize(toModel * impostorViewBack(view)));
    const SourceCoverage coverage(positions, source, along);
    for (uint32_t view = 0; view < kImpostorViews; ++view) {
        const double kept = coverage.area(view, baked), whole = coverage.sourceArea(view);
        if (kept > 0.0 && whole > 0.0 && std::isfinite(whole / kept)) scales[view] = float(whole / kept);
    }
    return scales;
}

} // namespace horde
