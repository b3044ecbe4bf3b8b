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

layout(location = 0) flat in mat3 inFromPixel;
layout(location = 3) flat in vec3 inClipZ;
layout(location = 4) flat in vec2 inEyeClip;
layout(location = 5) flat in vec4 inTile;
layout(location = 6) flat in uint inLayer;
layout(location = 7) flat in float inHeading;
layout(location = 8) flat in vec3 inTint;
layout(location = 9) flat in uint inFadeStep;
layout(location = 10) flat in float inCoverage;
layout(location = 0) out vec4 outColor;

// The key light's clamped cosine averaged over the footprint's normals, whose mean is m: n.l taken
// as normally distributed with mean m.l and variance (1 - |m|^2) / 3 (the spread the mean's
// shortness leaves, shared by three axes), whose positive part has the mean mu Phi(mu / sigma) +
// sigma phi(mu / sigma). Exact for normals that agree; for normals all round, 0.23 against 1/4.
float meanClampedCosine(vec3 m, vec3 l) {
    float mu = dot(m, l);
    float sigma = sqrt(max(1.0 - dot(m, m), 0.0) / 3.0);
    if (sigma < 1e-4) return max(mu, 0.0);
    float x = mu / sigma;
    float below = 1.0 / (1.0 + exp(-1.702 * x)); // the normal distribution's, within 0.01
    return mu * below + sigma * 0.3989423 * exp(-0.5 * x * x);
}

void main() {
    // Where in the rectangle (impostor.vert): outside it, the point's square shows nothing.
    vec3 h = inFromPixel * vec3(gl_FragCoord.xy, 1.0);
    vec2 st = h.xy / h.z;
    vec2 uv = inTile.xy + st * inTile.zw;
    bool inside = all(greaterThanEqual(st, vec2(0.0))) && all(lessThanEqual(st, vec2(1.0)));
    // Filtered between texels and levels: colours are premultiplied by coverage, so the filtered
    // texel is the bake's average over the pixel's footprint, not the nearest texel's, whose
    // coverage stood for a pixel a half texel away.
    vec4 color = texture(atlasColor, vec3(uv, float(inLayer)));
    // The bake's levels may cover less of the view than the source does (a limb thinned to a
    // ribbon within a texel of every point): the coverage they lost is given back.
    const float coverage = min(color.a * inCoverage, 1.0);
    const uvec2 pixel = uvec2(gl_FragCoord.xy);
    uint mask = !inside ? 0u : sampleRun(impostorSamples(coverage, kSamples, pixel), kSamples, pixel);
    // Fading into its meshes, the impostor leaves them their share of the samples.
    if (inFadeStep != 0u) mask &= ~fadeMask(inFadeStep, kSamples, pixel);
    if (mask == 0u) discard;
    gl_SampleMask[0] = int(mask);
    vec4 normalDepth = texture(atlasNormalDepth, vec3(uv, float(inLayer))) / color.a;
    // The filtered normal keeps its length: where the footprint's normals disagree (a leg's, side
    // to side) it is short, and the light, linear in it but for the clamp, is then their lights'
    // mean, as the samples of a mesh average; normalized, every such texel was lit like its
    // brightest part (docs/PERFORMANCE.md, "Level errors that count coverage").
    vec3 n = turnByHeading(normalDepth.xyz * 2.0 - 1.0, inHeading);
    FrameGlobals g = Globals(pc.globals).g;
    vec3 l = normalize(-g.lightDirection.xyz);
    float key = meanClampedCosine(n, l);
    float sky = 0.5 + 0.5 * n.y;
    outColor = vec4(color.rgb / color.a * inTint * (0.75 * key + 0.25 * sky) + vec3(0.02), 1.0);
    // Depth 0 is the sphere's point nearest the eye, 1 its farthest: the rectangle's point moved
    // that far along the radius towards the eye, in clip space (its clip w is 1 / h.z).
    vec2 clip = vec2(dot(inClipZ, vec3(st, 1.0)), 1.0 / h.z) + inEyeClip * (1.0 - 2.0 * normalDepth.w);
    gl_FragDepth = clip.x / clip.y;
}
