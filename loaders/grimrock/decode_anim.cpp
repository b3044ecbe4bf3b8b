#include "grimrock/grimrock.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "model/validate.h"
#include "reader.h"

namespace horde::grimrock {

namespace {
// Item: node name length + numKeys.
constexpr uint64_t kMinItemBytes = 8;
// KeyFrame: position, rotation (x, y, z, w), scale.
constexpr uint64_t kKeyBytes = 12 + 16 + 12;

// The target's nodes by name, the first of a repeated name winning as in findNode: hashed, so
// binding many items to a model of many nodes stays linear.
using NodeNames = std::unordered_map<std::string, int32_t>;

// Keys are one per frame from frame 0: key k at k / fps. Each key replaces the node's whole
// local transform, so every item drives translation, rotation and scale.
// Keys are in Grimrock's axes; `toTarget` moves them into the target model's (nothing to do for a
// Grimrock model, but a model converted from Grimrock to another format has that format's axes).
bool readItem(Reader& r, size_t index, float fps, int32_t frames, const NodeNames& names, const Conversion& toTarget,
              Model& target, Clip& clip) {
    std::string at = "items[" + std::to_string(index) + "]";
    std::string name = readString(r, at + ".node");
    size_t countAt = r.offset();
    int32_t keys = r.i32(at + ".numKeys");
    if (!r.ok()) return false;
    if (keys < 0) return r.failAt(countAt, at + ".numKeys", "count " + std::to_string(keys) + " is negative");
    if (!r.fits(uint64_t(keys), kKeyBytes, at + ".keys")) return false;
    auto found = names.find(name);
    int32_t node = found == names.end() ? -1 : found->second;
    if (node < 0 || keys == 0) {
        target.warnings.push_back("animation '" + clip.name + "': item '" + name + "' " +
                                  (keys == 0 ? "has no keys" : "names a node the model lacks") + "; skipped");
        return r.skip(size_t(keys) * kKeyBytes, at + ".keys");
    }
    if (keys != frames && keys != 1)
        target.warnings.push_back("animation '" + clip.name + "': item '" + name + "' has " + std::to_string(keys) +
                                  " keys for " + std::to_string(frames) + " frames");
    Channel channels[3];
    const ChannelPath paths[3] = {ChannelPath::Translation, ChannelPath::Rotation, ChannelPath::Scale};
    for (int c = 0; c < 3; ++c) {
        channels[c].node = uint32_t(node);
        channels[c].path = paths[c];
        channels[c].interpolation = Interpolation::Linear;
        channels[c].times.resize(size_t(keys));
        channels[c].values.resize(size_t(keys));
    }
    for (int32_t k = 0; k < keys; ++k) {
        size_t keyAt = r.offset();
        std::string key = at + ".keys[" + std::to_string(k) + "]";
        glm::vec4 position(r.vec3(key + ".position"), 0.0f);
        glm::vec4 rotation = r.vec4(key + ".rotation");
        glm::vec4 scale(r.vec3(key + ".scale"), 0.0f);
        if (!r.ok()) return false;
        if (!finite(position) || !finite(rotation) || !finite(scale)) return r.failAt(keyAt, key, "is not finite");
        float length = glm::length(rotation);
        if (!(length > 1e-6f)) return r.failAt(keyAt + 12, key + ".rotation", "quaternion has zero length");
        float time = float(double(k) / double(fps));
        channels[0].values[k] = position;
        channels[1].values[k] = rotation / length;
        channels[2].values[k] = scale;
        if (toTarget.axes != glm::dmat3(1.0)) {
            const glm::vec4 q = channels[1].values[k];
            const TrsD local{glm::dvec3(position), glm::dquat(q.w, q.x, q.y, q.z), glm::dvec3(scale)};
            const TrsD moved = toTarget.trs(local);
            channels[0].values[k] = glm::vec4(glm::vec3(moved.translation), 0.0f);
            channels[1].values[k] = glm::vec4(float(moved.rotation.x), float(moved.rotation.y), float(moved.rotation.z), float(moved.rotation.w));
            channels[2].values[k] = glm::vec4(glm::vec3(moved.scale), 0.0f);
        }
        for (Channel& c : channels) c.times[k] = time;
    }
    for (Channel& c : channels) clip.channels.push_back(std::move(c));
    return true;
}
} // namespace

Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target) {
    Reader r(bytes, path.string());
    r.expect("ANIM", "magic");
    int32_t version = r.i32("version");
    if (r.ok() && version != 1) r.failAt(4, "version", "version " + std::to_string(version) + " is not 1");
    Clip clip;
    clip.name = readString(r, "name");
    size_t fpsAt = r.offset();
    float fps = r.f32("framesPerSecond");
    int32_t frames = r.i32("numFrames");
    int32_t items = r.i32("numItems");
    if (!r.ok()) return r.error();
    if (!(std::isfinite(fps) && fps > 0.0f)) r.failAt(fpsAt, "framesPerSecond", "rate " + std::to_string(fps) + " is not positive");
    if (frames < 0) r.failAt(fpsAt + 4, "numFrames", "count " + std::to_string(frames) + " is negative");
    if (items < 0) r.failAt(fpsAt + 8, "numItems", "count " + std::to_string(items) + " is negative");
    if (!r.fits(uint64_t(std::max(items, 0)), kMinItemBytes, "numItems")) return r.error();

    // The game loops by blending the last frame back into frame 0, over one frame's time.
    clip.duration = float(double(frames) / double(fps));
    clip.end = ClipEnd::WrapToFirst;
    clip.rotationBlend = RotationBlend::Nlerp;
    NodeNames names;
    for (size_t n = 0; n < target.nodes.size(); ++n) names.emplace(target.nodes[n].name, int32_t(n));
    const Conversion toTarget = fromFileAxes(target.axes);
    for (int32_t i = 0; i < items; ++i)
        if (!readItem(r, size_t(i), fps, frames, names, toTarget, target, clip)) return r.error();
    std::vector<Clip> clips;
    clips.push_back(std::move(clip));
    return clips;
}

} // namespace horde::grimrock
