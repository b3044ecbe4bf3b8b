#version 460
// An impostor: its instance's every-pose sphere as a rectangle facing the camera, showing the
// tile of its shared pose in the layer of its view (both chosen by the assign pass, DrawEntry.pose
// and .level), drawn as one point sprite over the rectangle's picture. One vertex and one primitive
// an impostor: lavapipe's cost of a quad of two triangles is mostly per primitive, the set-up and
// binning, not per pixel (docs/PERFORMANCE.md, "Far crowds"). The fragment finds where in the
// rectangle it lies through the inverse of the rectangle's projection, so the picture is the
// rectangle's, in perspective, and not the point's square.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { ImpostorPush pc; };

// Target pixel (x, y, 1) to the rectangle's (s, t, 1) over its clip w there, s and t from 0 to 1.
layout(location = 0) flat out mat3 outFromPixel;
layout(location = 3) flat out vec3 outClipZ;      // the rectangle's clip z at (s, t, 1)
layout(location = 4) flat out vec2 outEyeClip;    // clip z and w of the radius towards the eye
layout(location = 5) flat out vec4 outTile;       // the atlas at s = t = 0, and its steps per s and t
layout(location = 6) flat out uint outLayer;
layout(location = 7) flat out float outHeading;
layout(location = 8) flat out vec3 outTint;
layout(location = 9) flat out uint outFadeStep; // 0, or the share its meshes take (HORDE_FADE_STEPS)
layout(location = 10) flat out float outCoverage; // ImpostorView.coverage

// A clip-space point or direction as homogeneous target pixels.
vec3 toPixels(vec4 clip) {
    return vec3((clip.xy + clip.w) * pc.target * 0.5, clip.w);
}

void main() {
    DrawEntry entry = DrawEntries(pc.entries).v[gl_VertexIndex];
    InstanceRecord inst = Instances(pc.instances).v[entry.instance];
    FrameGlobals g = Globals(pc.globals).g;
    vec3 centre = placeInWorld(inst, pc.sphere.xyz);
    vec3 toEye = normalize(g.cameraPosition.xyz - centre);
    vec3 right = normalize(cross(abs(toEye.y) > 0.999 ? vec3(0, 0, -1) : vec3(0, 1, 0), toEye));
    vec3 up = cross(toEye, right);
    // Only the part of the sphere's square the poses reach from this view: fewer fragments.
    uint view = entry.level & HORDE_FADE_FIELD;
    ImpostorView seen = ImpostorViews(pc.views).v[view];
    vec4 bounds = seen.bounds * pc.sphere.w;
    vec4 corner = g.viewProjection * vec4(centre + right * bounds.x + up * bounds.y, 1.0);
    vec4 alongS = g.viewProjection * vec4(right * (bounds.z - bounds.x), 0.0);
    vec4 alongT = g.viewProjection * vec4(up * (bounds.w - bounds.y), 0.0);
    mat3 toPixel = mat3(toPixels(alongS), toPixels(alongT), toPixels(corner));
    outFromPixel = inverse(toPixel);
    outClipZ = vec3(alongS.z, alongT.z, corner.z);
    vec4 eye = g.viewProjection * vec4(toEye * pc.sphere.w, 0.0);
    outEyeClip = eye.zw;

    // The point: the square around the four corners' pictures (a sample the rounding leaves out
    // at the edge would see the tile's empty border).
    vec2 low = vec2(3.4e38), high = vec2(-3.4e38);
    for (int c = 0; c < 4; ++c) {
        vec3 p = toPixel * vec3(float(c & 1), float(c >> 1), 1.0);
        low = min(low, p.xy / p.z);
        high = max(high, p.xy / p.z);
    }
    gl_PointSize = max(high.x - low.x, high.y - low.y);
    // The viewport reaches `guard` pixels past each edge, so that a point whose centre is off
    // the target, but not all of its picture, is not clipped away.
    vec2 ndc = ((low + high) * 0.5 + pc.guard) / (pc.target + 2.0 * pc.guard) * 2.0 - 1.0;
    vec4 middle = g.viewProjection * vec4(centre, 1.0);
    gl_Position = vec4(ndc, middle.z / middle.w, 1.0);

    vec4 tile = impostorTile(Uints(pc.poseTiles).v[entry.pose], pc.tilesPerRow, pc.tileRows);
    // The tile's texels inside its one-texel border span bounds' [-1, 1], v downwards.
    vec2 perUnit = tile.zw * float(HORDE_IMPOSTOR_TILE - 2u) / float(HORDE_IMPOSTOR_TILE) * 0.5 / pc.sphere.w;
    outTile.xy = tile.xy + tile.zw * 0.5 + vec2(bounds.x, -bounds.y) * perUnit;
    outTile.zw = vec2(bounds.z - bounds.x, bounds.y - bounds.w) * perUnit;
    outLayer = view;
    outCoverage = seen.coverage;
    outFadeStep = entry.level >> HORDE_FADE_SHIFT;
    outHeading = inst.placement.w;
    outTint = g.tintLevels != 0u ? vec3(1.0, 1.0, 1.0) : inst.tint.rgb;
}
