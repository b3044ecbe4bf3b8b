#version 460
// Ground shading: a soft two-tone grid one crowd spacing wide, so distance and scale read.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { GroundPush pc; };
layout(location = 0) in vec2 inWorld;
layout(location = 0) out vec4 outColor;

void main() {
    vec2 cell = floor(inWorld / pc.cell);
    float checker = mod(cell.x + cell.y, 2.0);
    outColor = vec4(mix(vec3(0.045, 0.050, 0.042), vec3(0.060, 0.065, 0.055), checker), 1.0);
}
