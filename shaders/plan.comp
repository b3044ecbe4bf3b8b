#version 460
// Pass 1d, plan: after assigning, one workgroup turns the counts into work. Every (mesh, level)
// list gets its skin dispatch size and, when it has instances, one indirect draw per submesh,
// compacted per material slot for vkCmdDrawIndexedIndirectCount (and another for its entries of
// fading instances, in a second run of commands); sample and pose get their sizes.
#include "compute.glsl"

layout(push_constant, scalar) uniform Push { PlanPush pc; };

layout(buffer_reference, scalar) buffer Dispatches { uvec3 v[]; };
layout(buffer_reference, scalar) buffer DrawCommands { uint v[]; }; // five uints per command

uvec3 workgroups(uint invocations, uint limit) {
    uint groups = (invocations + HORDE_WORKGROUP - 1u) / HORDE_WORKGROUP;
    if (groups == 0u) return uvec3(0u, 1u, 1u);
    uint x = min(groups, limit);
    return uvec3(x, (groups + x - 1u) / x, 1u);
}

// A draw per submesh of `level` for `instances` entries from `first`, in the material slot's run of
// commands from `commandBase`, counted at counters[countBase + material slot].
void addDraws(CrowdFrame f, CullLevel level, uint list, uint instances, uint first, uint commandBase, uint countBase) {
    if (instances == 0u) return;
    Uints counters = Uints(f.counters);
    for (uint s = level.firstSubmesh; s < level.firstSubmesh + level.submeshCount; ++s) {
        LevelSubmesh submesh = LevelSubmeshes(f.submeshes).v[s];
        if (submesh.indexCount == 0u) continue;
        uint command = commandBase + submesh.material * f.commandsPerMesh +
                       atomicAdd(counters.v[countBase + submesh.material], 1u);
        DrawCommands draws = DrawCommands(f.draws);
        draws.v[command * 5u + 0u] = submesh.indexCount * level.batch;
        draws.v[command * 5u + 1u] = (instances + level.batch - 1u) / level.batch;
        draws.v[command * 5u + 2u] = submesh.firstIndex;
        draws.v[command * 5u + 3u] = 0u; // vertexOffset
        draws.v[command * 5u + 4u] = first; // firstInstance: the entries' first
        DrawInfos(f.drawInfo).v[command] = DrawInfo(submesh.material, list - CullMeshes(f.meshes).v[level.mesh].firstLevel,
                                                    level.batch, level.vertexCount, instances, first);
    }
}

void main() {
    CrowdFrame f = Frames(pc.frame).f;
    Uints counters = Uints(f.counters);
    CullLevels levels = CullLevels(f.levels);
    uint lane = gl_LocalInvocationID.x;
    uint listBase = HORDE_COUNT_HEADER + f.materialCount;
    uint jobBase = listBase + f.listCount;
    uint fadingBase = jobBase + f.listCount;

    if (lane == 0u) {
        uint poses = min(counters.v[HORDE_COUNT_POSES], f.poseCapacity);
        counters.v[HORDE_COUNT_POSES] = poses;
        Dispatches(f.dispatches).v[0] = workgroups(poses * f.nodeCount, f.workgroupLimit);
        Dispatches(f.dispatches).v[1] = workgroups(poses * f.jointCount, f.workgroupLimit);
        // The impostors' points: a vertex each, from the last list's start.
        Uints impostors = Uints(f.impostorDraw);
        impostors.v[0] = counters.v[HORDE_COUNT_IMPOSTORS];
        impostors.v[1] = 1u;
        impostors.v[2] = Uints(f.listStarts).v[f.listCount];
        impostors.v[3] = 0u;
    }
    for (uint list = lane; list < f.listCount; list += HORDE_WORKGROUP) {
        CullLevel level = levels.v[list];
        uint jobs = min(counters.v[jobBase + list], f.jobCapacity);
        counters.v[jobBase + list] = jobs;
        Dispatches(f.dispatches).v[3u + list] = workgroups(jobs * level.vertexCount, f.workgroupLimit);
        // The list's entries, then its last ones, those of fading instances, in commands of their own.
        uint fading = counters.v[fadingBase + list];
        uint start = Uints(f.listStarts).v[list];
        addDraws(f, level, list, counters.v[listBase + list] - fading, start, 0u, HORDE_COUNT_HEADER);
        addDraws(f, level, list, fading, start + counters.v[listBase + list] - fading,
                 f.materialCount * f.commandsPerMesh, fadingBase + f.listCount);
    }
}
