// .animb: name, duration (seconds), then per animated bone: bone name, operation (3 =
// translation keys, 4 = rotation keys), layer priority, an unused word, and keys of (value,
// time in seconds). Keys hold absolute local values: at full weight they replace the bone's
// rest translation or rotation (ScummVM AnimationStateEmi::animate subtracts the rest pose
// before blending layers, and Skeleton::commitAnim adds it back).
#include "emi/emi.h"

#include <algorithm>
#include <cmath>

#include "model/validate.h"

namespace horde::emi {

namespace {
constexpr uint32_t kTranslate = 3, kRotate = 4;
constexpr uint32_t kLayers = 8; // ScummVM Skeleton::MAX_ANIMATION_LAYERS

// Reads one entry's keys into `channel`; false (with the reader's error) on a bad key.
bool readKeys(Reader& r, uint32_t operation, uint32_t count, Channel& channel) {
    for (uint32_t k = 0; k < count; ++k) {
        size_t at = r.offset();
        glm::vec4 value = operation == kTranslate ? glm::vec4(r.vec3("translation key"), 0.0f) : r.vec4("rotation key");
        size_t timeAt = r.offset();
        float time = r.f32("key time");
        if (!r.ok()) return false;
        if (!finite(value)) return r.failAt(at, operation == kTranslate ? "translation key" : "rotation key", "is not finite");
        if (operation == kRotate) {
            float length = std::sqrt(glm::dot(value, value));
            if (!(length > 1e-6f) || !std::isfinite(length)) return r.failAt(at, "rotation key", "is zero or too large to normalize");
            value /= length;
        }
        if (!std::isfinite(time) || (!channel.times.empty() && time < channel.times.back()))
            return r.failAt(timeAt, "key time", "key " + std::to_string(k) + " time is not finite or goes backwards");
        channel.times.push_back(time);
        channel.values.push_back(value);
    }
    return true;
}
} // namespace

Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& target) {
    Reader r(bytes, path.string());
    Clip clip;
    clip.name = path.stem().string(); // the stored name is usually the original tool's path
    readString(r, "animation name");
    size_t at = r.offset();
    clip.duration = r.f32("duration");
    if (r.ok() && !(std::isfinite(clip.duration) && clip.duration >= 0.0f))
        return failedAt(r, at, "duration", "is negative or not finite");
    clip.end = ClipEnd::Hold;
    clip.rotationBlend = RotationBlend::Slerp;
    uint32_t entries = r.u32("bone entry count");
    if (!r.fits(entries, 20, "bone entry count")) return r.error();

    const NameIndex names(target);
    std::string missing;
    uint32_t lowest = kLayers, highest = 0;
    for (uint32_t e = 0; e < entries; ++e) {
        std::string bone = readString(r, "bone name");
        at = r.offset();
        uint32_t operation = r.u32("operation");
        if (r.ok() && operation != kTranslate && operation != kRotate)
            return failedAt(r, at, "operation", std::to_string(operation) + " is neither 3 (translation) nor 4 (rotation)");
        at = r.offset();
        uint32_t priority = r.u32("priority");
        if (r.ok() && priority >= kLayers)
            return failedAt(r, at, "priority", std::to_string(priority) + " is past the 8 animation layers");
        r.u32("unused");
        uint32_t keys = r.u32("key count");
        uint64_t keyBytes = operation == kTranslate ? 16 : 20;
        if (!r.fits(keys, keyBytes, "key count")) return r.error();
        int32_t node = names.find(bone);
        if (node < 0 || keys == 0) {
            if (node < 0) missing += (missing.empty() ? "'" : ", '") + bone + "'";
            r.skip(size_t(keys * keyBytes), "keys");
            continue;
        }
        Channel channel;
        channel.node = uint32_t(node);
        channel.path = operation == kTranslate ? ChannelPath::Translation : ChannelPath::Rotation;
        channel.interpolation = Interpolation::Linear;
        if (!readKeys(r, operation, keys, channel)) return r.error();
        clip.channels.push_back(std::move(channel));
        lowest = std::min(lowest, priority);
        highest = std::max(highest, priority);
    }
    if (!r.ok()) return r.error();
    clip.priority = clip.channels.empty() ? 0 : int32_t(highest);
    std::string file = path.filename().string();
    if (!missing.empty()) target.warnings.push_back(file + ": bones the model lacks, their keys skipped: " + missing);
    if (!clip.channels.empty() && lowest != highest)
        target.warnings.push_back(file + ": entries use layer priorities " + std::to_string(lowest) + " to " +
                                  std::to_string(highest) + "; the clip keeps " + std::to_string(highest) +
                                  " (played alone, every layer has full weight)");
    std::vector<Clip> out;
    out.push_back(std::move(clip));
    return out;
}

} // namespace horde::emi
