#version 460
// Pass 2, pose: every (instance, joint) walks its node's parent chain to model space and applies
// the inverse bind, giving the skinning palette. Chain walking needs no barriers between levels;
// see docs/ARCHITECTURE.md for the measurement behind the choice. Mirrors localToModel() and
// meshPalette() in engine/anim/reference.cpp.
#include "common.glsl"

layout(local_size_x = HORDE_WORKGROUP) in;
layout(push_constant, scalar) uniform Push { PosePush pc; };

void main() {
    uint id = gl_GlobalInvocationID.x;
    if (id >= pc.jointCount * pc.instanceCount) return;
    uint instance = id / pc.jointCount, joint = id % pc.jointCount;
    JointRecord record = JointRecords(pc.joints).v[joint];
    NodeRests rest = NodeRests(pc.rest);
    Affines locals = Affines(pc.locals);
    uint base = instance * pc.nodeCount;
    uint node = record.node;
    Affine m = locals.v[base + node];
    // A node's depth bounds the walk; nodeCount guards against a malformed table.
    uint parent = floatBitsToUint(rest.v[node].translation.w);
    for (uint steps = 0u; parent != HORDE_NONE && steps < pc.nodeCount; ++steps) {
        m = compose(locals.v[base + parent], m);
        parent = floatBitsToUint(rest.v[parent].translation.w);
    }
    Affines(pc.palette).v[id] = compose(m, record.inverseBind);
}
