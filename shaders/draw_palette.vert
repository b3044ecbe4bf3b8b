#version 460
// Draw, vertex technique: skins in the vertex shader straight from the entry's palette, no skin
// pass: the same blend as skin.comp (skinning.glsl).
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
    uint v = Uints(pc.order).v[vertex];
    Influences found = influencesOf(pc.joints, pc.weights, pc.more, v);
    vec3 position, normal;
    skinVertex(pc.palette, entry.pose * pc.jointCount + pc.jointBase, found, Vec3s(pc.positions).v[v],
               Vec3s(pc.normals).v[v], position, normal);
    emit(info, entry, vertex, position, normal);
}
