#include "model/validate.h"

#include <algorithm>
#include <cmath>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace horde {

namespace {
Error fail(const std::string& where, const std::string& what) { return Error{where + ": " + what}; }

size_t valuesPerKey(Interpolation interpolation) { return interpolation == Interpolation::CubicSpline ? 3 : 1; }

// A whole load passes over every stream again here, so each check runs first as one pass
// without branches; only a mesh that fails is walked again, an element at a time, to name the
// first bad element. The compiler vectorizes this one.
template <class Index> bool indicesBelow(std::span<const Index> indices, uint32_t vertices) {
    Index largest = 0;
    for (Index i : indices) largest = i > largest ? i : largest;
    return indices.empty() || largest < vertices;
}

// Each vertex's weights are numbers, none negative, summing to one within 1e-3 (added in slot
// order), and each slot that carries weight names one of `jointCount` joints.
bool influencesHold(std::span<const glm::vec4> weights, std::span<const glm::u16vec4> joints,
                    size_t jointCount) {
    size_t v = 0;
#if defined(__SSE2__)
    // Four vertices a step, transposed so that each lane sums one vertex's slots in order.
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), tolerance = _mm_set1_ps(1e-3f);
    const __m128 magnitude = _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF));
    const __m128i lastJoint = _mm_set1_epi32(int32_t(std::min<size_t>(jointCount, 65536)) - 1);
    __m128i bad = _mm_setzero_si128();
    for (; v + 4 <= weights.size(); v += 4) {
        __m128 w[4];
        for (int k = 0; k < 4; ++k) w[k] = _mm_loadu_ps(&weights[v + size_t(k)].x);
        const __m128i pairs[2] = {_mm_loadu_si128(reinterpret_cast<const __m128i*>(&joints[v])),
                                  _mm_loadu_si128(reinterpret_cast<const __m128i*>(&joints[v + 2]))};
        for (int k = 0; k < 4; ++k) {
            const __m128i j = (k & 1) ? _mm_unpackhi_epi16(pairs[k / 2], _mm_setzero_si128())
                                      : _mm_unpacklo_epi16(pairs[k / 2], _mm_setzero_si128());
            const __m128i weighted = _mm_castps_si128(_mm_cmpgt_ps(w[k], zero));
            const __m128i unnamed = _mm_and_si128(weighted, _mm_cmpgt_epi32(j, lastJoint));
            bad = _mm_or_si128(bad, _mm_or_si128(unnamed, _mm_castps_si128(_mm_cmpnge_ps(w[k], zero))));
        }
        _MM_TRANSPOSE4_PS(w[0], w[1], w[2], w[3]);
        const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_add_ps(_mm_add_ps(zero, w[0]), w[1]), w[2]), w[3]);
        const __m128 off = _mm_and_ps(_mm_sub_ps(sum, one), magnitude);
        bad = _mm_or_si128(bad, _mm_castps_si128(_mm_cmpgt_ps(off, tolerance)));
    }
    if (_mm_movemask_epi8(bad) != 0) return false;
#endif
    for (; v < weights.size(); ++v) {
        float sum = 0.0f;
        for (int k = 0; k < 4; ++k) {
            const float w = weights[v][k];
            if (!(w >= 0.0f) || (w > 0.0f && joints[v][k] >= jointCount)) return false;
            sum += w;
        }
        if (std::abs(sum - 1.0f) > 1e-3f) return false;
    }
    return true;
}

// Influences five to eight: numbers, none negative, naming joints where they carry weight, and
// together no more than half of the eight's total (each is weaker than each of the first four).
Status moreInfluencesHold(std::span<const MoreInfluences> more, size_t jointCount, const std::string& where) {
    for (size_t v = 0; v < more.size(); ++v) {
        float sum = 0.0f;
        for (int k = 0; k < 4; ++k) {
            const float w = more[v].weights[k];
            if (!(w >= 0.0f) || !std::isfinite(w))
                return fail(where, "vertex " + std::to_string(v) + " has a negative or non-finite weight among influences five to eight");
            if (w > 0.0f && more[v].joints[k] >= jointCount)
                return fail(where, "vertex " + std::to_string(v) + " names joint " + std::to_string(more[v].joints[k]) +
                                       " of " + std::to_string(jointCount));
            sum += w;
        }
        if (sum > 0.5f + 1e-3f)
            return fail(where, "vertex " + std::to_string(v) + " gives influences five to eight " + std::to_string(sum) +
                                   " of its weight, more than its four strongest");
    }
    return Ok{};
}

