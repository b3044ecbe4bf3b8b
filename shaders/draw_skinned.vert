#version 460
// Draw, compute technique: reads the vertices the skin pass wrote for this entry (its own run of
// the pool, or the run of the pose it shares).
#include "draw_common.glsl"

void main() {
    DrawInfo info = DrawInfos(pc.drawInfo).v[gl_DrawID];
    DrawEntry entry;
    uint vertex;
    if (!visibleEntry(info, entry, vertex)) {
        emitNothing();
        return;
    }
    uint offset = entry.vertexOffset;
    if ((offset & HORDE_SHARED_BIT) != 0u) offset = Uints(pc.sharedOffsets).v[offset & ~HORDE_SHARED_BIT];
    if (offset == HORDE_NONE) {
        emitNothing();
        return;
    }
    emit(info, entry, vertex, Vec3s(pc.positions).v[offset + vertex], Vec3s(pc.normals).v[offset + vertex]);
}
