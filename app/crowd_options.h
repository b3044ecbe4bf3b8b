#pragma once
// A crowd's settings on the command line (crowd/crowd_settings.h): one option per setting a user
// sets, its range and words taken from where the setting is defined.
#include <CLI/CLI.hpp>

#include "crowd/crowd_settings.h"
#include "vk/device.h"

namespace horde {

// --skinning, --precision, --influences: every command that skins.
void addSkinOptions(CLI::App& command, SkinOptions& skin);
// --msaa, --yaw, --pitch, --distance: every command that draws a picture.
void addPictureOptions(CLI::App& command, PictureSettings& picture);
// Every crowd setting but the count (crowd takes --count, profile --counts); `skinning` off: no
// --technique and skinning options either (a command that sweeps them).
void addCrowdOptions(CLI::App& command, CrowdSettings& settings, bool skinning = true);

// `msaa` as the device can draw it: the most samples it takes up to that, with a note when fewer.
VkSampleCountFlagBits samplesOn(const Device& device, uint32_t msaa);

} // namespace horde
