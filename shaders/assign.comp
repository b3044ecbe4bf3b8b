#version 460
// Pass 1c, assign: one invocation per instance the cull pass saw. Its levels (the coarsest for
// every mesh where the budget says so), its range of the vertex pool in one piece, a skin job
// per own-pose mesh, and a draw entry per mesh in that (mesh, level)'s list. An instance the pool
// cannot hold is dropped whole and counted, never drawn in part. Mirrors assignInstance() in
// engine/anim/cull_reference.cpp.
#include "compute.glsl"
#include "levels.glsl"

layout(push_constant, scalar) uniform Push { CullPush pc; };

// Recomputed where needed rather than held per mesh: a model may have any number of meshes.
uint levelOf(CullMesh mesh, CullLevels levels, bool coarsest, bool lod, float pixelsPerUnit) {
    return coarsest ? mesh.levelCount - 1u : chosenLevel(mesh, levels, lod, pixelsPerUnit, pc.lodErrorPixels);
}

void main() {
    uint seenIndex = flatInvocation();
    CrowdFrame f = Frames(pc.frame).f;
    Uints counters = Uints(f.counters);
    if (seenIndex >= counters.v[HORDE_COUNT_SEEN]) return;
    VisibleInstance v = VisibleInstances(f.visible).v[seenIndex];
    bool lod = (pc.flags & HORDE_CULL_LOD) != 0u;
    bool pool = (pc.flags & HORDE_CULL_POOL) != 0u;
    bool deterministic = pc.flags == 0u || pc.flags == HORDE_CULL_POOL; // brute force: slot = instance
    bool own = v.pose >= f.sharedPoses;
    bool coarsest = false;
    if (own && pool && !deterministic) {
        if (v.bucket >= counters.v[HORDE_COUNT_DROP_FROM]) {
            atomicAdd(counters.v[HORDE_COUNT_DROPPED], 1u);
            return;
        }
        coarsest = lod && v.bucket >= counters.v[HORDE_COUNT_COARSE_FROM];
    }

    CullMeshes meshes = CullMeshes(f.meshes);
    CullLevels levels = CullLevels(f.levels);
    uint vertices = 0u;
    for (uint m = 0u; m < f.meshCount; ++m) {
        uint level = levelOf(meshes.v[m], levels, coarsest, lod, v.pixelsPerUnit);
        vertices += levels.v[meshes.v[m].firstLevel + level].vertexCount;
        // A shared pose's vertices come from the budget pass, which may have run out of pool.
        if (pool && !own && Uints(f.sharedOffsets).v[(v.pose * f.meshCount + m) * HORDE_MAX_LEVELS + level] == HORDE_NONE) {
            atomicAdd(counters.v[HORDE_COUNT_DROPPED], 1u);
            return;
        }
    }
    uint vertexOffset = 0u;
    if (pool && own) {
        if (deterministic) {
            vertexOffset = v.instance % f.chunkInstances * f.vertexStride;
        } else {
            vertexOffset = atomicAdd(counters.v[HORDE_COUNT_VERTICES], vertices);
            if (vertexOffset + vertices > f.vertexCapacity) {
                atomicAdd(counters.v[HORDE_COUNT_DROPPED], 1u);
                return;
            }
        }
    }
    atomicAdd(counters.v[HORDE_COUNT_VISIBLE], 1u);
    for (uint m = 0u; m < f.meshCount; ++m) {
        CullMesh mesh = meshes.v[m];
        uint level = levelOf(mesh, levels, coarsest, lod, v.pixelsPerUnit);
        uint list = mesh.firstLevel + level;
        uint offset = 0u;
        if (pool && !own) {
            offset = HORDE_SHARED_BIT | ((v.pose * f.meshCount + m) * HORDE_MAX_LEVELS + level);
        } else if (pool) {
            offset = deterministic ? vertexOffset + mesh.vertexBase : vertexOffset;
            uint jobCounter = HORDE_COUNT_HEADER + f.materialCount + f.listCount + list;
            uint job = deterministic ? v.instance : atomicAdd(counters.v[jobCounter], 1u);
            if (deterministic) atomicAdd(counters.v[jobCounter], 1u);
            SkinJobs(f.jobs).v[list * f.jobCapacity + job] = SkinJob(v.pose, offset);
            if (!deterministic) vertexOffset += levels.v[list].vertexCount;
        }
        uint listCounter = HORDE_COUNT_HEADER + f.materialCount + list;
        uint entry = deterministic ? v.instance : atomicAdd(counters.v[listCounter], 1u);
        if (deterministic) atomicAdd(counters.v[listCounter], 1u);
        DrawEntries(f.entries).v[list * f.instanceCount + entry] = DrawEntry(v.instance, v.pose, offset, level);
    }
}
