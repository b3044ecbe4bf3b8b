#pragma once
// The profile as a page a person reads (index.html): the device, the winner at each crowd size,
// plots of GPU time per frame and per thousand skinned vertices against the crowd size, each
// pass's time per technique, and every figure in a table. Self-contained: inline CSS and SVG,
// no script, nothing fetched.
#include <string>

#include "profile.h"

namespace horde {

std::string profilePage(const Profile& profile);

} // namespace horde
