#include "anim/root_motion.h"

#include <limits>
#include <vector>

#include "anim/reference.h"

namespace horde {

namespace {

glm::dvec3 upOf(const Model& model) {
    return model.axes.up == Axes::Up::Z ? glm::dvec3(0, 0, 1) : glm::dvec3(0, 1, 0);
}

// Whether moving `node` moves something drawn: a mesh's node or a joint is it or below it.
bool movesDrawn(const Model& model, uint32_t node) {
    auto below = [&](int32_t n) {
        for (; n >= 0; n = model.nodes[size_t(n)].parent)
            if (uint32_t(n) == node) return true;
        return false;
    };
    for (const Mesh& mesh : model.meshes)
        if (below(int32_t(mesh.node))) return true;
    for (const Skin& skin : model.skins)
        for (uint32_t joint : skin.joints)
            if (below(int32_t(joint))) return true;
    return false;
}

uint32_t depthOf(const Model& model, uint32_t node) {
    uint32_t depth = 0;
    for (int32_t p = model.nodes[node].parent; p >= 0; p = model.nodes[size_t(p)].parent)
        ++depth;
    return depth;
}

// The linear part of each node's rest transform in model space: what its children's translation
// keys are turned and scaled by.
std::vector<glm::dmat3> restLinear(const Model& model) {
    std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size());
    sampleLocals(model, nullptr, 0.0, locals);
    localToModel(model, locals, models);
    return std::vector<glm::dmat3>(models.begin(), models.end());
}

glm::dmat3 parentLinear(const Model& model, const std::vector<glm::dmat3>& rest, uint32_t node) {
    const int32_t parent = model.nodes[node].parent;
    return parent < 0 ? glm::dmat3(1.0) : rest[size_t(parent)];
}

// Whether `clip`, played in place, ends where it began.
bool loops(const Model& model, const Clip& clip, const RootMotion& motion, double radius) {
    Clip inPlace = clip;
    playInPlace(model, inPlace, motion);
    std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size()), palette;
    double farthest = 0.0;
    std::vector<std::vector<glm::dvec3>> ends;
    for (double t : {0.0, double(clip.duration)}) {
        sampleLocals(model, &inPlace, t, locals);
        localToModel(model, locals, models);
        std::vector<glm::dvec3>& all = ends.emplace_back();
        for (const Mesh& mesh : model.meshes) {
            meshPalette(model, mesh, models, palette);
            std::vector<glm::dvec3> p(mesh.vertexCount()), n(mesh.vertexCount());
            skinMesh(mesh, palette, p, n);
            all.insert(all.end(), p.begin(), p.end());
        }
    }
    for (size_t v = 0; v < ends[0].size(); ++v)
        farthest = std::max(farthest, glm::length(ends[1][v] - ends[0][v]));
    return farthest <= double(kLoopShare) * radius;
}

} // namespace

RootMotion rootMotionOf(const Model& model, const Clip& clip) {
    RootMotion best{-1, glm::vec3(0.0f), clip.duration};
    if (!(clip.duration > 0.0f)) return best;
    const double radius = double(bindPoseBounds(model).radius());
    const double minimum = double(kTravelShare) * radius;
    const glm::dvec3 up = upOf(model);
    const std::vector<glm::dmat3> rest = restLinear(model);
    uint32_t bestDepth = std::numeric_limits<uint32_t>::max();
    double bestLength = 0.0;
    for (const Channel& c : clip.channels) {
        if (c.path != ChannelPath::Translation || c.node >= model.nodes.size()) continue;
        const uint32_t depth = depthOf(model, c.node);
        if (depth > bestDepth || !movesDrawn(model, c.node)) continue;
        if (c.times.size() < 2) continue;
        // Between the first key and the last: a Grimrock walk's keys carry it a cell, then the clip
        // wraps back to the first key in the time left after the last.
        const glm::dvec3 moved =
            parentLinear(model, rest, c.node) *
            glm::dvec3(sampleChannel(clip, c, c.times.back()) - sampleChannel(clip, c, c.times.front()));
        const glm::dvec3 across = moved - up * glm::dot(moved, up);
        const double length = glm::length(across);
        if (!(length > minimum) || (depth == bestDepth && length <= bestLength)) continue;
        best = {int32_t(c.node), glm::vec3(across), clip.duration};
        bestDepth = depth;
        bestLength = length;
    }
    if (best.node >= 0 && !loops(model, clip, best, radius)) return {-1, glm::vec3(0.0f), clip.duration};
    return best;
}

void playInPlace(const Model& model, Clip& clip, const RootMotion& motion) {
    if (motion.node < 0 || !(clip.duration > 0.0f)) return;
    const uint32_t node = uint32_t(motion.node);
    const glm::dmat3 toKeys = glm::inverse(parentLinear(model, restLinear(model), node));
    for (Channel& c : clip.channels) {
        if (c.path != ChannelPath::Translation || c.node != node || c.times.size() < 2) continue;
        // Per second of clip, in the root's parent frame where its keys are: the travel over its
        // keys' span, so that its last key comes back to its first.
        const double span = double(c.times.back()) - double(c.times.front());
        if (!(span > 0.0)) continue;
        const glm::dvec3 rate = toKeys * glm::dvec3(motion.travel) / span;
        const bool cubic = c.interpolation == Interpolation::CubicSpline;
        for (size_t k = 0; k < c.times.size(); ++k) {
            const glm::dvec3 offset = rate * (double(c.times[k]) - double(c.times.front()));
            if (!cubic) {
                c.values[k] = glm::vec4(glm::dvec3(c.values[k]) - offset, c.values[k].w);
                continue;
            }
            glm::vec4* triple = &c.values[3 * k]; // in-tangent, value, out-tangent
            triple[0] = glm::vec4(glm::dvec3(triple[0]) - rate, triple[0].w);
            triple[1] = glm::vec4(glm::dvec3(triple[1]) - offset, triple[1].w);
            triple[2] = glm::vec4(glm::dvec3(triple[2]) - rate, triple[2].w);
        }
    }
}

void extractRootMotion(Model& model) {
    for (Clip& clip : model.clips) {
        const RootMotion motion = rootMotionOf(model, clip);
        if (motion.node < 0) continue;
        playInPlace(model, clip, motion);
        clip.travel += motion.travel;
    }
}

} // namespace horde
