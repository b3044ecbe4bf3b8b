// Base colour times the base texture, lit simply so the shape reads: a key light and a rim of
// sky light. Back faces (drawn only for double-sided materials) are lit by the flipped normal.
// One shader serves three pipelines, fixed by specialization constants: whether it samples at
// all (`--textures off` measures the crowd without) and the alpha mode of the materials it draws.
// Built twice: draw.frag, and draw_fade.frag (HORDE_DRAW_FADE) for the meshes of instances fading
// into their impostors, which keep only their share of each pixel's samples (fadeMask). Every
// other mesh is drawn by the first: a sample mask or a discard, even never taken, made lavapipe's
// draws of every mesh about 10% slower.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { DrawPush pc; };
layout(buffer_reference, scalar) buffer MaterialRecords { MaterialRecord v[]; };

layout(constant_id = 0) const bool kSample = true;
layout(constant_id = 1) const uint kAlphaMode = HORDE_ALPHA_OPAQUE;
// The target's samples per pixel (the pipeline's).
layout(constant_id = 6) const uint kSamples = 1;

// The base texture of the material this draw is for (MaterialRecord.texture).
layout(set = 0, binding = 0) uniform sampler2D baseTexture;

layout(location = 0) in vec3 inNormal;
layout(location = 1) in vec3 inTint;
layout(location = 2) in vec2 inUV;
layout(location = 3) flat in uint inMaterial;
layout(location = 4) flat in uint inFadeStep;
layout(location = 0) out vec4 outColor;

void main() {
#ifdef HORDE_DRAW_FADE
    // Its impostor takes the other samples.
    uint samples = fadeMask(inFadeStep, kSamples, uvec2(gl_FragCoord.xy));
    if (samples == 0u) discard;
    gl_SampleMask[0] = int(samples);
#endif
    vec4 base = vec4(1.0);
    if (inMaterial != HORDE_NONE) {
        MaterialRecord m = MaterialRecords(pc.materials).v[inMaterial];
        base = m.baseColor;
        if (kSample) base *= texture(baseTexture, inUV);
        if (kAlphaMode == HORDE_ALPHA_MASK && base.a < m.alphaCutoff) discard;
    }
    FrameGlobals g = Globals(pc.globals).g;
    vec3 n = normalize(inNormal);
    if (!gl_FrontFacing) n = -n;
    vec3 l = normalize(-g.lightDirection.xyz);
    float key = max(dot(n, l), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    vec3 color = base.rgb * inTint * (0.75 * key + 0.25 * sky) + vec3(0.02);
    outColor = vec4(color, kAlphaMode == HORDE_ALPHA_BLEND ? base.a : 1.0);
}
