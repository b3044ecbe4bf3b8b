#include "nwn/nwn.h"

#include <cmath>

namespace horde::nwn {

std::vector<glm::vec4> bezierToCubicSpline(const std::vector<float>& times, const std::vector<glm::vec4>& controls) {
    const size_t n = times.size();
    std::vector<glm::vec4> out(3 * n, glm::vec4(0.0f));
    for (size_t k = 0; k < n; ++k) {
        glm::vec4 value = controls[3 * k], in = controls[3 * k + 1], outControl = controls[3 * k + 2];
        out[3 * k + 1] = value;
        // A zero-length segment is never sampled inside; its tangents stay zero.
        if (k > 0 && times[k] > times[k - 1]) out[3 * k] = 3.0f * (value - in) / (times[k] - times[k - 1]);
        if (k + 1 < n && times[k + 1] > times[k]) out[3 * k + 2] = 3.0f * (outControl - value) / (times[k + 1] - times[k]);
    }
    return out;
}

namespace {
struct Controller {
    int32_t type = 0;
    int16_t rows = 0, timeIndex = 0, dataIndex = 0;
    int8_t columns = 0;
};

// Values per key each supported controller must have.
int expectedColumns(int32_t type) {
    switch (type) {
    case kPosition: return 3;
    case kOrientation: return 4;
    case kScale: return 1;
    default: return 0;
    }
}

glm::vec4 row(const std::vector<float>& data, size_t at, int32_t type) {
    switch (type) {
    case kPosition: return glm::vec4(data[at], data[at + 1], data[at + 2], 0.0f);
    case kOrientation: return glm::vec4(data[at], data[at + 1], data[at + 2], data[at + 3]);
    default: return glm::vec4(data[at], data[at], data[at], 0.0f);
    }
}

bool decode(Reader& r, const Controller& c, const std::vector<float>& data, Track& track) {
    const int want = expectedColumns(c.type);
    const int columns = c.columns & 0x0F;
    const bool bezier = (c.columns & kBezierFlag) != 0;
    const size_t at = r.offset() - kControllerSize;
    if ((c.columns & ~0x1F) != 0 || columns != want)
        return r.failAt(at + 10, "controller columns",
                        std::to_string(int(c.columns)) + " for controller type " + std::to_string(c.type) + " (expected " +
                            std::to_string(want) + " values per key, +16 for bezier)");
    if (c.rows < 0 || c.timeIndex < 0 || c.dataIndex < 0)
        return r.failAt(at + 4, "controller rows", "negative row count or index");
    const size_t rows = size_t(c.rows), perRow = size_t(columns) * (bezier ? 3 : 1);
    if (size_t(c.timeIndex) + rows > data.size() || size_t(c.dataIndex) + rows * perRow > data.size())
        return r.failAt(at + 6, "controller data index",
                        std::to_string(rows) + " keys at time index " + std::to_string(c.timeIndex) + " and data index " +
                            std::to_string(c.dataIndex) + " run past the node's " + std::to_string(data.size()) + " floats");
    track.path = c.type == kPosition ? ChannelPath::Translation
                 : c.type == kOrientation ? ChannelPath::Rotation : ChannelPath::Scale;
    track.interpolation = bezier ? Interpolation::CubicSpline : Interpolation::Linear;
    std::vector<glm::vec4> values;
    for (size_t k = 0; k < rows; ++k) {
        float t = data[size_t(c.timeIndex) + k];
        if (!std::isfinite(t) || (k > 0 && t < track.times.back()))
            return r.failAt(at + 6, "controller key times", "not finite and non-decreasing at key " + std::to_string(k));
        track.times.push_back(t);
        for (size_t part = 0; part < (bezier ? 3u : 1u); ++part) {
            glm::vec4 v = row(data, size_t(c.dataIndex) + k * perRow + part * size_t(columns), c.type);
            if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z) || !std::isfinite(v.w))
                return r.failAt(at + 8, "controller values", "not finite at key " + std::to_string(k));
            values.push_back(v);
        }
    }
    track.values = bezier ? bezierToCubicSpline(track.times, values) : std::move(values);
    return true;
}
} // namespace

bool readTracks(File& file, const RawNode& node, std::vector<Track>& tracks) {
    Reader& r = file.reader();
    const Array& d = node.controllerData;
    if (!file.seekModelArray(d.offset, d.count, 4, "controller data")) return false;
    std::vector<float> data(d.count);
    for (float& f : data) f = r.f32("controller data");
    const Array& k = node.controllerKeys;
    if (!file.seekModelArray(k.offset, k.count, kControllerSize, "controller keys")) return false;
    for (uint32_t i = 0; i < k.count && r.ok(); ++i) {
        Controller c;
        c.type = r.i32("controller type");
        c.rows = r.i16("controller rows");
        c.timeIndex = r.i16("controller time index");
        c.dataIndex = r.i16("controller data index");
        c.columns = int8_t(r.u8("controller columns"));
        r.u8("controller padding");
        // -1 columns: a key list with no values at all (emitter "detonate"); nothing to animate.
        if (!r.ok() || expectedColumns(c.type) == 0 || c.columns == -1 || c.rows == 0) continue;
        Track track;
        if (!decode(r, c, data, track)) return false;
        tracks.push_back(std::move(track));
    }
    return r.ok();
}

} // namespace horde::nwn
