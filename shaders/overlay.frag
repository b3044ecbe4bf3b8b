#version 460
// The window's overlay: the vertex colour times the font atlas's alpha, filtered bilinearly by
// hand from the atlas's bytes (read by address: no sampler, no descriptor set).
#include "common.glsl"

layout(push_constant, scalar) uniform Push { OverlayPush pc; };

layout(location = 0) in vec2 inUV;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 outColor;

float texel(ivec2 at) {
    at = clamp(at, ivec2(0), ivec2(pc.atlasWidth, pc.atlasHeight) - 1);
    uint index = uint(at.y) * pc.atlasWidth + uint(at.x);
    return float((Uints(pc.atlas).v[index >> 2u] >> (8u * (index & 3u))) & 0xFFu) / 255.0;
}

void main() {
    vec2 at = inUV * vec2(pc.atlasWidth, pc.atlasHeight) - 0.5;
    ivec2 base = ivec2(floor(at));
    vec2 f = at - vec2(base);
    float alpha = mix(mix(texel(base), texel(base + ivec2(1, 0)), f.x),
                      mix(texel(base + ivec2(0, 1)), texel(base + ivec2(1, 1)), f.x), f.y);
    outColor = vec4(inColor.rgb, inColor.a * alpha);
}
