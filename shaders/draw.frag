#version 460
// Simple lit shading so the shape reads: a key light, a rim of sky light and two-sided normals
// (a mirrored or inside-out asset still shows where its normals point).
#include "common.glsl"

layout(push_constant, scalar) uniform Push { DrawPush pc; };

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inColor;
layout(location = 0) out vec4 outColor;

void main() {
    FrameGlobals g = Globals(pc.globals).g;
    vec3 n = normalize(inNormal);
    vec3 l = normalize(-g.lightDirection.xyz);
    float key = max(dot(n, l), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    vec3 color = inColor * (0.75 * key + 0.25 * sky) + vec3(0.02);
    outColor = vec4(color, 1.0);
}
