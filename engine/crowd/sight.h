#pragma once
// What a camera sees of a crowd, worked out on the CPU from the instance records: whether the
// monsters a user asked for are big enough to read (`horde crowd --stats`, "nearest_height_px").
#include <cstdint>
#include <span>

#include "crowd/crowd_asset.h"
#include "crowd/view.h"
#include "shaders/gpu_types.h"

namespace horde {

// The projected bind-pose height, in pixels, of the instance nearest the eye among those whose
// every-pose sphere is inside the view's frustum; 0 when none is.
float nearestHeightPixels(const CrowdAsset& asset, std::span<const gpu::InstanceRecord> instances,
                          const ViewCamera& view, uint32_t viewportHeight);

} // namespace horde
