#include "format.h"

#include <cmath>
#include <set>

#include "model/validate.h"

namespace horde {

namespace {
// Unit within float rounding already (a few ulps) is left bit for bit: normalizing again would
// only move the last bits, and a round trip through a writer would no longer be exact.
glm::vec4 unit(glm::vec4 q) {
    float length = glm::length(q);
    return length > 0.0f && std::isfinite(length) && std::abs(length - 1.0f) > 1e-6f ? q / length : q;
}

// Files store rotations a little off unit length (Khronos' BrainStem: 1.0000044). Interpolation
// renormalizes, but rest rotations and keys used as they are (before the first key, after the
// last, stepped) would not: a pose would jump by the error between t = 0 and just after.
void normalizeRotations(Model& model) {
    for (Node& n : model.nodes) {
        glm::vec4 q = unit(glm::vec4(n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w));
        n.rotation = glm::quat(q.w, q.x, q.y, q.z);
    }
    for (Clip& clip : model.clips)
        for (Channel& c : clip.channels) {
            if (c.path != ChannelPath::Rotation) continue;
            bool cubic = c.interpolation == Interpolation::CubicSpline;
            for (size_t v = cubic ? 1 : 0; v < c.values.size(); v += cubic ? 3 : 1) // tangents stay
                c.values[v] = unit(c.values[v]);
        }
}

// A clip whose file gives it no name is called after that file (its stem), so that writers keep
// a name a user recognizes and `validate` can match it: the first such clip of a file takes the
// stem, a further one the stem and its place in the file.
void nameClips(const std::filesystem::path& path, Model& model) {
    std::set<std::string> taken;
    for (const Clip& clip : model.clips)
        taken.insert(clip.name);
    for (size_t i = 0; i < model.clips.size(); ++i) {
        Clip& clip = model.clips[i];
        if (!clip.name.empty()) continue;
        std::string stem = (clip.source.empty() ? path : std::filesystem::path(clip.source)).stem().string();
        if (stem.empty()) stem = "clip";
        std::string name = stem;
        for (size_t n = i; taken.count(name); ++n)
            name = stem + "_" + std::to_string(n);
        clip.name = name;
        taken.insert(name);
    }
}
} // namespace

Status finishModel(const std::filesystem::path& path, Model& model) {
    normalizeRotations(model);
    nameClips(path, model);
    finalizeMeshes(model);
    if (Status valid = validateModel(model); !valid) return Error{path.string() + ": " + valid.error().message};
    return Ok{};
}

} // namespace horde