Status validateMorphs(const Mesh& mesh, const std::string& where) {
    const uint32_t targets = mesh.morphTargets();
    if (mesh.morphWeights.size() != targets)
        return fail(where, std::to_string(mesh.morphWeights.size()) + " morph weights for " + std::to_string(targets) +
                               " targets");
    if (!mesh.morphNames.empty() && mesh.morphNames.size() != targets)
        return fail(where, std::to_string(mesh.morphNames.size()) + " morph target names for " +
                               std::to_string(targets) + " targets");
    for (float w : mesh.morphWeights)
        if (!std::isfinite(w)) return fail(where, "a morph weight is not finite");
    const MeshArrays& a = mesh.arrays();
    for (std::span<const glm::vec3> displacements : {std::span<const glm::vec3>(a.morphPositions),
                                                     std::span<const glm::vec3>(a.morphNormals)})
        for (size_t i = 0; i < displacements.size(); ++i)
            if (!finite(glm::vec4(displacements[i], 0.0f)))
                return fail(where, "morph target " + std::to_string(i / mesh.vertexCount()) + " moves vertex " +
                                       std::to_string(i % mesh.vertexCount()) + " by a value that is not finite");
    return Ok{};
}

// The morph targets a node's meshes have: one count for all of them, 0 for none.
Result<uint32_t> morphTargetsOf(const Model& model, uint32_t node) {
    uint32_t targets = 0;
    for (const Mesh& mesh : model.meshes)
        if (mesh.node == node && mesh.morphTargets() > 0) {
            if (targets != 0 && targets != mesh.morphTargets())
                return Error{"node '" + model.nodes[node].name + "': its meshes have different morph target counts"};
            targets = mesh.morphTargets();
        }
    return targets;
}

Status validateMorphChannel(const Model& model, const MorphChannel& c, const std::string& where) {
    if (c.node >= model.nodes.size()) return fail(where, "morph channel names node " + std::to_string(c.node) + " out of range");
    const std::string of = "morph channel of node '" + model.nodes[c.node].name + "'";
    Result<uint32_t> targets = morphTargetsOf(model, c.node);
    if (!targets) return fail(where, targets.error().message);
    if (c.targets != *targets)
        return fail(where, of + " keys " + std::to_string(c.targets) + " weights; the node's meshes have " +
                               std::to_string(*targets) + " morph targets");
    if (c.times.empty()) return fail(where, of + " has no keys");
    if (c.values.size() != c.times.size() * valuesPerKey(c.interpolation) * c.targets)
        return fail(where, of + " has mismatched key and value counts");
    for (size_t k = 0; k < c.times.size(); ++k)
        if (!std::isfinite(c.times[k]) || (k > 0 && c.times[k] < c.times[k - 1]))
            return fail(where, "key times of " + of + " are not increasing");
    for (float v : c.values)
        if (!std::isfinite(v)) return fail(where, of + " has a non-finite value");
    return Ok{};
}

