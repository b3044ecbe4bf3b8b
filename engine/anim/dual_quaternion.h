#pragma once
// Dual-quaternion skinning (Kavan, Collins, Žára and O'Sullivan, "Skinning with Dual
// Quaternions", I3D 2007), in double precision: the reference for pose.comp's DQS palette and
// skin.comp's DQS blend. A palette matrix may scale or shear (scaled joints, inverse binds with
// scale): as the paper proposes for such joints, its 3x3 part is split by the polar
// decomposition A = R S into a stretch S, applied first and blended linearly, and a rotation R
// that with the translation forms a unit dual quaternion, blended by DLB (the weighted sum with
// every quaternion on the first's side, divided by the length of its real part).
#include <span>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "model/model.h"

namespace horde {

// Whether any palette matrix of `model` may scale or shear: a node's rest scale or a scale key
// other than one, or an inverse bind that is not a rotation and translation (within 1e-4). When
// none may, every stretch is the identity and the GPU blend leaves them out.
bool jointsMayStretch(const Model& model);

struct DualQuaternionJoint {
    glm::dquat real{1.0, 0.0, 0.0, 0.0}; // the rotation, w >= 0
    glm::dquat dual{0.0, 0.0, 0.0, 0.0}; // 0.5 (0, t) real
    glm::dmat3 stretch{1.0};             // symmetric: scale and shear before the rotation
};

// One palette matrix split: A = R S with R a rotation (for a mirroring A, S takes the mirror and
// R stays a rotation). A matrix too close to singular for the decomposition (a joint scaled flat)
// gets R = I and the symmetric part of A as S: exact for a joint scaled to nothing (a part
// hidden), the rotation lost for one flattened along a turned axis.
DualQuaternionJoint dualQuaternionJoint(const glm::dmat4& palette);

// A vertex's blend of its influences' joints (`joints[k]` into `palette`, `weights[k]`).
struct DualQuaternionBlend {
    glm::dquat real, dual; // normalized by the real part's length
    glm::dmat3 stretch;
    glm::dvec3 position(glm::dvec3 p) const;
    glm::dvec3 normal(glm::dvec3 n) const; // unit length (zero for a zero normal)
};
DualQuaternionBlend blendDualQuaternions(std::span<const DualQuaternionJoint> palette,
                                         std::span<const uint32_t> joints, std::span<const double> weights);

} // namespace horde
