#pragma once
// One model prepared for crowds, offline: its animation tables, every mesh's LOD chain and the
// index lists the draws read, the sphere every pose fits in and how fast its vertices move, and
// the records the cull and plan passes read. Plain data built on the CPU without a device (the
// way ozz-animation builds its runtime data offline); render/crowd_model.h uploads it as it is.
#include <cstdint>
#include <string>
#include <vector>

#include "anim/motion_bounds.h"
#include "anim/tables.h"
#include "crowd/clip_roles.h"
#include "model/lod.h"
#include "model/model.h"
#include "shaders/gpu_types.h"

namespace horde {

struct CrowdAssetOptions {
    // Off for one-instance views (render, pose, validate): level 0 alone and the bind pose's
    // sphere, since nothing is culled or simplified there.
    bool crowd = true;
    LodOptions lod{.maxLevels = HORDE_MAX_LEVELS};
    // Shared poses per clip (animation LOD); 0: from `instances` (sharedBuckets).
    uint32_t bucketsPerClip = 0;
    // World units per model unit, after the axes: a crowd of models from several sources sizes
    // them alike. Scales the placement, and the LOD errors and clip speeds culling compares.
    float scale = 1.0f;
    // Which clips the crowd plays (crowd/clip_roles.h playedClips): names, patterns or @roles;
    // none: every clip but T-poses, deaths and appear/disappear. The bounds, the footprint and
    // the layout's clips come from the played clips alone.
    std::vector<std::string> clips;
    // How many instances of the model the crowd holds, 0 where unknown: its shared poses are sized
    // by them rather than by the clips alone.
    uint32_t instances = 0;
    std::string name; // the model's file, for messages
};

struct CrowdAsset {
    std::string name; // CrowdAssetOptions::name
    AnimationTables tables;
    std::vector<LodChain> lods;  // per mesh
    MotionBounds motion;         // in model units
    glm::mat4 axesToWorld{1.0f}; // the file's axes and units into the world, times the scale
    // Per mesh: whether its front faces wind clockwise in the world, the draws' front face: the
    // file's winding, turned where the rest pose mirrors the mesh (anim/winding.h).
    std::vector<bool> clockwise;
    glm::vec4 worldSphere{0.0f}; // the motion sphere in world axes, before each instance's placement
    Bounds worldBindBounds;      // the bind pose's box in world axes: where feet stand, how tall
    // How far from its placement any pose reaches across the ground (x and z), in world units:
    // instances this far apart never touch, whatever their headings.
    float footprint = 0.0f;
    uint32_t bucketsPerClip = 64;
    uint32_t commandsPerMesh = 1; // draw commands one material slot may need: levels x submeshes
    uint32_t vertexStride = 0;    // level-0 vertices of every mesh: one instance's share of the pool
    std::vector<gpu::CullMesh> cullMeshes;
    std::vector<gpu::CullLevel> cullLevels; // every mesh's levels: one draw list each
    std::vector<gpu::LevelSubmesh> levelSubmeshes;
    // The material name of each material slot (LevelSubmesh::material): every mesh's submeshes in
    // order. The scene's material table turns them into records.
    std::vector<std::string> materialSlots;
    std::vector<uint32_t> meshMaterials; // each mesh's first material slot; one slot per submesh
    // Per mesh: every level's submeshes as indices into the chain's vertex order, each repeated
    // `batch` times with its vertices offset by the level's vertex count (CullLevel::batch).
    std::vector<std::vector<uint32_t>> drawIndices;
    std::vector<float> clipSpeed; // per clip: the fastest any vertex moves, world units per second
    std::vector<ClipRole> clipRoles; // per clip (crowd/clip_roles.h)
    std::vector<bool> playedClips;   // per clip: whether the crowd plays it
    // Per clip: how fast an instance playing it walks, world x and z per second of clip time at
    // heading 0: its root motion (Clip::travel) over its duration, or for a walk or run that plays
    // in place the speed that keeps its planted foot still (anim/stride.h); 0 for the rest.
    std::vector<glm::vec2> clipVelocity;
    // The most a shared blend's weight step may move a vertex, world units: half a step of the
    // blend's path, which spans at most pi times the farthest any vertex gets from the bind pose.
    float blendError = 0.0f;
    // Per ordered pair of clips (row: the clip left), the shortest cross-fade that moves no vertex
    // between two frames more than 1.5 times either clip does (anim/fade_floor.h), seconds at the
    // slowest playback; a crowd's fades take at least this.
    std::vector<float> fadeFloors;
    // Per shared pose, its tile in the impostor atlas: the played poses (playedPoses) numbered in
    // order, `impostorStride` of them a tile (the first of them is baked), the others 0, as no
    // instance shows them; and how many tiles that makes.
    std::vector<uint32_t> poseTiles;
    uint32_t impostorTiles = 0;
    // Shared poses a tile stands for: 1, or as few more (a power of two dividing bucketsPerClip)
    // as keep the tiles within kImpostorTiles, at least the bind pose and one a played clip.
    uint32_t impostorStride = 1;
    // Per impostor view: the source's covered area over the bake's levels' (crowd/impostor_views.h),
    // which the impostor draw scales the baked coverage by.
    std::vector<float> impostorCoverage;

    uint32_t sharedPoses() const { return uint32_t(tables.clips.size()) * bucketsPerClip + 1; }
    // The shared poses an instance can show, as runs of pose indices: the played clips' buckets
    // and the bind pose (the last). The impostor bake draws these and no other.
    struct PoseRun {
        uint32_t first = 0, count = 0;
    };
    std::vector<PoseRun> playedPoses() const;
    uint32_t listCount() const { return uint32_t(cullLevels.size()); }
};

// The most tiles one model's impostor atlas holds: 256 KiB a tile over its views, normals and mips
// (render/impostor_atlas.h), so 64 MiB an atlas, and its bake draws as many poses a view.
constexpr uint32_t kImpostorTiles = 256;

// A crowd plays each instance's clips at a speed in [kSlowestPlayback, kSlowestPlayback +
// kPlaybackSpan) (crowd/layout.cpp), so that no two walk in step.
constexpr float kSlowestPlayback = 0.8f, kPlaybackSpan = 0.4f;

// Time buckets per clip for `instances` playing `playedClips` clips: about four instances a bucket,
// a power of two from 16 (impostors still animate) to 64; 64 where the instances are unknown. A
// bucket's pose serves only the instances in it, so more buckets than instances cost memory and
// sampling for nothing; an instance its bucket is too coarse for takes an own pose instead.
uint32_t sharedBuckets(uint32_t instances, uint32_t playedClips);

CrowdAsset buildCrowdAsset(const Model& model, const CrowdAssetOptions& options = {});

} // namespace horde
