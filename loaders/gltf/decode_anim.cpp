#include "gltf/gltf.h"

#include <algorithm>

#include "format.h"

namespace horde::gltf {

namespace {
Result<Interpolation> interpolation(const std::string& name, const std::string& field) {
    if (name == "LINEAR" || name.empty()) return Interpolation::Linear;
    if (name == "STEP") return Interpolation::Step;
    if (name == "CUBICSPLINE") return Interpolation::CubicSpline;
    return Error{field + ": unknown sampler interpolation '" + name + "'"};
}

// A channel's sampler, its interpolation and its key times.
struct SamplerKeys {
    const tinygltf::AnimationSampler* sampler;
    Interpolation interpolation;
    AccessorView input;
};

Result<SamplerKeys> samplerOf(BufferViews& views, const tinygltf::Animation& anim,
                              const tinygltf::AnimationChannel& ch, const std::string& field) {
    if (ch.sampler < 0 || size_t(ch.sampler) >= anim.samplers.size())
        return Error{field + ": sampler " + std::to_string(ch.sampler) + " out of range"};
    const tinygltf::AnimationSampler& s = anim.samplers[ch.sampler];
    Result<Interpolation> interp = interpolation(s.interpolation, field);
    if (!interp) return interp.error();
    Result<AccessorView> input =
        view(views, s.input, TINYGLTF_TYPE_SCALAR, {TINYGLTF_COMPONENT_TYPE_FLOAT}, field + " input");
    if (!input) return input.error();
    return SamplerKeys{&s, *interp, *input};
}

// A `weights` channel: its output holds every morph target's weight at each key (glTF
// "Animations": float or normalized integers), so its count must be a multiple of the keys.
Result<MorphChannel> decodeMorphChannel(BufferViews& views, const tinygltf::Animation& anim,
                                        const tinygltf::AnimationChannel& ch, uint32_t node, uint32_t targets,
                                        const std::string& field, Budget& keys) {
    Result<SamplerKeys> sampler = samplerOf(views, anim, ch, field);
    if (!sampler) return sampler.error();
    const tinygltf::AnimationSampler& s = *sampler->sampler;
    Result<AccessorView> output =
        view(views, s.output, TINYGLTF_TYPE_SCALAR,
             {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
              TINYGLTF_COMPONENT_TYPE_SHORT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
             field + " output");
    if (!output) return output.error();
    const size_t perKey = (sampler->interpolation == Interpolation::CubicSpline ? 3 : 1) * size_t(targets);
    if (sampler->input.count == 0) return Error{field + ": sampler has no keys"};
    if (output->count != sampler->input.count * perKey)
        return Error{field + ": output has " + std::to_string(output->count) + " weights for " +
                     std::to_string(sampler->input.count) + " keys of " + std::to_string(targets) + " morph targets (" +
                     s.interpolation + ")"};
    const uint64_t bytes = (sampler->input.count + output->count) * sizeof(float);
    if (!keys.take(bytes)) return Error{field + ": " + std::to_string(bytes) + " " + keys.reason()};
    MorphChannel c;
    c.node = node;
    c.interpolation = sampler->interpolation;
    c.targets = targets;
    c.times.resize(sampler->input.count);
    for (size_t k = 0; k < sampler->input.count; ++k)
        c.times[k] = sampler->input.get(k, 0);
    c.values.resize(output->count);
    for (size_t k = 0; k < output->count; ++k)
        c.values[k] = output->get(k, 0);
    return c;
}

Result<Channel> decodeChannel(BufferViews& views, const tinygltf::Animation& anim,
                              const tinygltf::AnimationChannel& ch, ChannelPath path, uint32_t node,
                              const std::string& field, Budget& keys) {
    Result<SamplerKeys> sampler = samplerOf(views, anim, ch, field);
    if (!sampler) return sampler.error();
    const tinygltf::AnimationSampler& s = *sampler->sampler;
    bool rotation = path == ChannelPath::Rotation;
    // Rotations may be normalized integers (glTF "Animations": sampler outputs).
    auto output = rotation ? view(views, s.output, TINYGLTF_TYPE_VEC4,
                                  {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_BYTE,
                                   TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_SHORT,
                                   TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                                  field + " output")
                           : view(views, s.output, TINYGLTF_TYPE_VEC3, {TINYGLTF_COMPONENT_TYPE_FLOAT},
                                  field + " output");
    if (!output) return output.error();
    size_t perKey = sampler->interpolation == Interpolation::CubicSpline ? 3 : 1;
    if (sampler->input.count == 0) return Error{field + ": sampler has no keys"};
    if (output->count != sampler->input.count * perKey)
        return Error{field + ": output has " + std::to_string(output->count) + " values for " +
                     std::to_string(sampler->input.count) + " keys (" + s.interpolation + " needs " +
                     std::to_string(perKey) + " per key)"};
    uint64_t bytes = sampler->input.count * sizeof(float) + output->count * sizeof(glm::vec4);
    if (!keys.take(bytes)) return Error{field + ": " + std::to_string(bytes) + " " + keys.reason()};
    Channel c;
    c.node = node;
    c.path = path;
    c.interpolation = sampler->interpolation;
    c.times.resize(sampler->input.count);
    for (size_t k = 0; k < sampler->input.count; ++k)
        c.times[k] = sampler->input.get(k, 0);
    c.values.resize(output->count);
    for (size_t k = 0; k < output->count; ++k)
        c.values[k] = output->vec4(k);
    return c;
}
} // namespace

Result<std::vector<Clip>> decodeClips(BufferViews& views, const std::vector<int32_t>& nodeOf,
                                      std::span<const uint32_t> morphTargets, std::vector<std::string>& warnings,
                                      Budget& keys) {
    const tinygltf::Model& gltf = views.gltf();
    std::vector<Clip> clips;
    for (size_t a = 0; a < gltf.animations.size(); ++a) {
        const tinygltf::Animation& anim = gltf.animations[a];
        Clip clip;
        clip.name = anim.name; // unnamed: the file's stem (finishModel)
        std::string where = "animation " + std::to_string(a) + " '" + clip.name + "'";
        for (size_t i = 0; i < anim.channels.size(); ++i) {
            const tinygltf::AnimationChannel& ch = anim.channels[i];
            std::string field = where + " channel " + std::to_string(i);
            if (ch.target_node < 0) continue; // targets defined by extensions: nothing horde animates
            if (size_t(ch.target_node) >= nodeOf.size())
                return Error{field + ": target node " + std::to_string(ch.target_node) + " out of range"};
            int32_t node = nodeOf[ch.target_node];
            if (node < 0)
                return Error{field + ": target node " + std::to_string(ch.target_node) +
                             " is not in the model"};
            ChannelPath path;
            if (ch.target_path == "translation")
                path = ChannelPath::Translation;
            else if (ch.target_path == "rotation")
                path = ChannelPath::Rotation;
            else if (ch.target_path == "scale")
                path = ChannelPath::Scale;
            else if (ch.target_path == "weights") {
                if (morphTargets[size_t(node)] == 0) {
                    warnings.push_back(field + ": keys morph weights of node '" + gltf.nodes[ch.target_node].name +
                                       "', whose meshes have no morph targets; skipped");
                    continue;
                }
                if (std::any_of(clip.morphs.begin(), clip.morphs.end(),
                                [&](const MorphChannel& m) { return m.node == uint32_t(node); }))
                    return Error{field + ": a second weights channel for one node"};
                Result<MorphChannel> c =
                    decodeMorphChannel(views, anim, ch, uint32_t(node), morphTargets[size_t(node)], field, keys);
                if (!c) return c.error();
                clip.duration = std::max(clip.duration, c->times.back());
                clip.morphs.push_back(std::move(*c));
                continue;
            } else {
                warnings.push_back(field + ": '" + ch.target_path + "' channels are not animated by horde");
                continue;
            }
            Result<Channel> c = decodeChannel(views, anim, ch, path, uint32_t(node), field, keys);
            if (!c) return c.error();
            clip.duration = std::max(clip.duration, c->times.back());
            clip.channels.push_back(std::move(*c));
        }
        // A clip written by horde with a hold after its last key says how long it is.
        if (anim.extras.Has("duration") && anim.extras.Get("duration").IsNumber()) {
            double d = anim.extras.Get("duration").GetNumberAsDouble();
            if (d > clip.duration && d < 1e9) clip.duration = float(d);
        }
        // One that keys nothing holds a channel only because glTF asks for one (write.cpp).
        if (anim.extras.Has(kKeysNothing) && anim.extras.Get(kKeysNothing).IsBool() &&
            anim.extras.Get(kKeysNothing).Get<bool>())
            clip.channels.clear(), clip.morphs.clear();
        clips.push_back(std::move(clip));
        // The clip holds its own keys: what its samplers decompressed to is no longer needed.
        views.release();
    }
    return clips;
}

} // namespace horde::gltf
