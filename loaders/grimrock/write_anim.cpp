#include "grimrock/grimrock.h"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <set>

namespace horde::grimrock {

namespace {
// The rate the game's own animations use.
constexpr double kFramesPerSecond = 30.0;

struct Key {
    glm::vec3 position;
    glm::quat rotation;
    glm::vec3 scale;
};
} // namespace

std::filesystem::path animationPath(const std::filesystem::path& modelPath, const std::string& clipName) {
    std::string safe = clipName;
    for (char& c : safe)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    return modelPath.parent_path() / (modelPath.stem().string() + "_" + safe + ".animation");
}

// ANIM holds only uniform frames of full TRS per node, so the clip is sampled with the CPU
// reference at (about) 30 fps; the rate is nudged so that whole frames span the clip exactly.
Status writeAnimation(const Model& model, const Clip& clip, const Conversion& conv, const std::filesystem::path& path) {
    const double duration = clip.duration;
    // A clip of no length is one key over zero frames; anything longer gets at least one frame.
    const int32_t frames = duration > 0.0 ? std::max(1, int32_t(std::lround(duration * kFramesPerSecond))) : 0;
    const int32_t samples = std::max(frames, 1);
    // The rate as the file will hold it (a float), so the reader's key times are the ones sampled here.
    const double fps = double(float(duration > 0.0 ? frames / duration : kFramesPerSecond));
    std::set<uint32_t> animated;
    for (const Channel& c : clip.channels) animated.insert(c.node);

    std::vector<std::vector<Key>> keys(model.nodes.size());
    for (int32_t f = 0; f < samples; ++f) {
        // Sample where the reader will put the key (a float time), so key times match exactly.
        const double t = double(float(f / fps));
        std::vector<TrsD> trs(model.nodes.size());
        for (uint32_t n : animated) trs[n] = restTrs(model.nodes[n]);
        for (const Channel& c : clip.channels) {
            glm::dvec4 v = sampleChannel(clip, c, t);
            switch (c.path) {
            case ChannelPath::Translation: trs[c.node].translation = glm::dvec3(v); break;
            case ChannelPath::Rotation: trs[c.node].rotation = glm::dquat(v.w, v.x, v.y, v.z); break;
            case ChannelPath::Scale: trs[c.node].scale = glm::dvec3(v); break;
            }
        }
        for (uint32_t n : animated) {
            TrsD file = conv.trs(trs[n]);
            glm::quat q(file.rotation);
            // The game lerps quaternions as stored: keep neighbours on the same hemisphere.
            if (!keys[n].empty() && glm::dot(q, keys[n].back().rotation) < 0.0f) q = -q;
            keys[n].push_back(Key{glm::vec3(file.translation), q, glm::vec3(file.scale)});
        }
    }

    Output out;
    out.text("ANIM");
    out.i32(1);
    out.string(clip.name);
    out.f32(float(fps));
    out.i32(frames);
    out.i32(int32_t(animated.size()));
    for (uint32_t n : animated) {
        out.string(model.nodes[n].name);
        out.i32(int32_t(keys[n].size()));
        for (const Key& k : keys[n]) {
            out.vec3(k.position);
            out.put(glm::vec4(k.rotation.x, k.rotation.y, k.rotation.z, k.rotation.w));
            out.vec3(k.scale);
        }
    }
    return out.save(path);
}

} // namespace horde::grimrock
