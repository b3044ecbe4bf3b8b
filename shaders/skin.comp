#version 460
// Pass 4, skin: 4-bone linear blend of one (mesh, level)'s vertices for every skin job of that
// list (a visible instance's own pose, or a pose shared by far instances) into the vertex pool
// the draw reads. Mirrors skinMesh() in engine/anim/reference.cpp.
#include "compute.glsl"

layout(push_constant, scalar) uniform Push { SkinPush pc; };

Affine blendedPalette(uint pose, uint vertex) {
    Affines palette = Affines(pc.palette);
    uint base = pose * pc.jointCount + pc.jointBase;
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
    uint id = flatInvocation();
    if (id >= pc.vertexCount * min(Uints(pc.counters).v[pc.countIndex], pc.jobLimit)) return;
    SkinJob job = SkinJobs(pc.jobs).v[id / pc.vertexCount];
    uint vertex = id % pc.vertexCount;
    uint source = Uints(pc.order).v[vertex];
    Affine m = blendedPalette(job.pose, source);
    Vec3s(pc.outPositions).v[job.vertexOffset + vertex] = transformPoint(m, Vec3s(pc.positions).v[source]);
    Vec3s(pc.outNormals).v[job.vertexOffset + vertex] = transformNormal(m, Vec3s(pc.normals).v[source]);
}
