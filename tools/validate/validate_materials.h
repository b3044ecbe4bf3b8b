#pragma once
// Per triangle, the material it belongs to in A and in B, the triangles found by their matched
// corners (validate_match.h). Materials are compared by the name the asset model gives them:
// equal names pass, and so does a renaming that maps names one to one; a permutation (two
// materials swapped) fails, naming the triangles that changed.
#include <map>
#include <string>
#include <vector>

#include "validate_compare.h"
#include "validate_match.h"

namespace horde {

struct MaterialMatch {
    Check check;
    // A's material name -> B's, for every material whose triangles pair one to one (equal names
    // included); empty when the check fails. The texture check and the renders go through it.
    std::map<std::string, std::string> toB;
};

MaterialMatch compareMaterials(const Model& a, const Model& b, const std::vector<MeshMatch>& matches);

// B's material names (its submeshes' and its Materials') replaced by A's through `toB`, so that
// what is drawn from a material's name (the palette colour of an untextured one) is the same on
// both sides: a rename is not a change of colour. A material A does not define (Material::defined)
// is left undefined in B too, and a base texture A names but could not find is named in B too
// where B has none: both draw the missing-texture checker, as the source does.
void nameMaterialsAsA(const Model& a, Model& b, const std::map<std::string, std::string>& toB);

} // namespace horde
