#version 460
// Pass 3, skin: 4-bone linear blend of every (instance, vertex) of one mesh into the skinned
// vertex buffers the draw reads. Mirrors skinMesh() in engine/anim/reference.cpp.
#include "common.glsl"

layout(local_size_x = HORDE_WORKGROUP) in;
layout(push_constant, scalar) uniform Push { SkinPush pc; };

Affine blendedPalette(uint instance, uint vertex) {
    Affines palette = Affines(pc.palette);
    uint base = instance * pc.jointCount + pc.jointBase;
    if (isNull(pc.joints)) return palette.v[base];
    uvec4 j = loadJoints(pc.joints, vertex);
    vec4 w = Vec4s(pc.weights).v[vertex];
    Affine m;
    m.r0 = vec4(0.0); m.r1 = vec4(0.0); m.r2 = vec4(0.0);
    for (int k = 0; k < 4; ++k) {
        if (w[k] <= 0.0) continue;
        Affine p = palette.v[base + j[k]];
        m.r0 += p.r0 * w[k];
        m.r1 += p.r1 * w[k];
        m.r2 += p.r2 * w[k];
    }
    return m;
}

void main() {
    uint id = gl_GlobalInvocationID.x;
    if (id >= pc.vertexCount * pc.instanceCount) return;
    uint instance = id / pc.vertexCount, vertex = id % pc.vertexCount;
    Affine m = blendedPalette(instance, vertex);
    Vec3s(pc.outPositions).v[id] = transformPoint(m, Vec3s(pc.positions).v[vertex]);
    Vec3s(pc.outNormals).v[id] = transformNormal(m, Vec3s(pc.normals).v[vertex]);
    if (!isNull(pc.tangents)) {
        vec4 t = Vec4s(pc.tangents).v[vertex];
        Vec4s(pc.outTangents).v[id] = vec4(normalize(transformVector(m, t.xyz)), t.w);
    }
}
