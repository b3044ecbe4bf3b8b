#pragma once
// Legend of Grimrock: MDL1 models (node tree, mesh entities, lights) and ANIM animation files,
// which bind to a model's nodes by name.
#include "loader.h"

namespace horde {

const Format& grimrockFormat();

} // namespace horde
