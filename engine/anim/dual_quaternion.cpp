#include "anim/dual_quaternion.h"

#include <cmath>

namespace horde {

namespace {

// Below this determinant, relative to the matrix's size cubed, the polar decomposition is not
// attempted. pose.comp uses the same threshold.
constexpr double kSingular = 1e-9;

double frobenius(const glm::dmat3& m) {
    double sum = 0.0;
    for (int c = 0; c < 3; ++c)
        sum += glm::dot(m[c], m[c]);
    return std::sqrt(sum);
}

// The orthogonal factor of A = U P by Higham's scaled Newton iteration,
// X <- (g X + X^-T / g) / 2 with g = sqrt(|X^-1| / |X|), run to convergence.
glm::dmat3 orthogonalFactor(const glm::dmat3& a) {
    glm::dmat3 x = a;
    for (int i = 0; i < 64; ++i) {
        const glm::dmat3 inverse = glm::inverse(x);
        const double g = std::sqrt(frobenius(inverse) / frobenius(x));
        const glm::dmat3 next = 0.5 * (g * x + glm::transpose(inverse) / g);
        const double change = frobenius(next - x);
        x = next;
        if (change <= 1e-15 * frobenius(x)) break;
    }
    return x;
}

glm::dvec3 rotate(const glm::dquat& q, glm::dvec3 v) {
    const glm::dvec3 u(q.x, q.y, q.z);
    return v + 2.0 * glm::cross(u, glm::cross(u, v) + q.w * v);
}

bool differs(glm::vec3 a, glm::vec3 b) {
    return glm::any(glm::greaterThan(glm::abs(a - b), glm::vec3(1e-4f)));
}

// A scale channel whose every value is one (for a cubic spline, whose tangents are all zero).
bool scalesByOne(const Channel& c) {
    const bool cubic = c.interpolation == Interpolation::CubicSpline;
    for (size_t i = 0; i < c.values.size(); ++i) {
        const bool tangent = cubic && i % 3 != 1;
        if (differs(glm::vec3(c.values[i]), glm::vec3(tangent ? 0.0f : 1.0f))) return false;
    }
    return true;
}

} // namespace

bool jointsMayStretch(const Model& model) {
    for (const Node& node : model.nodes)
        if (differs(node.scale, glm::vec3(1.0f))) return true;
    for (const Clip& clip : model.clips)
        for (const Channel& c : clip.channels)
            if (c.path == ChannelPath::Scale && !scalesByOne(c)) return true;
    for (const Skin& skin : model.skins)
        for (const glm::mat4& m : skin.inverseBind) {
            const glm::mat3 a(m), gram = glm::transpose(a) * a;
            for (int c = 0; c < 3; ++c)
                if (differs(gram[c], glm::vec3(c == 0, c == 1, c == 2))) return true;
            if (glm::determinant(a) < 0.0f) return true;
        }
    return false;
}

DualQuaternionJoint dualQuaternionJoint(const glm::dmat4& palette) {
    const glm::dmat3 a(palette);
    const glm::dvec3 t(palette[3]);
    const double size = frobenius(a) / std::sqrt(3.0);
    const double det = glm::determinant(a);
    DualQuaternionJoint j;
    if (std::abs(det) <= kSingular * size * size * size) {
        j.stretch = 0.5 * (a + glm::transpose(a));
    } else {
        // A mirroring A has an orthogonal factor with determinant -1: its negation is the
        // rotation, and the stretch takes the sign.
        const glm::dmat3 r = det < 0.0 ? -orthogonalFactor(a) : orthogonalFactor(a);
        const glm::dmat3 s = glm::transpose(r) * a;
        j.stretch = 0.5 * (s + glm::transpose(s));
        j.real = glm::normalize(glm::quat_cast(r));
    }
    if (j.real.w < 0.0) j.real = -j.real;
    j.dual = glm::dquat(0.0, 0.5 * t.x, 0.5 * t.y, 0.5 * t.z) * j.real;
    return j;
}

DualQuaternionBlend blendDualQuaternions(std::span<const DualQuaternionJoint> palette,
                                         std::span<const uint32_t> joints, std::span<const double> weights) {
    DualQuaternionBlend b{glm::dquat(0.0, 0.0, 0.0, 0.0), glm::dquat(0.0, 0.0, 0.0, 0.0), glm::dmat3(0.0)};
    const glm::dquat pivot = palette[joints[0]].real;
    for (size_t k = 0; k < joints.size(); ++k) {
        if (!(weights[k] > 0.0)) continue;
        const DualQuaternionJoint& j = palette[joints[k]];
        // q and -q are the same rotation: each joins the blend on the first influence's side.
        const double w = glm::dot(j.real, pivot) < 0.0 ? -weights[k] : weights[k];
        b.real = b.real + j.real * w;
        b.dual = b.dual + j.dual * w;
        b.stretch += j.stretch * weights[k];
    }
    const double length = glm::length(b.real);
    b.real = b.real / length;
    b.dual = b.dual / length;
    return b;
}

glm::dvec3 DualQuaternionBlend::position(glm::dvec3 p) const {
    const glm::dvec3 r(real.x, real.y, real.z), d(dual.x, dual.y, dual.z);
    const glm::dvec3 translation = 2.0 * (real.w * d - dual.w * r + glm::cross(r, d));
    return rotate(real, stretch * p) + translation;
}

glm::dvec3 DualQuaternionBlend::normal(glm::dvec3 n) const {
    // The stretch's inverse transpose times its determinant (the cofactors, defined for a
    // singular stretch too), with the determinant's sign taken out again so a mirror keeps the
    // normal outward.
    const glm::dvec3 a(stretch[0][0], stretch[1][0], stretch[2][0]),
        b(stretch[0][1], stretch[1][1], stretch[2][1]), c(stretch[0][2], stretch[1][2], stretch[2][2]);
    const glm::dvec3 cofactor(glm::dot(glm::cross(b, c), n), glm::dot(glm::cross(c, a), n),
                              glm::dot(glm::cross(a, b), n));
    const glm::dvec3 m = rotate(real, cofactor);
    const double length = glm::length(m);
    return length > 0.0 ? m * (glm::dot(a, glm::cross(b, c)) < 0.0 ? -1.0 : 1.0) / length : m;
}

} // namespace horde
