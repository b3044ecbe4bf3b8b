#pragma once
// What the cull pass's CPU reference needs of a crowd's model and of one of its instances, built
// as the scene builds its GPU records (CrowdModel's clip speeds, its LOD chains' errors), for the
// tests that hold the GPU's decisions to cullInstance().
#include <vector>

#include <glm/vec3.hpp>

#include "anim/reference.h"
#include "crowd/crowd_asset.h"
#include "crowd/cull_reference.h"
#include "model/model.h"
#include "shaders/gpu_types.h"

namespace horde::test {

inline CullModelInfo cullModelInfo(const CrowdAsset& asset, const Model& model) {
    CullModelInfo info{
        .sphere = asset.worldSphere, .clipSpeed = asset.clipSpeed, .bucketsPerClip = asset.bucketsPerClip};
    for (const Clip& clip : model.clips)
        info.clipDuration.push_back(clip.duration);
    for (const LodChain& chain : asset.lods) {
        info.levelErrors.emplace_back();
        for (const LodLevel& level : chain.levels)
            info.levelErrors.back().push_back(level.error);
    }
    return info;
}

// An instance looping its clip, at `time` seconds of crowd time.
inline CullInstance cullInstanceAt(const Model& model, const gpu::InstanceRecord& r, float time) {
    const Playback playback{int32_t(r.clip), double(r.phase), double(r.speed), r.loop != 0};
    return {glm::vec3(r.placement), r.placement.w, playback.clip,
            clipTime(model.clips[r.clip], playback, time)};
}

} // namespace horde::test
