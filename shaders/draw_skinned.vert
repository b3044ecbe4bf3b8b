#version 460
// Draw, compute technique: reads the vertices the skin pass wrote for this entry (its own run of
// the pool, or the run of the pose it shares), at the scene's precision.
#include "draw_common.glsl"
#include "skinning.glsl"

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
    vec3 position, normal;
    loadPooled(pc.positions, pc.normals, offset + vertex, position, normal);
    emit(info, entry, vertex, position, normal);
}
