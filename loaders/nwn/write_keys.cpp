// Channels as controller rows, shared by the binary and the ASCII writer.
#include "nwn/nwn.h"

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

} // namespace horde::nwn
