#version 460
// An impostor's texel: the baked colour and coverage, lit like a mesh (draw.frag) by the baked
// normal turned by the instance's heading, and placed at the baked depth so meshes and other
// impostors in front of or behind it occlude as the monster would. Coverage goes out as alpha,
// which the pipeline turns into samples (alpha to coverage): a leg thinner than a pixel keeps its
// share of the pixel.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { ImpostorPush pc; };

layout(set = 0, binding = 0) uniform sampler2DArray atlasColor;
layout(set = 0, binding = 1) uniform sampler2DArray atlasNormalDepth;

layout(location = 0) in vec3 inWorld;
layout(location = 1) in vec2 inUV;
layout(location = 2) flat in uint inLayer;
layout(location = 3) flat in vec3 inToEye;
layout(location = 4) flat in float inHeading;
layout(location = 5) flat in vec3 inTint;
layout(location = 0) out vec4 outColor;

void main() {
    // The nearest texel of the level nearest the screen's footprint (the sampler filters nothing):
    // its coverage is the average of the bake's samples under it, and blending neighbours or
    // levels would spread it over pixels the monster does not reach.
    vec4 color = texture(atlasColor, vec3(inUV, float(inLayer)));
    if (color.a < 1.0 / 255.0) discard;
    vec4 normalDepth = texture(atlasNormalDepth, vec3(inUV, float(inLayer))) / color.a;
    vec3 n = turnByHeading(normalize(normalDepth.xyz * 2.0 - 1.0), inHeading);
    FrameGlobals g = Globals(pc.globals).g;
    vec3 l = normalize(-g.lightDirection.xyz);
    float key = max(dot(n, l), 0.0);
    float sky = 0.5 + 0.5 * n.y;
    outColor = vec4(color.rgb / color.a * inTint * (0.75 * key + 0.25 * sky) + vec3(0.02), color.a);
    // Depth 0 is the sphere's point nearest the eye, 1 its farthest.
    vec3 surface = inWorld + inToEye * pc.sphere.w * (1.0 - 2.0 * normalDepth.w);
    vec4 clip = g.viewProjection * vec4(surface, 1.0);
    gl_FragDepth = clip.z / clip.w;
}
