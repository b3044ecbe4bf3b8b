#pragma once
// Escape from Monkey Island (2000) creatures: a .meshb mesh, a .sklb skeleton read through
// LoadOptions::skeleton, and .animb clips bound by bone name. Layout and decisions:
// docs/formats/emi.md.
#include "loader.h"

namespace horde {

const Format& emiFormat();

} // namespace horde
