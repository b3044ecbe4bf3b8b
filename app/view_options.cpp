#include "view_options.h"

#include <cstdio>
#include <numbers>

namespace horde {

void ViewOptions::addOptions(CLI::App& command) {
    command
        .add_option("--msaa", msaa, "samples per pixel, averaged before the picture is written (default 4)")
        ->check(CLI::IsMember({1, 2, 4, 8}));
    command.add_option("--yaw", yaw, "camera heading around the framed centre, degrees (0 looks along -Z)");
    command.add_option("--pitch", pitch, "camera height around the framed centre, degrees above the horizon")
        ->check(CLI::Range(-89.0f, 89.0f));
    command.add_option("--distance", distance, "camera distance from the framed centre, world units")
        ->check(CLI::PositiveNumber);
}

OrbitCamera ViewOptions::around(OrbitCamera framed) const {
    constexpr float radians = std::numbers::pi_v<float> / 180.0f;
    if (!std::isnan(yaw)) framed.yaw = yaw * radians;
    if (!std::isnan(pitch)) framed.pitch = pitch * radians;
    if (!std::isnan(distance)) {
        framed.distance = distance;
        framed.nearPlane = 0.0f; // fitted again to the new distance
    }
    return framed;
}

VkSampleCountFlagBits ViewOptions::samples(const Device& device) const {
    const VkSampleCountFlagBits taken = device.supportedSamples(msaa);
    if (uint32_t(taken) != msaa)
        std::printf("msaa: the device cannot draw %u samples a pixel; using %u\n", msaa, uint32_t(taken));
    return taken;
}

} // namespace horde
