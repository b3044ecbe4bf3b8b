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
#include "model/lod.h"
#include "model/model.h"
#include "shaders/gpu_types.h"

namespace horde {

struct CrowdAssetOptions {
    // Off for one-instance views (render, pose, validate): level 0 alone and the bind pose's
    // sphere, since nothing is culled or simplified there.
    bool crowd = true;
    LodOptions lod{.maxLevels = HORDE_MAX_LEVELS};
    uint32_t bucketsPerClip = 64; // shared poses per clip (animation LOD)
    // World units per model unit, after the axes: a crowd of models from several sources sizes
    // them alike. Scales the placement, and the LOD errors and clip speeds culling compares.
    float scale = 1.0f;
};

struct CrowdAsset {
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

    uint32_t sharedPoses() const { return uint32_t(tables.clips.size()) * bucketsPerClip + 1; }
    uint32_t listCount() const { return uint32_t(cullLevels.size()); }
};

CrowdAsset buildCrowdAsset(const Model& model, const CrowdAssetOptions& options = {});

} // namespace horde
