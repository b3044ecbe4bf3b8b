#include "nwn/nwn.h"

#include <cmath>
#include <unordered_map>

namespace horde::nwn {

namespace {
struct AnimHeader {
    std::string name, root;
    uint32_t rootNode = 0;
    float length = 0.0f, transition = 0.0f;
    Array events;
};

bool readAnimHeader(File& file, uint32_t at, AnimHeader& h) {
    Reader& r = file.reader();
    if (!file.seekStruct(at, kAnimHeaderSize, kGeomName, "animation header")) return false;
    h.name = file.name(64, "animation name");
    h.rootNode = r.u32("animation root node");
    file.seekStruct(at, kAnimHeaderSize, kAnimLength, "animation length");
    h.length = r.f32("animation length");
    h.transition = r.f32("animation transition time");
    h.root = file.name(64, "animation root");
    h.events = file.array("animation events");
    if (!r.ok()) return false;
    if (!std::isfinite(h.length) || h.length < 0.0f)
        return r.failAt(r.offset(), "animation length", "negative or not finite in animation '" + h.name + "'");
    return true;
}

std::string describe(File& file, const AnimHeader& h) {
    Reader& r = file.reader();
    char text[64];
    std::snprintf(text, sizeof text, "length %g s, transition %g s", h.length, h.transition);
    std::string detail = "clip '" + h.name + "': " + text;
    if (!h.root.empty()) detail += ", root '" + h.root + "'";
    if (!file.seekModelArray(h.events.offset, h.events.count, kEventSize, "animation events")) return detail;
    for (uint32_t e = 0; e < h.events.count; ++e) {
        float after = r.f32("animation event time");
        std::string name = file.name(32, "animation event name");
        std::snprintf(text, sizeof text, "%g", after);
        detail += ", event '" + name + "' at " + text + " s";
    }
    return detail;
}
} // namespace

bool readClips(File& file, const ModelHeader& header, float positionScale, Model& target, std::vector<Clip>& clips) {
    Reader& r = file.reader();
    std::unordered_map<std::string, uint32_t> byName;
    for (uint32_t n = 0; n < target.nodes.size(); ++n) byName.emplace(lower(target.nodes[n].name), n);
    if (!file.seekModelArray(header.animations.offset, header.animations.count, 4, "model animations")) return false;
    std::vector<uint32_t> pointers(header.animations.count);
    for (uint32_t& p : pointers) p = r.u32("model animation pointer");
    for (uint32_t at : pointers) {
        AnimHeader h;
        if (!readAnimHeader(file, at, h)) return false;
        std::string detail = describe(file, h);
        if (!r.ok()) return false;
        Clip clip;
        clip.name = h.name;
        clip.duration = h.length;
        clip.end = ClipEnd::Hold;
        clip.rotationBlend = RotationBlend::Slerp;
        std::vector<RawNode> nodes;
        if (h.rootNode != 0 && !walkTree(file, h.rootNode, nodes)) return false;
        size_t unmatched = 0;
        std::string firstUnmatched;
        for (const RawNode& node : nodes) {
            std::vector<Track> tracks;
            if (!readTracks(file, node, tracks)) return false;
            if (tracks.empty()) continue;
            auto found = byName.find(lower(node.name));
            if (found == byName.end()) {
                if (unmatched++ == 0) firstUnmatched = node.name;
                continue;
            }
            for (Track& t : tracks) {
                Channel c;
                c.node = found->second;
                c.path = t.path;
                c.interpolation = t.interpolation;
                c.times = std::move(t.times);
                c.values = std::move(t.values);
                if (c.path == ChannelPath::Translation)
                    for (glm::vec4& v : c.values) v *= positionScale;
                clip.channels.push_back(std::move(c));
            }
        }
        if (unmatched > 0)
            target.warnings.push_back("clip '" + h.name + "': " + std::to_string(unmatched) + " animated nodes (first '" +
                                      firstUnmatched + "') match no node of the model");
        target.extras.push_back({"animation", h.root, detail});
        clips.push_back(std::move(clip));
    }
    return true;
}

} // namespace horde::nwn
