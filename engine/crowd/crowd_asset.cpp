#include "crowd/crowd_asset.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/fade_floor.h"
#include "anim/reference.h"
#include "anim/stride.h"
#include "anim/winding.h"
#include "crowd/impostor_views.h"
#include "crowd/view.h"

namespace horde {

namespace {

// The source mesh as a one-level chain.
LodChain sourceOnly(const Mesh& mesh) {
    LodChain chain;
    chain.order.resize(mesh.vertexCount());
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v)
        chain.order[v] = v;
    chain.indices.resize(mesh.indexCount());
    for (uint32_t i = 0; i < mesh.indexCount(); ++i)
        chain.indices[i] = mesh.arrays().index(i);
    chain.levels.push_back({0.0f, mesh.vertexCount(), false, mesh.submeshes});
    return chain;
}

MotionBounds bindPoseOnly(const Bounds& bind, size_t clips) {
    MotionBounds m{{bind.center(), bind.radius()}, std::vector<float>(clips, 0.0f), bind};
    m.sampledSpeed.assign(clips, 0.0f);
    return m;
}

// The farthest a corner of `world` lies from the vertical axis through the placement.
float groundReach(const Bounds& world) {
    float reach = 0.0f;
    for (float x : {world.min.x, world.max.x})
        for (float z : {world.min.z, world.max.z})
            reach = std::max(reach, std::sqrt(x * x + z * z));
    return reach;
}

// Instances per drawn instance for a level of `vertices` vertices: batches of about a thousand
// vertices, at most 64 instances. Big levels draw one instance each.
uint32_t drawBatch(uint32_t vertices) {
    return std::clamp(1024u / std::max(vertices, 1u), 1u, 64u);
}

// The largest factor by which the axes matrix stretches a length (it is a rotation or mirror
// times the file's unit scale).
float largestScale(const glm::mat4& m) {
    return std::max(
        {glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2]))});
}

// One mesh's chain as cull levels, level submeshes and the draw's index list.
void addMesh(CrowdAsset& asset, const Mesh& mesh, LodChain chain, float scale) {
    const uint32_t firstMaterial = uint32_t(asset.materialSlots.size());
    for (const Submesh& s : mesh.submeshes)
        asset.materialSlots.push_back(s.material);
    asset.meshMaterials.push_back(firstMaterial);

    const uint32_t meshIndex = uint32_t(asset.cullMeshes.size());
    asset.cullMeshes.push_back(
        {uint32_t(asset.cullLevels.size()), uint32_t(chain.levels.size()), asset.vertexStride, 0});
    asset.vertexStride += chain.levels.empty() ? 0 : chain.levels[0].vertexCount;
    std::vector<uint32_t>& indices = asset.drawIndices.emplace_back();
    for (const LodLevel& level : chain.levels) {
        gpu::CullLevel record{};
        record.error = level.error * scale;
        record.vertexCount = level.vertexCount;
        record.mesh = meshIndex;
        record.firstSubmesh = uint32_t(asset.levelSubmeshes.size());
        record.submeshCount = uint32_t(level.submeshes.size());
        record.batch = drawBatch(level.vertexCount);
        asset.cullLevels.push_back(record);
        for (size_t s = 0; s < level.submeshes.size(); ++s) {
            const Submesh& submesh = level.submeshes[s];
            asset.levelSubmeshes.push_back({uint32_t(indices.size()), submesh.indexCount,
                                            firstMaterial + uint32_t(std::min(s, mesh.submeshes.size() - 1)),
                                            0});
            for (uint32_t copy = 0; copy < record.batch; ++copy)
                for (uint32_t i = 0; i < submesh.indexCount; ++i)
                    indices.push_back(chain.indices[submesh.firstIndex + i] + copy * level.vertexCount);
        }
        asset.commandsPerMesh =
            std::max(asset.commandsPerMesh, uint32_t(chain.levels.size() * level.submeshes.size()));
    }
    asset.lods.push_back(std::move(chain));
}

} // namespace

uint32_t sharedBuckets(uint32_t instances, uint32_t playedClips) {
    constexpr uint32_t kFewest = 16, kMost = 64;
    if (instances == 0) return kMost;
    const uint64_t wanted = (4 * uint64_t(instances) + std::max(playedClips, 1u) - 1) / std::max(playedClips, 1u);
    uint32_t buckets = kFewest;
    while (buckets < kMost && buckets < wanted) buckets *= 2;
    return buckets;
}

