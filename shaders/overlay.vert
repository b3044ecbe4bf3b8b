#version 460
// The window's overlay: one Dear ImGui vertex (position in pixels, texture coordinates, colour)
// read by address, placed in clip space by the push constant's scale and offset.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { OverlayPush pc; };

struct OverlayVertex {
    vec2 position;
    vec2 uv;
    uint color;
};
layout(buffer_reference, scalar) buffer OverlayVertices { OverlayVertex v[]; };

layout(location = 0) out vec2 outUV;
layout(location = 1) out vec4 outColor;

void main() {
    OverlayVertex v = OverlayVertices(pc.vertices).v[gl_VertexIndex];
    outUV = v.uv;
    // ImGui's colours are sRGB; the swapchain's sRGB image encodes what is written, so it is
    // written linear.
    vec4 c = unpackUnorm4x8(v.color);
    outColor = vec4(mix(c.rgb / 12.92, pow((c.rgb + 0.055) / 1.055, vec3(2.4)), step(0.04045, c.rgb)), c.a);
    gl_Position = vec4(v.position * pc.transform.xy + pc.transform.zw, 0.0, 1.0);
}
