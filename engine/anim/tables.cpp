#include "anim/tables.h"

#include <cmath>

namespace horde {

gpu::Affine toAffine(const glm::mat4& m) {
    return {glm::vec4(m[0][0], m[1][0], m[2][0], m[3][0]), glm::vec4(m[0][1], m[1][1], m[2][1], m[3][1]),
            glm::vec4(m[0][2], m[1][2], m[2][2], m[3][2])};
}

glm::dmat4 fromAffine(const gpu::Affine& a) {
    glm::dmat4 m(1.0);
    for (int c = 0; c < 4; ++c) {
        m[c][0] = a.r0[c];
        m[c][1] = a.r1[c];
        m[c][2] = a.r2[c];
    }
    return m;
}

float uniformKeyStep(const std::vector<float>& times) {
    if (times.size() < 3) return 0.0f;
    double step = (double(times.back()) - times.front()) / double(times.size() - 1);
    if (!(step > 0.0)) return 0.0f;
    for (size_t i = 0; i < times.size(); ++i)
        if (std::abs(times[i] - (times.front() + step * double(i))) > step * 1e-3) return 0.0f;
    return float(step);
}

namespace {

gpu::ChannelRecord channelRecord(const std::vector<float>& times, Interpolation interpolation, size_t firstTime,
                                 size_t firstValue, uint32_t path) {
    gpu::ChannelRecord r{};
    r.firstTime = uint32_t(firstTime);
    r.firstValue = uint32_t(firstValue);
    r.keyCount = uint32_t(times.size());
    r.interpolation = interpolation == Interpolation::Linear ? 0u : interpolation == Interpolation::Step ? 1u : 2u;
    r.firstKeyTime = times.front();
    const float step = uniformKeyStep(times);
    r.invStep = step > 0.0f ? 1.0f / step : 0.0f;
    r.path = path;
    return r;
}

// Each morphing mesh's run of a pose slot's weights and its resting weights, and per clip the
// weights channel it reads: the first of the clip's channels on its node with as many targets (as
// sampleMorphWeights() picks).
void addMorphTables(const Model& model, AnimationTables& t) {
    for (const Mesh& mesh : model.meshes) {
        const uint32_t targets = mesh.morphTargets(), rest = uint32_t(t.morphValues.size());
        t.morphMeshes.push_back({targets, t.morphWeightCount, rest, 0});
        t.morphWeightCount += targets > 0 ? HORDE_MORPH_RUN(targets) : 0;
        t.morphValues.insert(t.morphValues.end(), mesh.morphWeights.begin(), mesh.morphWeights.end());
        t.morphValues.resize(rest + targets, 0.0f);
    }
    if (t.morphWeightCount == 0) return;
    for (const Clip& clip : model.clips) {
        std::vector<uint32_t> recordOf(clip.morphs.size(), HORDE_NONE);
        for (const Mesh& mesh : model.meshes) {
            uint32_t channel = HORDE_NONE;
            for (size_t c = 0; c < clip.morphs.size() && mesh.morphTargets() > 0; ++c) {
                const MorphChannel& morph = clip.morphs[c];
                if (morph.node != mesh.node || morph.targets != mesh.morphTargets()) continue;
                if (recordOf[c] == HORDE_NONE) {
                    recordOf[c] = uint32_t(t.channels.size());
                    t.channels.push_back(
                        channelRecord(morph.times, morph.interpolation, t.times.size(), t.morphValues.size(), 3));
                    t.times.insert(t.times.end(), morph.times.begin(), morph.times.end());
                    t.morphValues.insert(t.morphValues.end(), morph.values.begin(), morph.values.end());
                }
                channel = recordOf[c];
                break;
            }
            t.morphChannelTable.push_back(channel);
        }
    }
}

} // namespace

AnimationTables buildAnimationTables(const Model& model) {
    AnimationTables t;
    const uint32_t nodeCount = uint32_t(model.nodes.size());
    for (const Node& n : model.nodes) {
        uint32_t parent = n.parent < 0 ? HORDE_NONE : uint32_t(n.parent);
        t.rest.push_back({glm::vec4(n.translation, glm::uintBitsToFloat(parent)),
                          glm::vec4(n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w), glm::vec4(n.scale, 0.0f)});
    }
    for (const Clip& clip : model.clips) {
        uint32_t tableBase = uint32_t(t.channelTable.size());
        t.clips.push_back({clip.duration, clip.end == ClipEnd::WrapToFirst ? 1u : 0u,
                           clip.rotationBlend == RotationBlend::Nlerp ? 1u : 0u, tableBase});
        t.channelTable.resize(t.channelTable.size() + size_t(nodeCount) * 3, HORDE_NONE);
        for (const Channel& c : clip.channels) {
            // A later channel for the same (node, path) wins, as in sampleLocals().
            t.channelTable[tableBase + c.node * 3 + uint32_t(c.path)] = uint32_t(t.channels.size());
            t.channels.push_back(
                channelRecord(c.times, c.interpolation, t.times.size(), t.values.size(), uint32_t(c.path)));
            t.times.insert(t.times.end(), c.times.begin(), c.times.end());
            t.values.insert(t.values.end(), c.values.begin(), c.values.end());
        }
    }
    std::vector<int64_t> skinBase(model.skins.size(), -1);
    for (const Mesh& mesh : model.meshes) {
        if (mesh.skinned()) {
            if (skinBase[mesh.skin] < 0) {
                skinBase[mesh.skin] = int64_t(t.joints.size());
                const Skin& skin = model.skins[mesh.skin];
                for (size_t j = 0; j < skin.joints.size(); ++j)
                    t.joints.push_back({toAffine(skin.inverseBind[j]), skin.joints[j], 0, 0, 0});
            }
            t.meshJointBase.push_back(uint32_t(skinBase[mesh.skin]));
        } else {
            t.meshJointBase.push_back(uint32_t(t.joints.size()));
            t.joints.push_back({toAffine(glm::mat4(1.0f)), mesh.node, 0, 0, 0});
        }
    }
    addMorphTables(model, t);
    return t;
}

} // namespace horde
