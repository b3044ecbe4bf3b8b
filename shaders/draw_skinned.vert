#version 460
// Draw, compute technique: reads the vertices the skin pass wrote for this entry (its own run of
// the pool, or the run of the pose it shares).
#include "draw_common.glsl"

void main() {
    DrawEntry entry = visibleEntry();
    uint offset = entry.vertexOffset;
    if ((offset & HORDE_SHARED_BIT) != 0u) offset = Uints(pc.sharedOffsets).v[offset & ~HORDE_SHARED_BIT];
    if (offset == HORDE_NONE) {
        emitNothing();
        return;
    }
    uint id = offset + gl_VertexIndex;
    emit(entry, Vec3s(pc.positions).v[id], Vec3s(pc.normals).v[id]);
}
