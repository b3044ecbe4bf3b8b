#pragma once
// Neverwinter Nights binary MDL (compiled model: geometry, skins and animations in one file,
// animations inherited through a chain of supermodels).
#include "loader.h"

namespace horde {

const Format& nwnFormat();

} // namespace horde
