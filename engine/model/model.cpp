#include "model/model.h"

#include <algorithm>
#include <limits>

#include <glm/gtc/matrix_transform.hpp>

namespace horde {

int32_t findNode(const Model& model, std::string_view name) {
    for (size_t i = 0; i < model.nodes.size(); ++i)
        if (model.nodes[i].name == name) return int32_t(i);
    return -1;
}

int32_t findClip(const Model& model, std::string_view name) {
    for (size_t i = 0; i < model.clips.size(); ++i)
        if (model.clips[i].name == name) return int32_t(i);
    return -1;
}

int32_t findMaterial(const Model& model, std::string_view name) {
    for (size_t i = 0; i < model.materials.size(); ++i)
        if (model.materials[i].name == name) return int32_t(i);
    return -1;
}

namespace {
// A joint for the mesh's own node whose inverse bind is the inverse of that node's rest model
// transform: a vertex bound to it with weight 1 stays where the file put it in the bind pose.
uint16_t rigidJoint(Model& model, Mesh& mesh) {
    Skin& skin = model.skins[mesh.skin];
    glm::mat4 rest(1.0f);
    for (int32_t n = int32_t(mesh.node); n >= 0; n = model.nodes[n].parent) {
        const Node& node = model.nodes[n];
        glm::mat4 local = glm::translate(glm::mat4(1.0f), node.translation) * glm::mat4_cast(node.rotation) *
                          glm::scale(glm::mat4(1.0f), node.scale);
        rest = local * rest;
    }
    glm::mat4 inverse = glm::inverse(rest);
    for (size_t j = 0; j < skin.joints.size(); ++j)
        if (skin.joints[j] == mesh.node && skin.inverseBind[j] == inverse) return uint16_t(j);
    skin.joints.push_back(mesh.node);
    skin.inverseBind.push_back(inverse);
    return uint16_t(skin.joints.size() - 1);
}
} // namespace

void finalizeMeshes(Model& model) {
    for (Mesh& mesh : model.meshes) {
        if (!mesh.storage) continue;
        MeshArrays& a = mesh.arrays();
        if (mesh.skinned() && size_t(mesh.skin) < model.skins.size() && mesh.node < model.nodes.size()) {
            int32_t rigid = -1;
            for (size_t v = 0; v < a.weights.size(); ++v) {
                glm::vec4 w = a.weights[v];
                if (w.x + w.y + w.z + w.w > 0.0f) continue;
                if (rigid < 0) rigid = rigidJoint(model, mesh);
                a.joints[v] = glm::u16vec4(uint16_t(rigid), 0, 0, 0);
                a.weights[v] = glm::vec4(1, 0, 0, 0);
            }
        }
        Bounds b{glm::vec3(std::numeric_limits<float>::max()), glm::vec3(std::numeric_limits<float>::lowest())};
        for (glm::vec3 p : a.positions) {
            b.min = glm::min(b.min, p);
            b.max = glm::max(b.max, p);
        }
        mesh.bounds = a.positions.empty() ? Bounds{} : b;
        for (const Submesh& s : mesh.submeshes)
            if (!s.material.empty() && findMaterial(model, s.material) < 0)
                model.materials.push_back({.name = s.material, .defined = false});
    }
}

std::vector<uint32_t> morphTargetsByNode(const Model& model) {
    std::vector<uint32_t> targets(model.nodes.size(), 0);
    for (const Mesh& mesh : model.meshes)
        if (mesh.morphTargets() > 0 && mesh.node < targets.size()) targets[mesh.node] = mesh.morphTargets();
    return targets;
}

} // namespace horde
