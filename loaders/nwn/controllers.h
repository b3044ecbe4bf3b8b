#pragma once
// Controllers: the keyed properties of a node. Position (3 values), orientation (quaternion
// x, y, z, w) and scale (1 value, uniform) become horde channels; the others (lights,
// emitters, mesh colours) are skipped. A node's rest TRS in the model geometry is the first
// key of each of its controllers (a static controller is one key at time 0).
#include <vector>

#include "asset/model.h"
#include "node_tree.h"

namespace horde::nwn {

struct Track {
    ChannelPath path = ChannelPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;
    std::vector<glm::vec4> values; // CubicSpline: in-tangent, value, out-tangent per key

    glm::vec4 first() const { return values[interpolation == Interpolation::CubicSpline ? 1 : 0]; }
};

bool readTracks(File& file, const RawNode& node, std::vector<Track>& tracks);

// Bezier keys store, per key, the value, the incoming control point and the outgoing control
// point. Each segment is a cubic Bezier in the normalized segment time s; its Hermite form has
// end slopes 3(out_k - v_k) and 3(v_k+1 - in_k+1) per unit s, i.e. per second divided by the
// segment length: the glTF tangents, exactly. End keys get zero tangents on their open side.
// `controls` holds value, in-control, out-control per key; returns in-tangent, value, out-tangent.
std::vector<glm::vec4> bezierToCubicSpline(const std::vector<float>& times, const std::vector<glm::vec4>& controls);

} // namespace horde::nwn
