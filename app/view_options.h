#pragma once
// How the commands that draw take their pictures: samples per pixel (--msaa), and the camera
// turned and moved around the centre the command framed (--yaw, --pitch, --distance).
#include <cmath>
#include <cstdint>

#include <CLI/CLI.hpp>

#include "crowd/view.h"
#include "vk/device.h"

namespace horde {

struct ViewOptions {
    uint32_t msaa = 4;
    float yaw = NAN, pitch = NAN; // degrees; NaN: as framed
    float distance = NAN;         // world units from the framed centre; NaN: as framed

    void addOptions(CLI::App& command);
    // The framed camera with what was given in its place.
    OrbitCamera around(OrbitCamera framed) const;
    // --msaa as the device can draw it: the most samples it takes up to that, with a note when fewer.
    VkSampleCountFlagBits samples(const Device& device) const;
};

} // namespace horde
