#pragma once
// Splits an affine transform read from a file into the rest TRS the asset model holds. TRS
// cannot hold everything a matrix can; the flags say what was lost so a loader can warn.
#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace horde {

struct SplitTransform {
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 scale{1.0f};
    bool sheared = false;    // basis columns not orthogonal: the nearest rotation is kept
    bool degenerate = false; // a column scaled to zero: its direction is rebuilt from the others
    bool projective = false; // the bottom row is not (0, 0, 0, 1): it is dropped
};

// A mirrored basis keeps a proper rotation by negating the X scale.
SplitTransform splitTransform(const glm::mat4& m);

} // namespace horde
