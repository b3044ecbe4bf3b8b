// Channels as controller rows, shared by the binary and the ASCII writer.
#include "nwn/nwn.h"

#include <algorithm>
#include <cmath>

#include "anim/reference.h"

namespace horde::nwn {

namespace {
void put(std::vector<float>& out, glm::vec4 v, int columns) {
    for (int i = 0; i < columns; ++i)
        out.push_back(v[i]);
}
} // namespace

KeyRows channelRows(const Channel& ch, const AxisChange& change) {
    auto convert = [&](glm::vec4 v) -> glm::vec4 {
        switch (ch.path) {
        case ChannelPath::Translation:
            return glm::vec4(change.point(glm::vec3(v)), 0.0f);
        case ChannelPath::Rotation:
            return change.rotation(v);
        // The format's scale is uniform: the mean of the three axes is kept.
        case ChannelPath::Scale:
            return glm::vec4((v.x + v.y + v.z) / 3.0f);
        }
        return v;
    };
    KeyRows rows;
    rows.type = ch.path == ChannelPath::Translation ? kPosition
                : ch.path == ChannelPath::Rotation  ? kOrientation
                                                    : kScale;
    rows.columns = ch.path == ChannelPath::Translation ? 3 : ch.path == ChannelPath::Rotation ? 4 : 1;
    const size_t n = ch.times.size();
    if (ch.interpolation == Interpolation::CubicSpline) {
        rows.bezier = true;
        for (size_t k = 0; k < n; ++k) {
            glm::vec4 in = ch.values[3 * k], v = ch.values[3 * k + 1], outTangent = ch.values[3 * k + 2];
            float before = k > 0 ? ch.times[k] - ch.times[k - 1] : 0.0f;
            float after = k + 1 < n ? ch.times[k + 1] - ch.times[k] : 0.0f;
            rows.times.push_back(ch.times[k]);
            put(rows.values, convert(v), rows.columns);
            put(rows.values, convert(v - in * (before / 3.0f)), rows.columns);
            put(rows.values, convert(v + outTangent * (after / 3.0f)), rows.columns);
        }
        return rows;
    }
    for (size_t k = 0; k < n; ++k) {
        rows.times.push_back(ch.times[k]);
        put(rows.values, convert(ch.values[k]), rows.columns);
        if (ch.interpolation == Interpolation::Step && k + 1 < n) {
            rows.times.push_back(ch.times[k + 1]);
            put(rows.values, convert(ch.values[k]), rows.columns);
        }
    }
    return rows;
}

bool rotationBezierIsExact(const Channel& ch) {
    const size_t n = ch.times.size();
    auto unit = [](glm::vec4 q) { return std::abs(glm::length(q) - 1.0f) <= 1e-6f; };
    for (size_t k = 0; k < n; ++k) {
        glm::vec4 in = ch.values[3 * k], v = ch.values[3 * k + 1], out = ch.values[3 * k + 2];
        float before = k > 0 ? ch.times[k] - ch.times[k - 1] : 0.0f;
        float after = k + 1 < n ? ch.times[k + 1] - ch.times[k] : 0.0f;
        if (!unit(v) || !unit(v - in * (before / 3.0f)) || !unit(v + out * (after / 3.0f))) return false;
    }
    return true;
}

namespace {
double angleBetween(glm::dvec4 a, glm::dvec4 b) {
    return 2.0 * std::acos(std::min(1.0, std::abs(glm::dot(a, b))));
}
} // namespace

Channel resampleRotation(const Channel& ch, double bound) {
    const Clip reference; // slerp between keys, as NWN clips are read
    Channel out{ch.node, ch.path, Interpolation::Linear, {}, {}};
    auto push = [&](float t, glm::dvec4 q) {
        if (!out.values.empty() && glm::dot(q, glm::dvec4(out.values.back())) < 0.0) q = -q;
        out.times.push_back(t);
        out.values.emplace_back(q);
    };
    push(ch.times[0], sampleChannel(reference, ch, ch.times[0]));
    std::vector<float> times;
    std::vector<glm::dvec4> values;
    for (size_t k = 0; k + 1 < ch.times.size(); ++k) {
        const double t0 = ch.times[k], t1 = ch.times[k + 1];
        if (!(t1 > t0)) {
            push(ch.times[k + 1], glm::normalize(glm::dvec4(ch.values[3 * (k + 1) + 1])));
            continue;
        }
        for (uint32_t n = 1;; n *= 2) {
            times.assign(1, ch.times[k]);
            values.assign(1, sampleChannel(reference, ch, t0));
            for (uint32_t i = 1; i <= n; ++i) {
                times.push_back(i == n ? ch.times[k + 1] : float(t0 + (t1 - t0) * i / n));
                values.push_back(sampleChannel(reference, ch, times.back()));
            }
            Channel piece{ch.node, ch.path, Interpolation::Linear, times, {}};
            for (glm::dvec4 q : values)
                piece.values.emplace_back(q);
            double worst = 0.0;
            for (uint32_t i = 0; i < n; ++i)
                for (int j = 1; j < kResampleProbes; ++j) {
                    double t = times[i] + (double(times[i + 1]) - times[i]) * j / kResampleProbes;
                    worst = std::max(worst, angleBetween(sampleChannel(reference, piece, t),
                                                         sampleChannel(reference, ch, t)));
                }
            if (worst <= bound || n >= kMaxResampleSteps) break;
        }
        for (size_t i = 1; i < times.size(); ++i)
            push(times[i], values[i]);
    }
    return out;
}

} // namespace horde::nwn
