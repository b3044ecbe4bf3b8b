// Rotation keys added for a clip that nlerps, so that glTF's slerp between keys follows it.
#include "gltf/gltf.h"

#include <algorithm>
#include <cmath>

namespace horde::gltf {

namespace {
// glTF's LINEAR rotation is a slerp; a clip that nlerps (Grimrock's) goes along the same arc at
// another pace, which shows between keys far apart: 4.8e-4 of the radius on the levers of a
// Grimrock 2 mod (75 degrees in 6 keys). Keys on the nlerp curve are added between such keys
// until slerping them stays within kNlerpTolerance radians of it everywhere (docs/formats/gltf.md).
constexpr double kNlerpTolerance = 1e-5;
constexpr uint32_t kMaxNlerpSplit = 256; // a quarter turn between two keys takes 102

glm::dvec4 nlerp(glm::dvec4 a, glm::dvec4 b, double u) {
    const glm::dvec4 r = a + (b - a) * u;
    return r / glm::length(r);
}

glm::dvec4 slerp(glm::dvec4 a, glm::dvec4 b, double u) {
    if (glm::dot(a, b) < 0.0) b = -b;
    const double d = std::min(glm::dot(a, b), 1.0);
    if (d > 1.0 - 1e-12) return nlerp(a, b, u);
    const double angle = std::acos(d), s = std::sin(angle);
    return a * (std::sin((1.0 - u) * angle) / s) + b * (std::sin(u * angle) / s);
}

double radiansBetween(glm::dvec4 a, glm::dvec4 b) {
    return 2.0 * std::acos(std::min(std::abs(glm::dot(a, b)), 1.0));
}

// How far slerping `n` keys on the nlerp from a to b (b on a's side) strays from that nlerp.
double slerpStray(glm::dvec4 a, glm::dvec4 b, uint32_t n) {
    double worst = 0.0;
    for (uint32_t i = 0; i < n; ++i) {
        const glm::dvec4 from = nlerp(a, b, double(i) / n), to = nlerp(a, b, double(i + 1) / n);
        for (double u : {0.125, 0.25, 0.375, 0.5, 0.625, 0.75, 0.875})
            worst = std::max(worst, radiansBetween(slerp(from, to, u), nlerp(a, b, (i + u) / n)));
    }
    return worst;
}

} // namespace

void keepNlerpPace(const Clip& clip, Channel& c) {
    if (clip.rotationBlend != RotationBlend::Nlerp || c.path != ChannelPath::Rotation ||
        c.interpolation != Interpolation::Linear || c.times.size() < 2)
        return;
    Channel out = c;
    out.times.clear();
    out.values.clear();
    for (size_t k = 0; k + 1 < c.times.size(); ++k) {
        const glm::dvec4 a(c.values[k]);
        glm::dvec4 b(c.values[k + 1]);
        if (glm::dot(a, b) < 0.0) b = -b; // the reference blends along the shorter arc
        // The stray falls about as the square of the pieces: start from that guess, then grow.
        const double once = slerpStray(a, b, 1);
        uint32_t n = once > kNlerpTolerance ? uint32_t(std::ceil(std::sqrt(once / kNlerpTolerance))) : 1u;
        while (n < kMaxNlerpSplit && slerpStray(a, b, n) > kNlerpTolerance)
            n = std::min(kMaxNlerpSplit, n + std::max(1u, n / 16));
        const double t0 = c.times[k], t1 = c.times[k + 1];
        for (uint32_t i = 0; i < n; ++i) {
            const float t = float(t0 + (t1 - t0) * double(i) / n);
            if (i > 0 && !(t > out.times.back() && t < c.times[k + 1])) continue; // keys too close to split
            out.times.push_back(t);
            out.values.push_back(i == 0 ? c.values[k] : glm::vec4(nlerp(a, b, double(i) / n)));
        }
    }
    out.times.push_back(c.times.back());
    out.values.push_back(c.values.back());
    c = std::move(out);
}

} // namespace horde::gltf
