#pragma once
// The camera a crowd is first seen from: its settings' view framed on the scene, then turned and
// moved as its picture settings say.
#include <cstdint>

#include "crowd/view.h"
#include "render/crowd_scene.h"

namespace horde {

// The front view's monsters stand this tall in the front row (the goal is 120 at 1280 x 720).
constexpr float kFrontRowPixels = 150.0f;

OrbitCamera crowdCamera(const CrowdScene& scene, float aspect, uint32_t viewportHeight);

} // namespace horde
