#include "crowd/crowd_settings.h"

namespace horde {

namespace {
// NaN stands for "as framed", so two unset values are the same setting.
bool same(float a, float b) {
    return a == b || (std::isnan(a) && std::isnan(b));
}
} // namespace

bool PictureSettings::operator==(const PictureSettings& other) const {
    return msaa == other.msaa && same(yaw, other.yaw) && same(pitch, other.pitch) &&
           same(distance, other.distance);
}

CrowdSettings singleInstanceSettings() {
    CrowdSettings s;
    s.count = 1;
    s.cull = false;
    s.lod = false;
    s.layout.kind = Layout::Grid;
    s.behaviour = loopBehaviour();
    return s;
}

} // namespace horde
