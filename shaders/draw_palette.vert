#version 460
// Draw, vertex technique: skins in the vertex shader straight from the entry's palette, no skin
// pass. The same blend as skin.comp.
#include "draw_common.glsl"

void main() {
    DrawInfo info = DrawInfos(pc.drawInfo).v[gl_DrawID];
    DrawEntry entry;
    uint vertex;
    if (!visibleEntry(info, entry, vertex)) {
        emitNothing();
        return;
    }
    Affines palette = Affines(pc.palette);
    uint base = entry.pose * pc.jointCount + pc.jointBase;
    uint v = Uints(pc.order).v[vertex];
    Affine m;
    if (pc.skinned == 0u) {
        m = palette.v[base];
    } else {
        uvec4 j = loadJoints(pc.joints, v);
        vec4 w = Vec4s(pc.weights).v[v];
        m.r0 = vec4(0.0); m.r1 = vec4(0.0); m.r2 = vec4(0.0);
        for (int k = 0; k < 4; ++k) {
            if (w[k] <= 0.0) continue;
            Affine p = palette.v[base + j[k]];
            m.r0 += p.r0 * w[k];
            m.r1 += p.r1 * w[k];
            m.r2 += p.r2 * w[k];
        }
    }
    emit(info, entry, vertex, transformPoint(m, Vec3s(pc.positions).v[v]), transformNormal(m, Vec3s(pc.normals).v[v]));
}
