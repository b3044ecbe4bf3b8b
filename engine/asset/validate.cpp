#include "asset/validate.h"

#include <cmath>
#include <string>

namespace horde {

namespace {
Error fail(const std::string& where, const std::string& what) { return Error{where + ": " + what}; }

size_t valuesPerKey(Interpolation interpolation) { return interpolation == Interpolation::CubicSpline ? 3 : 1; }

Status validateMesh(const Model& model, const Mesh& mesh, size_t m) {
    std::string where = "mesh " + std::to_string(m) + " '" + mesh.name + "'";
    if (!mesh.storage) return fail(where, "has no vertex storage");
    if (mesh.node >= model.nodes.size()) return fail(where, "node index out of range");
    const MeshArrays& a = mesh.arrays();
    uint32_t vertices = mesh.vertexCount();
    if (mesh.indexCount() % 3 != 0) return fail(where, "index count is not a multiple of 3");
    for (size_t i = 0; i < mesh.indexCount(); ++i)
        if (a.index(i) >= vertices)
            return fail(where, "index " + std::to_string(i) + " = " + std::to_string(a.index(i)) +
                                   " is past the vertex count " + std::to_string(vertices));
    for (const Submesh& s : mesh.submeshes)
        if (uint64_t(s.firstIndex) + s.indexCount > mesh.indexCount())
            return fail(where, "submesh '" + s.material + "' runs past the index count");
    if (mesh.skinned() != mesh.layout().skinned) return fail(where, "skin and vertex layout disagree");
    if (!mesh.skinned()) return Ok{};
    if (size_t(mesh.skin) >= model.skins.size()) return fail(where, "skin index out of range");
    const Skin& skin = model.skins[mesh.skin];
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
    }
    return Ok{};
}

} // namespace horde
