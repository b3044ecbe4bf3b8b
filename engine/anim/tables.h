#pragma once
// The asset model flattened into the tables the GPU passes read (shaders/gpu_types.h). Built on
// the CPU once per model; nothing here changes per frame.
#include <vector>

#include "model/model.h"
#include "shaders/gpu_types.h"

namespace horde {

struct AnimationTables {
    std::vector<gpu::NodeRest> rest;          // per node
    std::vector<gpu::ClipRecord> clips;       // per clip
    std::vector<uint32_t> channelTable;       // per (clip, node, path): channel or HORDE_NONE
    std::vector<gpu::ChannelRecord> channels;
    std::vector<float> times;
    std::vector<glm::vec4> values;
    std::vector<gpu::JointRecord> joints;     // every skin's joints, then one per static mesh
    std::vector<uint32_t> meshJointBase;      // per mesh: its first joint in `joints`
    // Morph targets (gpu::MorphTables): weights channels are among `channels` (path 3), their
    // keys' times among `times` and their weights in `morphValues`, after every mesh's resting ones.
    std::vector<gpu::MorphMeshRecord> morphMeshes; // per mesh
    std::vector<uint32_t> morphChannelTable;       // per (clip, mesh): channel or HORDE_NONE
    std::vector<float> morphValues;
    uint32_t morphWeightCount = 0;                 // words per pose slot: every morphing mesh's run
};

AnimationTables buildAnimationTables(const Model& model);

gpu::Affine toAffine(const glm::mat4& m);
glm::dmat4 fromAffine(const gpu::Affine& a);

// Key spacing when a channel's keys are uniform within float rounding, else 0.
float uniformKeyStep(const std::vector<float>& times);

} // namespace horde
