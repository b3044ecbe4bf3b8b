#include "anim/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

#include "model/influences.h"

namespace horde {

glm::dmat4 toMatrix(const TrsD& trs) {
    return glm::translate(glm::dmat4(1.0), trs.translation) * glm::mat4_cast(trs.rotation) *
           glm::scale(glm::dmat4(1.0), trs.scale);
}

TrsD restTrs(const Node& node) {
    return {glm::dvec3(node.translation),
            glm::dquat(node.rotation.w, node.rotation.x, node.rotation.y, node.rotation.z),
            glm::dvec3(node.scale)};
}

double clipTime(const Clip& clip, const Playback& playback, double time) {
    double t = playback.phase + playback.speed * time;
    double d = clip.duration;
    if (d <= 0.0) return 0.0;
    if (!playback.loop || (t >= 0.0 && t <= d)) return std::clamp(t, 0.0, d);
    // The end is inclusive: a loop wraps only past it, and every later end shows the last key.
    double wrapped = t - d * std::floor(t / d);
    return wrapped == 0.0 && t > 0.0 ? d : wrapped;
}

namespace {
glm::dvec4 key(const Channel& c, size_t k, size_t part) {
    size_t stride = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
    size_t offset = c.interpolation == Interpolation::CubicSpline ? part : 0;
    return glm::dvec4(c.values[k * stride + offset]);
}

glm::dvec4 blend(const Clip& clip, const Channel& c, glm::dvec4 a, glm::dvec4 b, double u) {
    if (c.path != ChannelPath::Rotation) return a + (b - a) * u;
    double d = glm::dot(a, b);
    if (d < 0.0) { b = -b; d = -d; }
    if (clip.rotationBlend == RotationBlend::Slerp && d < 1.0 - 1e-6) {
        double angle = std::acos(std::min(d, 1.0));
        double s = std::sin(angle);
        glm::dvec4 r = a * (std::sin((1.0 - u) * angle) / s) + b * (std::sin(u * angle) / s);
        return r / glm::length(r);
    }
    glm::dvec4 r = a + (b - a) * u;
    return r / glm::length(r);
}
} // namespace

namespace {
// Where t falls among a channel's keys (sample.comp's keySpan): between keys a and b, u of the way
// (a == b: key a alone), as a cubic Hermite spline over dt where `cubic`. Translation, rotation,
// scale and morph weight channels all read their keys through it.
struct KeySpan {
    size_t a = 0, b = 0;
    double u = 0.0, dt = 0.0;
    bool cubic = false;
};

KeySpan keySpan(const Clip& clip, const std::vector<float>& times, Interpolation interpolation, double t) {
    const size_t last = times.size() - 1;
    if (last == 0 || t <= times[0]) return {};
    if (t >= times[last]) {
        const double tail = clip.duration - times[last];
        if (clip.end == ClipEnd::WrapToFirst && tail > 0.0 && interpolation != Interpolation::Step)
            return {last, 0, std::min((t - times[last]) / tail, 1.0)};
        return {last, last};
    }
    // Largest i with times[i] <= t; the tests above guarantee times[0] < t < times[last].
    size_t i = size_t(std::upper_bound(times.begin(), times.end(), float(t)) - times.begin()) - 1;
    while (i + 1 < last && double(times[i + 1]) <= t) ++i;
    while (i > 0 && double(times[i]) > t) --i;
    if (interpolation == Interpolation::Step) return {i, i};
    const double t0 = times[i], dt = double(times[i + 1]) - t0;
    return {i, i + 1, dt > 0.0 ? (t - t0) / dt : 1.0, dt, interpolation == Interpolation::CubicSpline};
}

// Cubic Hermite between p0 and p1, with tangents m0 (out of p0) and m1 (into p1) over dt.
template <class V>
V hermite(V p0, V m0, V p1, V m1, double u, double dt) {
    const double u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * p0 + (u3 - 2 * u2 + u) * dt * m0 + (-2 * u3 + 3 * u2) * p1 + (u3 - u2) * dt * m1;
}
} // namespace

glm::dvec4 sampleChannel(const Clip& clip, const Channel& c, double t) {
    const KeySpan k = keySpan(clip, c.times, c.interpolation, t);
    if (k.a == k.b) return key(c, k.a, 1);
    if (!k.cubic) return blend(clip, c, key(c, k.a, 1), key(c, k.b, 1), k.u);
    const glm::dvec4 r = hermite(key(c, k.a, 1), key(c, k.a, 2), key(c, k.b, 1), key(c, k.b, 0), k.u, k.dt);
    return c.path == ChannelPath::Rotation ? r / glm::length(r) : r;
}

std::vector<TrsD> sampleTrs(const Model& model, const Clip* clip, double t) {
    std::vector<TrsD> trs(model.nodes.size());
    for (size_t n = 0; n < model.nodes.size(); ++n) trs[n] = restTrs(model.nodes[n]);
    if (clip) {
        for (const Channel& c : clip->channels) {
            glm::dvec4 v = sampleChannel(*clip, c, t);
            TrsD& target = trs[c.node];
            switch (c.path) {
            case ChannelPath::Translation: target.translation = glm::dvec3(v); break;
            case ChannelPath::Rotation: target.rotation = glm::dquat(v.w, v.x, v.y, v.z); break;
            case ChannelPath::Scale: target.scale = glm::dvec3(v); break;
            }
        }
    }
    return trs;
}

TrsD blendTrs(const TrsD& a, const TrsD& b, double weight) {
    TrsD out;
    out.translation = a.translation + (b.translation - a.translation) * weight;
    out.scale = a.scale + (b.scale - a.scale) * weight;
    // q and -q are one rotation: blend toward whichever lies on the shorter arc.
    const glm::dquat to = glm::dot(a.rotation, b.rotation) < 0.0 ? -b.rotation : b.rotation;
    out.rotation = glm::normalize(a.rotation + (to - a.rotation) * weight);
    return out;
}

void sampleLocals(const Model& model, const Clip* clip, double t, std::span<glm::dmat4> locals) {
    const std::vector<TrsD> trs = sampleTrs(model, clip, t);
    for (size_t n = 0; n < model.nodes.size(); ++n) locals[n] = toMatrix(trs[n]);
}

void sampleBlendedLocals(const Model& model, const Clip* clip, double t, const Blend& blend,
                         std::span<glm::dmat4> locals) {
    const std::vector<TrsD> a = sampleTrs(model, clip, t);
    const std::vector<TrsD> b =
        sampleTrs(model, blend.clip >= 0 ? &model.clips[size_t(blend.clip)] : nullptr, blend.time);
    for (size_t n = 0; n < model.nodes.size(); ++n) locals[n] = toMatrix(blendTrs(a[n], b[n], blend.weight));
}

namespace {
// The weights of a morph channel's key k (part as for key()).
std::span<const float> morphKey(const MorphChannel& c, size_t k, size_t part) {
    const size_t stride = c.interpolation == Interpolation::CubicSpline ? 3 : 1;
    const size_t offset = c.interpolation == Interpolation::CubicSpline ? part : 0;
    return std::span(c.values).subspan((k * stride + offset) * c.targets, c.targets);
}

std::vector<double> sampleMorphChannel(const Clip& clip, const MorphChannel& c, double t) {
    const KeySpan k = keySpan(clip, c.times, c.interpolation, t);
    const std::span<const float> a = morphKey(c, k.a, 1), b = morphKey(c, k.b, 1);
    std::vector<double> out(c.targets);
    for (size_t i = 0; i < out.size(); ++i) {
        if (k.a == k.b)
            out[i] = a[i];
        else if (!k.cubic)
            out[i] = double(a[i]) + (double(b[i]) - double(a[i])) * k.u;
        else
            out[i] = hermite<double>(a[i], morphKey(c, k.a, 2)[i], b[i], morphKey(c, k.b, 0)[i], k.u, k.dt);
    }
    return out;
}

// The weights `clip` gives the mesh at t: its node's channel, or the mesh's own.
std::vector<double> morphWeightsIn(const Mesh& mesh, const Clip* clip, double t) {
    if (clip)
        for (const MorphChannel& c : clip->morphs)
            if (c.node == mesh.node && c.targets == mesh.morphTargets()) return sampleMorphChannel(*clip, c, t);
    return std::vector<double>(mesh.morphWeights.begin(), mesh.morphWeights.end());
}
} // namespace

std::vector<double> sampleMorphWeights(const Model& model, const Mesh& mesh, const Clip* clip, double t,
                                       const Blend* blend) {
    std::vector<double> weights = morphWeightsIn(mesh, clip, t);
    if (!blend) return weights;
    const std::vector<double> to =
        morphWeightsIn(mesh, blend->clip >= 0 ? &model.clips[size_t(blend->clip)] : nullptr, blend->time);
    for (size_t i = 0; i < weights.size(); ++i) weights[i] += (to[i] - weights[i]) * blend->weight;
    return weights;
}

void localToModel(const Model& model, std::span<const glm::dmat4> locals, std::span<glm::dmat4> models) {
    for (size_t n = 0; n < model.nodes.size(); ++n) {
        glm::dmat4 m = locals[n];
        for (int32_t p = model.nodes[n].parent; p >= 0; p = model.nodes[p].parent) m = locals[p] * m;
        models[n] = m;
    }
}

void meshPalette(const Model& model, const Mesh& mesh, std::span<const glm::dmat4> models,
                 std::vector<glm::dmat4>& palette) {
    palette.clear();
    if (!mesh.skinned()) {
        palette.push_back(models[mesh.node]);
        return;
    }
    const Skin& skin = model.skins[mesh.skin];
    for (size_t j = 0; j < skin.joints.size(); ++j)
        palette.push_back(models[skin.joints[j]] * glm::dmat4(skin.inverseBind[j]));
}

MorphedVertex morphVertex(const Mesh& mesh, size_t v, std::span<const double> morphWeights) {
    const MeshArrays& a = mesh.arrays();
    MorphedVertex out{glm::dvec3(a.positions[v]), glm::dvec3(a.normals[v])};
    const size_t n = mesh.vertexCount();
    for (size_t t = 0; t < morphWeights.size() && t < mesh.morphTargets(); ++t) {
        out.position += morphWeights[t] * glm::dvec3(a.morphPositions[t * n + v]);
        if (!a.morphNormals.empty()) out.normal += morphWeights[t] * glm::dvec3(a.morphNormals[t * n + v]);
    }
    return out;
}

void skinMesh(const Mesh& mesh, std::span<const glm::dmat4> palette, std::span<glm::dvec3> positions,
              std::span<glm::dvec3> normals, uint32_t influences, std::span<const double> morphWeights) {
    const MeshArrays& a = mesh.arrays();
    for (size_t v = 0; v < mesh.vertexCount(); ++v) {
        const MorphedVertex morphed = morphVertex(mesh, v, morphWeights);
        glm::dmat4 m(0.0);
        if (mesh.skinned()) {
            const VertexInfluences in = influencesOf(a, v, influences);
            for (uint32_t k = 0; k < in.count; ++k)
                if (in.weights[k] > 0.0) m += palette[in.joints[k]] * in.weights[k];
        } else {
            m = palette[0];
        }
        positions[v] = glm::dvec3(m * glm::dvec4(morphed.position, 1.0));
        // Inverse transpose keeps normals perpendicular under non-uniform scale.
        glm::dvec3 n = glm::transpose(glm::inverse(glm::dmat3(m))) * morphed.normal;
        double len = glm::length(n);
        normals[v] = len > 0.0 ? n / len : n;
    }
}

void dualQuaternionPalette(std::span<const glm::dmat4> palette, std::vector<DualQuaternionJoint>& out) {
    out.clear();
    for (const glm::dmat4& m : palette) out.push_back(dualQuaternionJoint(m));
}

void skinMeshDualQuaternion(const Mesh& mesh, std::span<const DualQuaternionJoint> palette,
                            std::span<glm::dvec3> positions, std::span<glm::dvec3> normals, uint32_t influences,
                            std::span<const double> morphWeights) {
    const MeshArrays& a = mesh.arrays();
    static constexpr uint32_t rigid[] = {0};
    static constexpr double whole[] = {1.0};
    for (size_t v = 0; v < mesh.vertexCount(); ++v) {
        DualQuaternionBlend b;
        if (mesh.skinned()) {
            const VertexInfluences in = influencesOf(a, v, influences);
            b = blendDualQuaternions(palette, std::span(in.joints.data(), in.count),
                                     std::span(in.weights.data(), in.count));
        } else {
            b = blendDualQuaternions(palette, rigid, whole);
        }
        const MorphedVertex morphed = morphVertex(mesh, v, morphWeights);
        positions[v] = b.position(morphed.position);
        normals[v] = b.normal(morphed.normal);
    }
}

void skinMeshWith(const SkinOptions& skin, const Mesh& mesh, std::span<const glm::dmat4> palette,
                  std::span<glm::dvec3> positions, std::span<glm::dvec3> normals,
                  std::span<const double> morphWeights) {
    if (skin.skinning == Skinning::Lbs)
        return skinMesh(mesh, palette, positions, normals, skin.influences, morphWeights);
    std::vector<DualQuaternionJoint> joints;
    dualQuaternionPalette(palette, joints);
    skinMeshDualQuaternion(mesh, joints, positions, normals, skin.influences, morphWeights);
}

std::vector<PosedMesh> poseModel(const Model& model, const Playback& playback, double time, const SkinOptions& skin,
                                 const Blend* blend) {
    const Clip* clip = playback.clip >= 0 ? &model.clips[playback.clip] : nullptr;
    std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size()), palette;
    const double t = clip ? clipTime(*clip, playback, time) : 0.0;
    if (blend)
        sampleBlendedLocals(model, clip, t, *blend, locals);
    else
        sampleLocals(model, clip, t, locals);
    localToModel(model, locals, models);
    std::vector<PosedMesh> out(model.meshes.size());
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        meshPalette(model, mesh, models, palette);
        out[m].positions.resize(mesh.vertexCount());
        out[m].normals.resize(mesh.vertexCount());
        skinMeshWith(skin, mesh, palette, out[m].positions, out[m].normals,
                     sampleMorphWeights(model, mesh, clip, t, blend));
    }
    return out;
}

