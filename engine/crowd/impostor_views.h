#pragma once
// What an impostor atlas's bake (render/impostor_atlas.cpp) sees of a model: the direction each
// layer views it along, the level each mesh is baked at, and how much of the source's covered
// area those levels keep in each view. Plain CPU data, so the bake and the tests share one rule.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "crowd/crowd_asset.h"

namespace horde {

// The layers of an atlas: one a view.
constexpr uint32_t kImpostorViews = HORDE_IMPOSTOR_AZIMUTHS * HORDE_IMPOSTOR_ELEVATIONS;

// Layer `view`'s direction from the model towards the eye, in world axes before an instance's
// heading: azimuth view % HORDE_IMPOSTOR_AZIMUTHS about +Y from +Z, elevation view /
// HORDE_IMPOSTOR_AZIMUTHS steps above the horizon (impostorFrame() in shaders/common.glsl).
glm::vec3 impostorViewBack(uint32_t view);

// The coarsest level of a mesh whose error stays within a texel of a tile: finer would not show.
uint32_t impostorBakeLevel(const CrowdAsset& asset, uint32_t mesh);

// Per view: the area the model's source triangles cover seen along it over the area its meshes
// at their bake levels cover (every mesh's triangles together, in `restPositions`, the rest pose
// the levels were simplified in; model/coverage.h), or 1 where either covers nothing. A level
// within a texel of every source point may still thin a limb to a ribbon: each impostor then
// covered that much less of its pixels than the monster, and a far crowd of them came out darker.
// The impostor draw scales the baked coverage by it.
std::vector<float> impostorCoverageScales(const CrowdAsset& asset,
                                          std::span<const std::vector<glm::vec3>> restPositions);

} // namespace horde
