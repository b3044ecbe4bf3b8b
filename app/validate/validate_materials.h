#pragma once
// Per triangle, the material it belongs to in A and in B, the triangles found by their matched
// corners (validate_match.h). Materials are compared by the name the asset model gives them:
// equal names pass, and so does a renaming that maps names one to one; a permutation (two
// materials swapped) fails, naming the triangles that changed.
#include <vector>

#include "validate_compare.h"
#include "validate_match.h"

namespace horde {

Check compareMaterials(const Model& a, const Model& b, const std::vector<MeshMatch>& matches);

} // namespace horde
