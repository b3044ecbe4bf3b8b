#pragma once
// The CPU reference, in double precision: the oracle the GPU passes are tested against. Each
// step mirrors the GPU pass that does the same work, and takes plain spans in and out:
// sampleLocals is shaders/sample.comp, localToModel and meshPalette together are pose.comp
// (one invocation walks its joint's chain and applies the inverse bind), skinMesh is skin.comp
// (and the vertex technique's draw_palette.vert) with a linear blend, dualQuaternionPalette and
// skinMeshDualQuaternion pose.comp's and skin.comp's dual-quaternion variant. Half precision is
// not mirrored: the reference is what fp16 is held to, with the error it costs stated.
#include <span>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/dual_quaternion.h"
#include "anim/skinning.h"
#include "model/model.h"

namespace horde {

// How one instance plays its clip: clip time = phase + speed * time, wrapped or clamped.
struct Playback {
    int32_t clip = -1;   // -1: bind pose
    double phase = 0.0;  // seconds
    double speed = 1.0;
    bool loop = true;
};

struct TrsD {
    glm::dvec3 translation{0.0};
    glm::dquat rotation{1.0, 0.0, 0.0, 0.0};
    glm::dvec3 scale{1.0};
};

glm::dmat4 toMatrix(const TrsD& trs);
TrsD restTrs(const Node& node);

double clipTime(const Clip& clip, const Playback& playback, double time);
glm::dvec4 sampleChannel(const Clip& clip, const Channel& channel, double t);

// A second clip blended over an instance's own: `clip` at its clip time `time`, with `weight` (0:
// the instance's clip alone, 1: this one alone). A cross-fade is one (behaviour.comp).
struct Blend {
    int32_t clip = -1; // -1: the bind pose
    double time = 0.0;
    double weight = 0.0;
};

// sample.comp: every node's local transform at clip time t (rest values where no channel drives it).
void sampleLocals(const Model& model, const Clip* clip, double t, std::span<glm::dmat4> locals);
// sample.comp in a cross-fade: `clip` at `t` blended per node toward `blend`: translation and
// scale lerped, rotation by normalised lerp on the shorter arc.
void sampleBlendedLocals(const Model& model, const Clip* clip, double t, const Blend& blend,
                         std::span<glm::dmat4> locals);
// Each node's local translation, rotation and scale, the matrices' source.
std::vector<TrsD> sampleTrs(const Model& model, const Clip* clip, double t);
TrsD blendTrs(const TrsD& a, const TrsD& b, double weight);
// sample.comp's morph weights: each of the mesh's targets' weight at clip time t, the node's
// morph channel interpolated as sampleChannel does a translation; the mesh's own weights where
// the clip keys none for its node. With `blend`, lerped toward the blend clip's by its weight.
std::vector<double> sampleMorphWeights(const Model& model, const Mesh& mesh, const Clip* clip, double t,
                                       const Blend* blend = nullptr);
// pose.comp, first half: local -> model space, each node walking its own parent chain (as the GPU does).
void localToModel(const Model& model, std::span<const glm::dmat4> locals, std::span<glm::dmat4> models);
// pose.comp, second half: palette = model(joint) x inverse bind. Static meshes use their node with identity.
void meshPalette(const Model& model, const Mesh& mesh, std::span<const glm::dmat4> models,
                 std::vector<glm::dmat4>& palette);
// skin.comp, before skinning: vertex v displaced by every morph target at its weight (one per
// target; none: as stored). glTF's definition: the base plus the weighted sum of displacements.
struct MorphedVertex {
    glm::dvec3 position, normal;
};
MorphedVertex morphVertex(const Mesh& mesh, size_t v, std::span<const double> morphWeights);
// skin.comp: linear blend of each vertex's four strongest influences, or with `influences` 8 of
// all it keeps (model/influences.h), of the vertex morphed by `morphWeights`. Static meshes bind
// every vertex to palette entry 0.
void skinMesh(const Mesh& mesh, std::span<const glm::dmat4> palette, std::span<glm::dvec3> positions,
              std::span<glm::dvec3> normals, uint32_t influences = 4, std::span<const double> morphWeights = {});
// pose.comp for dual-quaternion skinning: each palette matrix split into stretch and dual quaternion.
void dualQuaternionPalette(std::span<const glm::dmat4> palette, std::vector<DualQuaternionJoint>& out);
// skin.comp, dual quaternions (anim/dual_quaternion.h), the same influences as skinMesh.
void skinMeshDualQuaternion(const Mesh& mesh, std::span<const DualQuaternionJoint> palette,
                            std::span<glm::dvec3> positions, std::span<glm::dvec3> normals, uint32_t influences = 4,
                            std::span<const double> morphWeights = {});
// The mesh skinned as `skin` says (its precision aside).
void skinMeshWith(const SkinOptions& skin, const Mesh& mesh, std::span<const glm::dmat4> palette,
                  std::span<glm::dvec3> positions, std::span<glm::dvec3> normals,
                  std::span<const double> morphWeights = {});

// Every step for one instance: model-space positions and normals of every mesh.
struct PosedMesh {
    std::vector<glm::dvec3> positions;
    std::vector<glm::dvec3> normals;
};
// With `blend`, its clip blended over the playback's (sampleBlendedLocals).
std::vector<PosedMesh> poseModel(const Model& model, const Playback& playback, double time,
                                 const SkinOptions& skin = {}, const Blend* blend = nullptr);

// Bounds of every mesh's vertices in the bind pose, in model space.
Bounds bindPoseBounds(const Model& model);

// Each mesh's vertices where the rest pose (no clip) draws them, in model space and single
// precision: what its levels of detail are simplified from (model/lod.h). A mesh the rest pose
// draws where it is stored (every vertex within kRestRounding of its size: skinning's rounding)
// keeps its stored positions exactly, so that its levels do not hinge on rounding.
constexpr double kRestRounding = 1e-5;
std::vector<std::vector<glm::vec3>> restPoseVertices(const Model& model);

} // namespace horde