CrowdAsset buildCrowdAsset(const Model& model, const CrowdAssetOptions& options) {
    CrowdAsset asset;
    asset.name = options.name.empty() ? "the model" : options.name;
    asset.tables = buildAnimationTables(model);
    asset.axesToWorld = glm::scale(glm::mat4(1.0f), glm::vec3(options.scale)) * axesToWorld(model.axes);
    const bool clockwise = frontFaceClockwise(model.axes);
    for (bool mirrored : mirroredMeshes(model))
        asset.clockwise.push_back(clockwise != mirrored);

    const Bounds bind = bindPoseBounds(model);
    asset.clipRoles = options.crowd ? clipRoles(model) : std::vector<ClipRole>(model.clips.size(), ClipRole::Other);
    asset.playedClips = playedClips(model, asset.clipRoles, options.clips);
    const uint32_t played = uint32_t(std::count(asset.playedClips.begin(), asset.playedClips.end(), true));
    asset.bucketsPerClip = options.bucketsPerClip > 0 ? options.bucketsPerClip : sharedBuckets(options.instances, played);
    asset.motion = options.crowd ? motionBounds(model, 64, asset.playedClips) : bindPoseOnly(bind, model.clips.size());
    asset.worldBindBounds = toWorld(bind, asset.axesToWorld);
    asset.footprint = groundReach(toWorld(asset.motion.poseBox, asset.axesToWorld));
    asset.worldSphere = glm::vec4(glm::vec3(asset.axesToWorld * glm::vec4(asset.motion.sphere.center, 1.0f)),
                                  asset.motion.sphere.radius * largestScale(asset.axesToWorld));
    // Levels are simplified where the rest pose draws each mesh (model/lod.h).
    std::vector<LodChain> chains;
    std::vector<std::vector<glm::vec3>> rest;
    if (options.crowd) {
        rest = restPoseVertices(model);
        chains = buildLodChains(model, rest, options.lod);
    } else {
        for (const Mesh& mesh : model.meshes) chains.push_back(sourceOnly(mesh));
    }
    for (size_t m = 0; m < model.meshes.size(); ++m)
        addMesh(asset, model.meshes[m], std::move(chains[m]), options.scale);
    asset.impostorCoverage = impostorCoverageScales(asset, rest);
    asset.clipSpeed = asset.motion.clipSpeed;
    for (float& speed : asset.clipSpeed)
        speed *= options.scale;
    for (size_t c = 0; c < model.clips.size(); ++c) {
        const Clip& clip = model.clips[c];
        glm::vec3 velocity(0.0f);
        const bool walks = asset.clipRoles[c] == ClipRole::Walk || asset.clipRoles[c] == ClipRole::Run;
        if (clip.travel != glm::vec3(0.0f) && clip.duration > 0.0f)
            velocity = clip.travel / clip.duration;
        else if (options.crowd && walks && asset.playedClips[c])
            velocity = measureStride(model, clip).velocity;
        const glm::vec3 world = glm::vec3(asset.axesToWorld * glm::vec4(velocity, 0.0f));
        asset.clipVelocity.emplace_back(world.x, world.z);
    }
    asset.blendError = float(M_PI) * asset.motion.displacement * options.scale / float(2 * HORDE_BLEND_STEPS);
    asset.fadeFloors = options.crowd ? fadeFloors(model, asset.playedClips)
                                     : std::vector<float>(model.clips.size() * model.clips.size(), 0.0f);
    // A fade takes the same seconds at any speed while the clips slow: the slowest sets the floor.
    for (float& floor : asset.fadeFloors) floor /= kSlowestPlayback;
    while (asset.impostorStride < asset.bucketsPerClip && asset.bucketsPerClip % (2 * asset.impostorStride) == 0 &&
           played * (asset.bucketsPerClip / asset.impostorStride) + 1 > kImpostorTiles)
        asset.impostorStride *= 2;
    // Runs start at a clip's first bucket or the bind pose, multiples of the stride.
    asset.poseTiles.assign(asset.sharedPoses(), 0);
    for (const CrowdAsset::PoseRun& run : asset.playedPoses())
        for (uint32_t pose = run.first; pose < run.first + run.count; ++pose) {
            if (pose % asset.impostorStride == 0) ++asset.impostorTiles;
            asset.poseTiles[pose] = asset.impostorTiles - 1;
        }
    return asset;
}

std::vector<CrowdAsset::PoseRun> CrowdAsset::playedPoses() const {
    std::vector<PoseRun> runs;
    for (uint32_t c = 0; c < playedClips.size(); ++c) {
        if (!playedClips[c]) continue;
        if (!runs.empty() && runs.back().first + runs.back().count == c * bucketsPerClip)
            runs.back().count += bucketsPerClip;
        else
            runs.push_back({c * bucketsPerClip, bucketsPerClip});
    }
    const uint32_t bind = sharedPoses() - 1;
    if (!runs.empty() && runs.back().first + runs.back().count == bind)
        ++runs.back().count;
    else
        runs.push_back({bind, 1});
    return runs;
}

} // namespace horde
