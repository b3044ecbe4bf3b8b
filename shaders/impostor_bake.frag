#version 460
// Baking the impostor atlas: the material's base colour times the vertex colour (a masked
// material's cut-outs left empty) and the surface's normal and depth across the sphere (0 nearest
// the eye). Pixels no triangle covers stay zero, so filtering 2 x 2 pixels into a texel leaves
// colour, normal and depth premultiplied by the coverage, and the mips average them truly.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { ImpostorBakePush pc; };
layout(buffer_reference, scalar) buffer MaterialRecords { MaterialRecord v[]; };

layout(constant_id = 0) const bool kSample = true;

layout(set = 0, binding = 0) uniform sampler2D baseTexture;

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec2 inUV;
layout(location = 2) in vec3 inColor;
layout(location = 0) out vec4 outColor;
layout(location = 1) out vec4 outNormalDepth;

void main() {
    MaterialRecord material = MaterialRecords(pc.materials).v[pc.material];
    vec4 base = material.baseColor;
    if (kSample) base *= texture(baseTexture, inUV);
    if (material.alphaMode != HORDE_ALPHA_OPAQUE && base.a < material.alphaCutoff) discard;
    vec3 n = normalize(inNormal);
    if (!gl_FrontFacing) n = -n;
    outColor = vec4(base.rgb * inColor, 1.0);
    outNormalDepth = vec4(n * 0.5 + 0.5, gl_FragCoord.z);
}
