#version 460
// Draw, vertex technique: skins in the vertex shader straight from the entry's palette, no skin
// pass: the same morph and blend as skin.comp (morph.glsl, skinning.glsl).
#include "draw_common.glsl"
#include "skinning.glsl"
#include "morph.glsl"

void main() {
    DrawInfo info = DrawInfos(pc.drawInfo).v[gl_DrawID];
    DrawEntry entry;
    uint vertex;
    if (!visibleEntry(info, entry, vertex)) {
        emitNothing();
        return;
    }
    uint v = Uints(pc.order).v[vertex];
    MeshExtras extras = meshExtras(pc.extras);
    Influences found = influencesOf(pc.joints, pc.weights, extras.more, v);
    vec3 sourcePosition = Vec3s(pc.positions).v[v], sourceNormal = Vec3s(pc.normals).v[v];
    morphVertex(extras, entry.pose, v, sourcePosition, sourceNormal);
    vec3 position, normal;
    skinVertex(pc.palette, entry.pose * pc.jointCount + pc.jointBase, found, sourcePosition, sourceNormal, position,
               normal);
    emit(info, entry, vertex, position, normal);
}