Status validateMesh(const Model& model, const Mesh& mesh, size_t m) {
    std::string where = "mesh " + std::to_string(m) + " '" + mesh.name + "'";
    if (!mesh.storage) return fail(where, "has no vertex storage");
    if (mesh.node >= model.nodes.size()) return fail(where, "node index out of range");
    const MeshArrays& a = mesh.arrays();
    uint32_t vertices = mesh.vertexCount();
    if (mesh.indexCount() % 3 != 0) return fail(where, "index count is not a multiple of 3");
    const bool inRange = a.indices16.empty() ? indicesBelow<uint32_t>(a.indices32, vertices)
                                             : indicesBelow<uint16_t>(a.indices16, vertices);
    for (size_t i = 0; !inRange && i < mesh.indexCount(); ++i)
        if (a.index(i) >= vertices)
            return fail(where, "index " + std::to_string(i) + " = " + std::to_string(a.index(i)) +
                                   " is past the vertex count " + std::to_string(vertices));
    for (const Submesh& s : mesh.submeshes)
        if (uint64_t(s.firstIndex) + s.indexCount > mesh.indexCount())
            return fail(where, "submesh '" + s.material + "' runs past the index count");
    if (mesh.dangly && mesh.dangly->constraints.size() != vertices)
        return fail(where, "has " + std::to_string(mesh.dangly->constraints.size()) + " dangly constraints for " +
                               std::to_string(vertices) + " vertices");
    if (Status st = validateMorphs(mesh, where); !st) return st;
    if (mesh.skinned() != mesh.layout().skinned) return fail(where, "skin and vertex layout disagree");
    if (!mesh.skinned()) return Ok{};
    if (size_t(mesh.skin) >= model.skins.size()) return fail(where, "skin index out of range");
    const Skin& skin = model.skins[mesh.skin];
    if (Status st = moreInfluencesHold(a.more, skin.joints.size(), where); !st) return st;
    if (influencesHold(a.weights, a.joints, skin.joints.size())) return Ok{};
    for (uint32_t v = 0; v < vertices; ++v) {
        float sum = 0.0f;
        for (int k = 0; k < 4; ++k) {
            if (!(a.weights[v][k] >= 0.0f)) return fail(where, "vertex " + std::to_string(v) + " has a negative or NaN weight");
            if (a.weights[v][k] > 0.0f && a.joints[v][k] >= skin.joints.size())
                return fail(where, "vertex " + std::to_string(v) + " names joint " + std::to_string(a.joints[v][k]) +
                                       " of " + std::to_string(skin.joints.size()));
            sum += a.weights[v][k];
        }
        if (std::abs(sum - 1.0f) > 1e-3f) return fail(where, "vertex " + std::to_string(v) + " weights sum to " + std::to_string(sum));
    }
    return Ok{};
}
} // namespace

Status validateModel(const Model& model) {
    if (model.nodes.empty()) return Error{"model has no nodes"};
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& n = model.nodes[i];
        if (n.parent >= int32_t(i) || n.parent < -1)
            return fail("node " + std::to_string(i) + " '" + n.name + "'", "parent " + std::to_string(n.parent) + " does not precede it");
        if (!finite(glm::vec4(n.translation, 0)) || !finite(glm::vec4(n.scale, 0)) ||
            !finite(glm::vec4(n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w)))
            return fail("node " + std::to_string(i) + " '" + n.name + "'", "rest transform is not finite");
    }
    for (size_t s = 0; s < model.skins.size(); ++s) {
        const Skin& skin = model.skins[s];
        if (skin.joints.size() != skin.inverseBind.size()) return fail("skin " + std::to_string(s), "joint and inverse bind counts differ");
        if (skin.joints.size() > 65535) return fail("skin " + std::to_string(s), "more than 65535 joints");
        for (uint32_t j : skin.joints)
            if (j >= model.nodes.size()) return fail("skin " + std::to_string(s), "joint names node " + std::to_string(j) + " out of range");
    }
    for (size_t m = 0; m < model.meshes.size(); ++m)
        if (Status st = validateMesh(model, model.meshes[m], m); !st) return st;
    for (const Clip& clip : model.clips) {
        std::string where = "clip '" + clip.name + "'";
        if (!(clip.duration >= 0.0f) || !std::isfinite(clip.duration)) return fail(where, "duration is negative or not finite");
        for (const Channel& c : clip.channels) {
            if (c.node >= model.nodes.size()) return fail(where, "channel names node " + std::to_string(c.node) + " out of range");
            if (c.times.empty()) return fail(where, "channel of node '" + model.nodes[c.node].name + "' has no keys");
            if (c.values.size() != c.times.size() * valuesPerKey(c.interpolation))
                return fail(where, "channel of node '" + model.nodes[c.node].name + "' has mismatched key and value counts");
            for (size_t k = 0; k < c.times.size(); ++k) {
                if (!std::isfinite(c.times[k]) || (k > 0 && c.times[k] < c.times[k - 1]))
                    return fail(where, "key times of node '" + model.nodes[c.node].name + "' are not increasing");
            }
            for (glm::vec4 v : c.values)
                if (!finite(v)) return fail(where, "channel of node '" + model.nodes[c.node].name + "' has a non-finite value");
        }
        std::vector<bool> keyed(model.nodes.size(), false);
        for (const MorphChannel& c : clip.morphs) {
            if (Status st = validateMorphChannel(model, c, where); !st) return st;
            if (keyed[c.node]) return fail(where, "two morph channels for node '" + model.nodes[c.node].name + "'");
            keyed[c.node] = true;
        }
    }
    return Ok{};
}

} // namespace horde
