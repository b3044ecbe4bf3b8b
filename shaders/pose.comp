#version 460
// Pass 3, pose: every (pose slot, joint) walks its node's parent chain to model space and applies
// the inverse bind, giving the skinning palette, stored in the form the scene's skinning blends
// (skinning.glsl). Chain walking needs no barriers between levels; see docs/ARCHITECTURE.md for
// the measurement behind the choice. Mirrors localToModel() and meshPalette() in
// engine/anim/reference.cpp, and for dual quaternions dualQuaternionPalette().
#include "compute.glsl"
#include "skinning.glsl"

layout(push_constant, scalar) uniform Push { PosePush pc; };

void main() {
    uint id = flatInvocation();
    // Own slots: as many as the cull pass handed out; the shared-blend table: its size, skipping
    // the slots no instance claimed this frame.
    bool table = !isNull(pc.blendKeys);
    uint slots = table ? pc.countIndex : Uints(pc.counters).v[pc.countIndex];
    if (id >= pc.jointCount * slots) return;
    if (table && Uints(pc.blendKeys).v[id / pc.jointCount] == HORDE_NONE) return;
    uint slot = pc.firstSlot + id / pc.jointCount, joint = id % pc.jointCount;
    JointRecord record = JointRecords(pc.joints).v[joint];
    NodeRests rest = NodeRests(pc.rest);
    Affines locals = Affines(pc.locals);
    uint base = slot * pc.nodeCount;
    uint node = record.node;
    Affine m = locals.v[base + node];
    // A node's depth bounds the walk; nodeCount guards against a malformed table.
    uint parent = floatBitsToUint(rest.v[node].translation.w);
    for (uint steps = 0u; parent != HORDE_NONE && steps < pc.nodeCount; ++steps) {
        m = compose(locals.v[base + parent], m);
        parent = floatBitsToUint(rest.v[parent].translation.w);
    }
    storePaletteEntry(pc.palette, slot * pc.jointCount + joint, compose(m, record.inverseBind));
}
