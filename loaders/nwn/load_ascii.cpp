// The ASCII MDL load: the parsed text becomes a Model. Nodes are put in pre-order whatever their
// order in the file (horde's parents precede their children); names bind parents, bones and
// animated nodes, ignoring case.
#include "nwn/nwn.h"

#include <cmath>
#include <cstdio>

namespace horde::nwn {

namespace {
// Pre-order from the roots (nodes without a parent), children in file order. Names need not be
// unique (real files give a dummy the name of a skin mesh and make the mesh its parent): a name
// means the first node defined with it, and the first name used again is warned about. Fails on a parent that
// names no node, and on nodes whose parents form a cycle.
bool orderNodes(Text& t, const std::vector<AsciiNode>& nodes, std::vector<uint32_t>& order,
                std::vector<int32_t>& parentOf, Model& model) {
    std::unordered_map<std::string, uint32_t> byName;
    bool warned = false;
    for (uint32_t i = 0; i < nodes.size(); ++i)
        if (!byName.emplace(asciiLower(nodes[i].name), i).second && !std::exchange(warned, true))
            model.warnings.push_back("node '" + nodes[i].name + "' (line " +
                                     std::to_string(nodes[i].at.line) +
                                     ") shares its name with an earlier node; names resolve to the first");
    std::vector<std::vector<uint32_t>> children(nodes.size());
    std::vector<uint32_t> roots;
    parentOf.assign(nodes.size(), -1);
    for (uint32_t i = 0; i < nodes.size(); ++i) {
        if (nodes[i].parent.empty()) {
            roots.push_back(i);
            continue;
        }
        auto found = byName.find(asciiLower(nodes[i].parent));
        if (found == byName.end())
            return t.failAt(nodes[i].parentAt, "parent",
                            "'" + Text::quote(nodes[i].parent) + "' names no node of the model");
        parentOf[i] = int32_t(found->second);
        children[found->second].push_back(i);
    }
    std::vector<uint32_t> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        uint32_t n = stack.back();
        stack.pop_back();
        order.push_back(n);
        stack.insert(stack.end(), children[n].rbegin(), children[n].rend());
    }
    if (order.size() == nodes.size()) return true;
    std::vector<bool> reached(nodes.size(), false);
    for (uint32_t n : order)
        reached[n] = true;
    for (uint32_t i = 0; i < nodes.size(); ++i)
        if (!reached[i])
            return t.failAt(nodes[i].parentAt, "parent",
                            "node '" + Text::quote(nodes[i].name) +
                                "' is in a cycle of parents: no chain from it reaches a root");
    return true;
}

// The rest pose: single-value controllers, else the first key of a keyed one (as in binary
// files, whose rest values are the first keys).
Node restNode(const AsciiNode& a, size_t& keyed) {
    Node n;
    n.name = a.name;
    glm::vec4 q = a.orientation;
    glm::vec3 position = a.position;
    float scale = a.scale;
    for (const Track& t : a.tracks) {
        if (t.times.size() > 1) ++keyed;
        if (t.path == ChannelPath::Translation && !(a.single & 1)) position = glm::vec3(t.first());
        if (t.path == ChannelPath::Rotation && !(a.single & 2)) q = t.first();
        if (t.path == ChannelPath::Scale && !(a.single & 4)) scale = t.first().x;
    }
    glm::quat rotation(q.w, q.x, q.y, q.z);
    n.translation = position;
    n.rotation = glm::length(rotation) > 0.0f ? glm::normalize(rotation) : glm::quat(1, 0, 0, 0);
    n.scale = glm::vec3(scale);
    return n;
}

// An animated node's single values are keys at time 0.
std::vector<Track> animTracks(const AsciiNode& a) {
    std::vector<Track> tracks = a.tracks;
    auto one = [&](ChannelPath path, glm::vec4 v) {
        Track t;
        t.path = path;
        t.times = {0.0f};
        t.values = {v};
        tracks.push_back(std::move(t));
    };
    if (a.single & 1) one(ChannelPath::Translation, glm::vec4(a.position, 0.0f));
    if (a.single & 2) one(ChannelPath::Rotation, a.orientation);
    if (a.single & 4) one(ChannelPath::Scale, glm::vec4(glm::vec3(a.scale), 0.0f));
    return tracks;
}

void bindClips(AsciiModel& m, float positionScale, Model& target, std::vector<Clip>& clips) {
    for (AsciiAnim& a : m.anims) {
        Clip clip;
        clip.name = a.name;
        clip.duration = a.length;
        clip.transition = std::isfinite(a.transition) && a.transition >= 0.0f ? a.transition : -1.0f;
        clip.end = ClipEnd::Hold;
        clip.rotationBlend = RotationBlend::Slerp;
        NodeBinder binder(target);
        for (const AsciiNode& node : a.nodes) {
            std::vector<Track> tracks = animTracks(node);
            binder.bind(node.name, tracks, positionScale, clip);
        }
        target.extras.push_back(
            {"animation", a.root, describeClip(a.name, a.length, a.transition, a.root, a.events)});
        clips.push_back(std::move(clip));
    }
}

ModelHeader headerOf(const AsciiModel& m) {
    ModelHeader h;
    h.name = m.name;
    h.animationScale = m.animationScale;
    h.supermodel = m.supermodel;
    return h;
}
} // namespace

