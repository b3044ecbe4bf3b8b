#version 460
// Draw, compute technique: reads the vertices the skin pass wrote for this instance.
#include "draw_common.glsl"

void main() {
    uint id = gl_InstanceIndex * pc.vertexCount + gl_VertexIndex;
    emit(Vec3s(pc.positions).v[id], Vec3s(pc.normals).v[id]);
}
