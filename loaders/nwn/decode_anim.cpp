#include "nwn/nwn.h"

#include <cmath>
#include <cstdio>
#include <set>

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

// The header's summary with its events.
std::string describe(File& file, const AnimHeader& h) {
    Reader& r = file.reader();
    std::vector<std::pair<float, std::string>> events;
    if (!file.seekModelArray(h.events.offset, h.events.count, kEventSize, "animation events")) return {};
    for (uint32_t e = 0; e < h.events.count; ++e) {
        float after = r.f32("animation event time");
        events.emplace_back(after, file.name(32, "animation event name"));
    }
    return describeClip(h.name, h.length, h.transition, h.root, events);
}
} // namespace

std::string describeClip(const std::string& name, float length, float transition, const std::string& root,
                         const std::vector<std::pair<float, std::string>>& events) {
    char text[64];
    std::snprintf(text, sizeof text, "length %g s, transition %g s", length, transition);
    std::string detail = "clip '" + name + "': " + text;
    if (!root.empty()) detail += ", root '" + root + "'";
    for (const auto& [after, event] : events) {
        std::snprintf(text, sizeof text, "%g", after);
        detail += ", event '" + event + "' at " + text + " s";
    }
    return detail;
}

NodeBinder::NodeBinder(const Model& target) {
    for (uint32_t n = 0; n < target.nodes.size(); ++n) byName_.emplace(asciiLower(target.nodes[n].name), n);
}

void NodeBinder::bind(const std::string& name, std::vector<Track>& tracks, float scale, Clip& clip) {
    if (tracks.empty()) return;
    auto found = byName_.find(asciiLower(name));
    if (found == byName_.end()) {
        clip.absentNodes.push_back(name);
        return;
    }
    for (Track& t : tracks) {
        Channel c;
        c.node = found->second;
        c.path = t.path;
        c.interpolation = t.interpolation;
        c.times = std::move(t.times);
        c.values = std::move(t.values);
        if (c.path == ChannelPath::Translation)
            for (glm::vec4& v : c.values) v *= scale;
        clip.channels.push_back(std::move(c));
    }
}

std::string absentNodesWarning(std::span<const Clip> all) {
    size_t clips = 0;
    std::vector<std::string> nodes; // in the order first met
    std::set<std::string> seen;
    for (const Clip& clip : all) {
        clips += clip.absentNodes.empty() ? 0 : 1;
        for (const std::string& node : clip.absentNodes)
            if (seen.insert(asciiLower(node)).second) nodes.push_back(node);
    }
    if (clips == 0) return {};
    std::string names;
    for (size_t k = 0; k < nodes.size() && k < 3; ++k) names += (k ? ", " : "") + nodes[k];
    if (nodes.size() > 3) names += " and " + std::to_string(nodes.size() - 3) + " more";
    return std::to_string(clips) + " of " + std::to_string(all.size()) + " clips key nodes the model lacks (" + names +
           "); those keys are not read (`--verbose` or `horde info` lists them by clip)";
}

bool decodeClips(File& file, const ModelHeader& header, float positionScale, Model& target,
                 std::vector<Clip>& clips) {
    Reader& r = file.reader();
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
        clip.transition = std::isfinite(h.transition) && h.transition >= 0.0f ? h.transition : -1.0f;
        clip.end = ClipEnd::Hold;
        clip.rotationBlend = RotationBlend::Slerp;
        std::vector<RawNode> nodes;
        if (h.rootNode != 0 && !walkTree(file, h.rootNode, nodes)) return false;
        NodeBinder binder(target);
        for (const RawNode& node : nodes) {
            std::vector<Track> tracks;
            if (!readTracks(file, node, tracks)) return false;
            binder.bind(node.name, tracks, positionScale, clip);
        }
        target.extras.push_back({"animation", h.root, detail});
        clips.push_back(std::move(clip));
    }
    return true;
}

} // namespace horde::nwn
