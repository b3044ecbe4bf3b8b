#include "grimrock/grimrock.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

#include "model/validate.h"
#include "reader.h"

namespace horde::grimrock {

namespace {
// The target's nodes by name, the first of a repeated name winning as in findNode: hashed, so
// binding many items to a model of many nodes stays linear.
using NodeNames = std::unordered_map<std::string, int32_t>;

template <class T> T valueAt(std::span<const std::byte> bytes, size_t at) {
    T v;
    std::memcpy(&v, bytes.data() + at, sizeof(T));
    return v;
}

std::string keyField(const KeyTrack& track, int32_t k) {
    return track.field + "[" + std::to_string(k) + "]" + track.member;
}

// One path's channel: value k at k / fps (keys are one per frame from frame 0), in Grimrock's
// axes moved into the target's by `toTarget` (nothing to do for a Grimrock model, but a model
// converted from Grimrock to another format has that format's axes). The scan has checked that
// every value lies inside the file.
bool decodeTrack(Reader& r, const KeyTrack& track, ChannelPath path, uint32_t node, float fps,
                 const Conversion& toTarget, Channel& out) {
    out.node = node;
    out.path = path;
    out.interpolation = Interpolation::Linear;
    out.times.resize(size_t(track.count));
    out.values.resize(size_t(track.count));
    const std::span<const std::byte> bytes = r.all();
    const bool moves = toTarget.axes != glm::dmat3(1.0);
    for (int32_t k = 0; k < track.count; ++k) {
        const size_t at = track.at + size_t(k) * track.stride;
        glm::vec4 v = path == ChannelPath::Rotation ? valueAt<glm::vec4>(bytes, at)
                                                    : glm::vec4(valueAt<glm::vec3>(bytes, at), 0.0f);
        if (!finite(v)) return r.failAt(at, keyField(track, k), "is not finite");
        if (path == ChannelPath::Rotation) {
            const float length = glm::length(v);
            if (!(length > 1e-6f)) return r.failAt(at, keyField(track, k), "quaternion has zero length");
            v /= length;
        }
        if (moves) {
            TrsD local;
            if (path == ChannelPath::Translation) local.translation = glm::dvec3(v);
            if (path == ChannelPath::Rotation) local.rotation = glm::dquat(v.w, v.x, v.y, v.z);
            if (path == ChannelPath::Scale) local.scale = glm::dvec3(v);
            const TrsD moved = toTarget.trs(local);
            const glm::dquat q = moved.rotation;
            v = path == ChannelPath::Translation ? glm::vec4(glm::vec3(moved.translation), 0.0f)
                : path == ChannelPath::Rotation  ? glm::vec4(float(q.x), float(q.y), float(q.z), float(q.w))
                                                 : glm::vec4(glm::vec3(moved.scale), 0.0f);
        }
        out.values[size_t(k)] = v;
        out.times[size_t(k)] = float(double(k) / double(fps));
    }
    return true;
}

// Every path an item keys becomes a linear channel (each key replaces that part of the node's
// local transform). An item naming a node the model lacks, or with no keys, is skipped.
bool bindItem(Reader& r, const AnimScan& scan, const AnimItem& item, const NodeNames& names,
              const Conversion& toTarget, Model& target, Clip& clip) {
    const auto found = names.find(item.node);
    const std::string said = "animation '" + clip.name + "': item '" + item.node + "' ";
    if (found == names.end() || !item.keyed()) {
        target.warnings.push_back(said + (item.keyed() ? "names a node the model lacks" : "has no keys") +
                                  "; skipped");
        return true;
    }
    struct Path {
        const KeyTrack& track;
        ChannelPath path;
        const char* keys; // what a count names in a warning
    };
    const Path paths[3] = {
        {item.position, ChannelPath::Translation, scan.version == 1 ? "keys" : "positions"},
        {item.rotation, ChannelPath::Rotation, "rotations"},
        {item.scale, ChannelPath::Scale, "scales"}};
    for (const Path& p : paths) {
        const int32_t count = p.track.count;
        // Version 1 has one count for all three paths: said once.
        const bool sharedCount = scan.version == 1 && p.path != ChannelPath::Translation;
        if (count == 0) {
            target.warnings.push_back(said + "has no " + p.keys +
                                      ": that part of its transform stays at rest");
            continue;
        }
        if (count != scan.frames && count != 1 && !sharedCount)
            target.warnings.push_back(said + "has " + std::to_string(count) + " " + p.keys + " for " +
                                      std::to_string(scan.frames) + " frames");
        Channel channel;
        if (!decodeTrack(r, p.track, p.path, uint32_t(found->second), scan.fps, toTarget, channel))
            return false;
        clip.channels.push_back(std::move(channel));
    }
    return true;
}
} // namespace

Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target) {
    Reader r(bytes, path.string());
    const AnimScan scan = scanAnimation(r);
    if (!r.ok()) return r.error();
    Clip clip;
    clip.name = scan.name;
    // The game loops by blending the last frame back into frame 0, over one frame's time.
    clip.duration = float(double(scan.frames) / double(scan.fps));
    clip.end = ClipEnd::WrapToFirst;
    clip.rotationBlend = RotationBlend::Nlerp;
    NodeNames names;
    for (size_t n = 0; n < target.nodes.size(); ++n) names.emplace(target.nodes[n].name, int32_t(n));
    const Conversion toTarget = fromFileAxes(target.axes);
    for (const AnimItem& item : scan.items)
        if (!bindItem(r, scan, item, names, toTarget, target, clip)) return r.error();
    // A layout that reads every byte is the layout the file was written in (docs/formats/grimrock.md).
    if (r.remaining())
        target.warnings.push_back("animation '" + clip.name + "': " + std::to_string(r.remaining()) +
                                  " bytes after the last item were ignored");
    std::vector<Clip> clips;
    clips.push_back(std::move(clip));
    return clips;
}

} // namespace horde::grimrock