Result<Model> readAsciiModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                             const LoadOptions& options, MeshAllocator& allocator) {
    Text text(bytes, path.string());
    AsciiModel ascii;
    std::vector<uint32_t> order;
    std::vector<int32_t> parentOf;
    Model model;
    if (!parseAscii(text, ascii) || !orderNodes(text, ascii.nodes, order, parentOf, model))
        return text.error();
    model.format = "nwn-ascii";
    model.axes = fileAxes();
    std::vector<int32_t> newIndex(order.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        newIndex[order[i]] = int32_t(i);
    size_t keyed = 0;
    for (uint32_t old : order) {
        Node node = restNode(ascii.nodes[old], keyed);
        node.parent = parentOf[old] < 0 ? -1 : newIndex[size_t(parentOf[old])];
        model.nodes.push_back(std::move(node));
    }
    if (keyed > 0)
        model.warnings.push_back(
            std::to_string(keyed) +
            " controllers of the model geometry have several keys; the first key is the rest value");
    const std::vector<glm::mat4> restModel = restTransforms(model);
    for (uint32_t i = 0; i < order.size(); ++i) {
        const AsciiNode& node = ascii.nodes[order[i]];
        reportNode(node.flags & ~kHasDangly, node.name,
                   model); // the mesh reports danglies with their constraints
        if (node.type == "patch") model.extras.push_back({"patch", node.name, "patch node (not drawn)"});
        if (node.unknownType)
            model.extras.push_back(
                {"node type", node.name, "'" + Text::quote(node.type) + "' read as a dummy"});
        if (node.mesh && !decodeAsciiMesh(text, node, i, restModel, model, allocator)) return text.error();
    }
    if (ascii.skipped > 0)
        model.extras.push_back(
            {"skipped", "",
             std::to_string(ascii.skipped) + " lines with keywords horde does not read (first '" +
                 ascii.firstSkippedWord + "' at line " + std::to_string(ascii.firstSkipped.line) + ")"});
    char scale[32];
    std::snprintf(scale, sizeof scale, "%.9g", ascii.animationScale);
    model.extras.push_back({kAnimationScaleExtra, "", scale});
    bindClips(ascii, 1.0f, model, model.clips);
    if (Status st = inheritClips(path, headerOf(ascii), options, model); !st) return st.error();
    if (std::string absent = absentNodesWarning(model.clips); !absent.empty()) model.warnings.push_back(absent);
    return model;
}

bool readAsciiClips(Text& text, float positionScale, Model& target, ModelHeader& header,
                    std::vector<Clip>& clips) {
    AsciiModel ascii;
    if (!parseAscii(text, ascii)) return false;
    header = headerOf(ascii);
    bindClips(ascii, positionScale, target, clips);
    return true;
}

} // namespace horde::nwn
