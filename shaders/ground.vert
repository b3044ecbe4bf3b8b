#version 460
// The ground under the crowd: one quad from push constants, no vertex buffer.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { GroundPush pc; };
layout(location = 0) out vec2 outWorld;

void main() {
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = corners[gl_VertexIndex];
    vec2 xz = mix(pc.area.xy, pc.area.zw, c);
    outWorld = xz;
    gl_Position = Globals(pc.globals).g.viewProjection * vec4(xz.x, pc.height, xz.y, 1.0);
}
