#pragma once
// The interactive crowd: orbit camera, pause, step, instance count and technique from the keys,
// level tint (`l`) and a frozen culling camera to fly around (`f`), statistics in the title, and
// an overlay (`o` hides it) with each pass's GPU time as a rolling graph, what was drawn, and
// controls for the crowd size, LOD error, technique, skinning, textures and MSAA.
#include <string>

#include "crowd/crowd_settings.h"
#include "crowd_sources.h"
#include "model_options.h"

namespace horde {

struct WindowArgs {
    ModelInput input;                  // completes each of `models`
    std::vector<CrowdModelArg> models; // each with its own companions (crowd_sources.h)
    DeviceChoice device;
    CrowdSettings crowd;
    uint32_t frames = 0; // 0: until the window closes
    uint32_t width = 1280, height = 720;
};

int runCrowdWindow(const WindowArgs& args);

} // namespace horde
