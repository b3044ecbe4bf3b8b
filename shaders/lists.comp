#version 460
// Between the assign pass's two stages, one workgroup lays the draw lists out one after another:
// each (mesh, level) list, then the impostors', starts where the ones before it end (an exclusive
// prefix sum of the counts), and its fill cursor starts at zero. Lists are few (levels times
// meshes), so one lane walks them. Mirrors listStarts() in engine/crowd/cull_reference.cpp.
#include "compute.glsl"

layout(push_constant, scalar) uniform Push { PlanPush pc; };

void main() {
    if (gl_LocalInvocationID.x != 0u) return;
    CrowdFrame f = Frames(pc.frame).f;
    Uints counters = Uints(f.counters);
    Uints lists = Uints(f.listStarts);
    uint start = 0u;
    for (uint list = 0u; list <= f.listCount; ++list) {
        lists.v[list] = start;
        lists.v[f.listCount + 1u + list] = 0u;
        if (list < f.listCount) lists.v[2u * f.listCount + 2u + list] = 0u; // fading entries fill from the end
        start += list < f.listCount ? counters.v[HORDE_COUNT_HEADER + f.materialCount + list]
                                    : counters.v[HORDE_COUNT_IMPOSTORS];
    }
}
