#pragma once
// Star Wars: The Old Republic GAWB (.gr2 version 4) geometry and skeleton files. A creature is a
// mesh file plus a skeleton file (type 2) given as LoadOptions::skeleton. SWTOR animation files
// are not read; a model plays clips of any format whose joint names match its bones.
#include "loader.h"

namespace horde {

const Format& swtorFormat();

} // namespace horde
