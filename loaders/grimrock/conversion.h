#pragma once
// Moves a model from its own axes into Grimrock's (Y up, left-handed, clockwise front faces)
// for writing, so that horde shows the written file exactly as it showed the source: for a
// right-handed model this mirrors Z, which also turns counter-clockwise fronts clockwise.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/reference.h"
#include "asset/model.h"

namespace horde::grimrock {

struct Conversion {
    glm::dmat3 axes{1.0};     // a signed permutation: source axes -> file axes
    bool flipWinding = false; // when the source's front faces would come out reversed

    glm::vec3 point(glm::vec3 p) const { return glm::vec3(axes * glm::dvec3(p)); }
    // A transform conjugated into file axes: what maps file-space points as the source mapped its own.
    glm::dmat4 transform(const glm::dmat4& m) const;
    TrsD trs(const TrsD& source) const;
};

Conversion toFileAxes(const Axes& source);
// The other way: from Grimrock's axes into `target`'s, for animation keys bound to a model that
// came from another format.
Conversion fromFileAxes(const Axes& target);

} // namespace horde::grimrock
