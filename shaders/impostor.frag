#version 460
// An impostor's texel: the baked colour and coverage, lit like a mesh (draw.frag) by the baked
// normal turned by the instance's heading, and placed at the baked depth so meshes and other
// impostors in front of or behind it occlude as the monster would. Coverage becomes that share of
// the pixel's samples, written as the sample mask (impostorSamples): a leg thinner than a pixel
// keeps its share of the pixel, and the resolve averages what the bake averaged. An instance fading
// between impostor and meshes gives its meshes their share of the samples (fadeMask,
// draw_fade.frag) and takes the rest.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { ImpostorPush pc; };
// The target's samples per pixel (the pipeline's).
layout(constant_id = 0) const uint kSamples = 1;

layout(set = 0, binding = 0) uniform sampler2DArray atlasColor;
layout(set = 0, binding = 1) uniform sampler2DArray atlasNormalDepth;

layout(location = 0) in vec3 inWorld;
layout(location = 1) in vec2 inUV;
layout(location = 2) flat in uint inLayer;
layout(location = 3) flat in vec3 inToEye;
layout(location = 4) flat in float inHeading;
layout(location = 5) flat in vec3 inTint;
layout(location = 6) flat in uint inFadeStep;
layout(location = 0) out vec4 outColor;

void main() {
    // Filtered between texels and levels: colours are premultiplied by coverage, so the filtered
    // texel is the bake's average over the pixel's footprint, not the nearest texel's, whose
    // coverage stood for a pixel a half texel away.
    vec4 color = texture(atlasColor, vec3(inUV, float(inLayer)));
    const uvec2 pixel = uvec2(gl_FragCoord.xy);
    uint mask = sampleRun(impostorSamples(color.a, kSamples, pixel), kSamples, pixel);
    // Fading into its meshes, the impostor leaves them their share of the samples.
    if (inFadeStep != 0u) mask &= ~fadeMask(inFadeStep, kSamples, pixel);
    if (mask == 0u) discard;
    gl_SampleMask[0] = int(mask);
    vec4 normalDepth = texture(atlasNormalDepth, vec3(inUV, float(inLayer))) / color.a;
    vec3 n = turnByHeading(normalize(normalDepth.xyz * 2.0 - 1.0), inHeading);
    FrameGlobals g = Globals(pc.globals).g;
    vec3 l = normalize(-g.lightDirection.xyz);
    float key = max(dot(n, l), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    outColor = vec4(color.rgb / color.a * inTint * (0.75 * key + 0.25 * sky) + vec3(0.02), 1.0);
    // Depth 0 is the sphere's point nearest the eye, 1 its farthest.
    vec3 surface = inWorld + inToEye * pc.sphere.w * (1.0 - 2.0 * normalDepth.w);
    vec4 clip = g.viewProjection * vec4(surface, 1.0);
    gl_FragDepth = clip.z / clip.w;
}
