#pragma once
// The one asset model every loader fills and every consumer (CPU reference, GPU passes,
// renderer, writers) reads. Plain data; vertex streams live in MeshStorage, which may be
// mapped GPU memory so that loaders decode straight into it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "model/axes.h"
#include "model/material.h"
#include "model/mesh_storage.h"

namespace horde {

struct Node {
    std::string name;
    int32_t parent = -1; // parents precede their children: parent < own index
    glm::vec3 translation{0.0f};
    glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 scale{1.0f};
};

enum class ChannelPath : uint8_t { Translation, Rotation, Scale };
enum class Interpolation : uint8_t {
    Linear,     // lerp; rotations nlerp along the shortest arc
    Step,       // hold each key until the next
    CubicSpline // glTF semantics: three values per key (in-tangent, value, out-tangent)
};

// One animated property of one node, with its own key times (seconds, non-decreasing).
struct Channel {
    uint32_t node = 0;
    ChannelPath path = ChannelPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;
    std::vector<glm::vec4> values; // xyz for translation and scale, xyzw for rotation
};

// One node's morph weights over time: each key holds a weight for every morph target of the
// node's meshes, as glTF keys them (its `weights` path).
struct MorphChannel {
    uint32_t node = 0;
    Interpolation interpolation = Interpolation::Linear;
    uint32_t targets = 0;      // weights a key holds
    std::vector<float> times;  // seconds, non-decreasing
    std::vector<float> values; // key after key: `targets` weights (CubicSpline: in-tangents, weights,
                               // out-tangents, `targets` of each)
};

// What a looping clip does between its last key and its duration.
enum class ClipEnd : uint8_t {
    Hold,       // keep the last key (glTF, EMI, NWN)
    WrapToFirst // interpolate from the last key back to the first (Grimrock)
};

// How linear rotation keys blend: glTF, EMI and NWN slerp; Grimrock's runtime nlerps.
enum class RotationBlend : uint8_t { Slerp, Nlerp };

struct Clip {
    std::string name;
    float duration = 0.0f;
    ClipEnd end = ClipEnd::Hold;
    RotationBlend rotationBlend = RotationBlend::Slerp;
    int32_t priority = 0;  // layer priority where a format has one (EMI); informational
    std::string source;    // file the clip came from, when not the model file itself
    std::vector<Channel> channels;
    std::vector<MorphChannel> morphs; // at most one a node
    // Nodes the file keys that the model lacks (formats that bind keys by node name): their keys
    // are not read. One warning sums them up for the model; `--verbose` and `horde info` list them by clip.
    std::vector<std::string> absentNodes;
    float transition = -1.0f; // the cross-fade into it, seconds, where the format gives one (NWN transtime); < 0: none
    // The travel its root made, taken out of its keys for a crowd (anim/root_motion.h): model
    // space, across the ground; zero while the clip is as the file has it.
    glm::vec3 travel{0.0f};
};

struct Skin {
    std::vector<uint32_t> joints;          // node index of each joint
    std::vector<glm::mat4> inverseBind;    // one per joint: model space -> joint space
};

struct Submesh {
    std::string material; // names one of Model::materials (empty: none)
    uint32_t firstIndex = 0;
    uint32_t indexCount = 0;
};

struct Bounds {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
    glm::vec3 center() const { return (min + max) * 0.5f; }
    float radius() const { return glm::length(max - min) * 0.5f; }
};

// An NWN danglymesh's sway: each vertex's constraint (how far the game's dangle physics lets it
// swing, 0 = fixed) and the mesh's displacement, tightness and period. horde draws the mesh
// rigid; the record is kept so that conversions between NWN files keep it.
struct Dangly {
    std::vector<float> constraints; // one per vertex
    float displacement = 0.0f, tightness = 0.0f, period = 0.0f;
};

struct Mesh {
    std::string name;
    uint32_t node = 0;  // static meshes are placed by this node's model transform
    int32_t skin = -1;  // index into Model::skins; skinned vertices are in model space
    std::vector<Submesh> submeshes;
    Bounds bounds;      // of the vertex positions as stored
    std::unique_ptr<MeshStorage> storage;
    std::optional<Dangly> dangly; // NWN danglymeshes only
    // Morph targets (layout().morphTargets; their displacements are in the arrays): the weights
    // they hold where no clip keys them (glTF's mesh or node `weights`), and their names where the
    // file gives them (empty, or one per target).
    std::vector<float> morphWeights;
    std::vector<std::string> morphNames;

    const MeshLayout& layout() const { return storage->layout; }
    const MeshArrays& arrays() const { return storage->arrays; }
    MeshArrays& arrays() { return storage->arrays; }
    uint32_t vertexCount() const { return storage->layout.vertexCount; }
    uint32_t indexCount() const { return storage->layout.indexCount; }
    bool skinned() const { return skin >= 0; }
    uint32_t morphTargets() const { return storage->layout.morphTargets; }
};

// Things a format carries that horde reads and reports but does not draw.
struct Extra {
    std::string kind;   // "light", "walkmesh", "emitter", "socket", ...
    std::string node;
    std::string detail;
};

struct Model {
    std::string format; // loader id: builtin, grimrock, nwn, emi, swtor, gltf
    std::vector<Node> nodes;
    std::vector<Skin> skins;
    std::vector<Mesh> meshes;
    std::vector<Clip> clips;
    std::vector<Material>
        materials; // one per distinct submesh material name (finalizeMeshes adds any missing, undefined)
    std::vector<Extra> extras;
    std::vector<std::string> warnings; // non-fatal findings worth telling the user
    Axes axes; // the file's own (model/axes.h)
};

int32_t findNode(const Model& model, std::string_view name);
int32_t findClip(const Model& model, std::string_view name);
int32_t findMaterial(const Model& model, std::string_view name);

// Per node, how many morph targets its meshes have (0: none; validateModel refuses meshes of one
// node that differ, and here the last wins).
std::vector<uint32_t> morphTargetsByNode(const Model& model);

// Binds every skinned vertex without weight rigidly to its mesh's node (adding that node to the
// skin if needed), computes each mesh's bounds and gives every submesh material name without a
// Material a default one. Loaders call it before validateModel.
void finalizeMeshes(Model& model);

} // namespace horde
