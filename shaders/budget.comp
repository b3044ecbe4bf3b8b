#version 460
// Pass 1b, budget: after culling, one workgroup shares out the skinned-vertex pool. Shared poses
// that some seen instance uses come first (each serves many instances); then, from the own-pose
// demand per distance bucket, the nearest buckets keep the levels they want for as far out as
// the pool allows, those beyond take every mesh's coarsest level, and only when even that cannot
// fit are the farthest buckets dropped. Sizes the assign pass. Mirrors poolBudget() in
// engine/crowd/cull_reference.cpp.
#include "compute.glsl"

layout(push_constant, scalar) uniform Push { PlanPush pc; };

layout(buffer_reference, scalar) buffer Dispatches { uvec3 v[]; };

void main() {
    CrowdFrame f = Frames(pc.frame).f;
    Uints counters = Uints(f.counters);
    CullLevels levels = CullLevels(f.levels);
    uint lane = gl_LocalInvocationID.x;
    uint jobBase = HORDE_COUNT_HEADER + f.materialCount + f.listCount;

    for (uint c = lane; c < f.sharedCount; c += HORDE_WORKGROUP) {
        if (Uints(f.sharedRequests).v[c] == 0u) continue;
        uint level = c % HORDE_MAX_LEVELS, mesh = (c / HORDE_MAX_LEVELS) % f.meshCount;
        uint pose = c / HORDE_MAX_LEVELS / f.meshCount;
        uint list = CullMeshes(f.meshes).v[mesh].firstLevel + level;
        uint vertexCount = levels.v[list].vertexCount;
        uint offset = atomicAdd(counters.v[HORDE_COUNT_VERTICES], vertexCount);
        if (offset + vertexCount > f.vertexCapacity) {
            Uints(f.sharedOffsets).v[c] = HORDE_NONE;
            continue;
        }
        Uints(f.sharedOffsets).v[c] = offset;
        uint job = atomicAdd(counters.v[jobBase + list], 1u);
        SkinJobs(f.jobs).v[list * f.jobCapacity + job] = SkinJob(pose, offset);
    }
    memoryBarrierBuffer();
    barrier();
    if (lane != 0u) return;

    // What is left once the shared poses have theirs (a failed shared request still moved the cursor).
    uint used = min(counters.v[HORDE_COUNT_VERTICES], f.vertexCapacity);
    counters.v[HORDE_COUNT_VERTICES] = used;
    uint left = f.vertexCapacity - used;
    Uints demand = Uints(f.demand);
    uint coarse = 0u;
    for (uint b = 0u; b < HORDE_DISTANCE_BUCKETS; ++b) coarse += demand.v[HORDE_DISTANCE_BUCKETS + b];
    uint coarseFrom = HORDE_DISTANCE_BUCKETS, dropFrom = HORDE_DISTANCE_BUCKETS;
    if (coarse <= left) {
        // Bucket b keeps its levels while the nearer ones' wants and the farther ones' coarsest fit.
        uint need = coarse;
        for (uint b = 0u; b < HORDE_DISTANCE_BUCKETS; ++b) {
            need += demand.v[b] - demand.v[HORDE_DISTANCE_BUCKETS + b];
            if (need > left) {
                coarseFrom = b;
                break;
            }
        }
    } else {
        coarseFrom = 0u;
        uint need = 0u;
        for (uint b = 0u; b < HORDE_DISTANCE_BUCKETS; ++b) {
            need += demand.v[HORDE_DISTANCE_BUCKETS + b];
            if (need > left) {
                dropFrom = b;
                break;
            }
        }
    }
    counters.v[HORDE_COUNT_COARSE_FROM] = coarseFrom;
    counters.v[HORDE_COUNT_DROP_FROM] = dropFrom;
    uint seen = counters.v[HORDE_COUNT_SEEN];
    uint groups = (seen + HORDE_WORKGROUP - 1u) / HORDE_WORKGROUP;
    uint x = min(groups, f.workgroupLimit);
    Dispatches(f.dispatches).v[2] = groups == 0u ? uvec3(0u, 1u, 1u) : uvec3(x, (groups + x - 1u) / x, 1u);
}