Bounds bindPoseBounds(const Model& model) {
    glm::dvec3 lo(std::numeric_limits<double>::max()), hi(std::numeric_limits<double>::lowest());
    bool any = false;
    for (const PosedMesh& mesh : poseModel(model, Playback{}, 0.0))
        for (glm::dvec3 p : mesh.positions) {
            lo = glm::min(lo, p);
            hi = glm::max(hi, p);
            any = true;
        }
    return any ? Bounds{glm::vec3(lo), glm::vec3(hi)} : Bounds{};
}

std::vector<std::vector<glm::vec3>> restPoseVertices(const Model& model) {
    std::vector<std::vector<glm::vec3>> out;
    const std::vector<PosedMesh> rest = poseModel(model, Playback{}, 0.0);
    for (size_t m = 0; m < rest.size(); ++m) {
        const std::span<const glm::vec3> stored = model.meshes[m].arrays().positions;
        double moved = 0.0;
        for (size_t v = 0; v < stored.size(); ++v)
            moved = std::max(moved, glm::length(rest[m].positions[v] - glm::dvec3(stored[v])));
        const double size = std::max(double(model.meshes[m].bounds.radius()), 1e-30);
        if (moved <= kRestRounding * size)
            out.emplace_back(stored.begin(), stored.end());
        else
            out.emplace_back(rest[m].positions.begin(), rest[m].positions.end());
    }
    return out;
}

} // namespace horde
