#pragma once
// Which clip of B is which clip of A: by name, then, for clips whose names match nothing on
// either side, by their order in the files (a format that keeps no clip names, an older horde
// that wrote `animation0`), said in the check so the user sees the guess.
#include <string>
#include <vector>

#include "validate_compare.h"

namespace horde {

struct ClipMatch {
    std::vector<std::pair<int, int>> pairs; // (clip of A, clip of B), in A's order
    Check check;
};

// `only` (may be empty): compare just A's clip of that name, which the caller has checked exists.
// A clip of A that keys nothing and is not in B is a mapping, not a failure: it poses as the bind
// pose, and some formats cannot hold it.
ClipMatch matchClips(const Model& a, const Model& b, const std::string& only, const std::string& bName);

} // namespace horde
