#version 460
// An impostor: its instance's every-pose sphere as one quad facing the camera, showing the tile
// of its shared pose in the layer of its view (both chosen by the assign pass, DrawEntry.pose
// and .level). Six vertices a quad in one draw, not an instance a quad: lavapipe pays per
// instance about what it pays for the quad's whole vertex work (firstVertex is six times the
// list's start).
#include "common.glsl"

layout(push_constant, scalar) uniform Push { ImpostorPush pc; };

layout(location = 0) out vec3 outWorld;           // the quad's point: the depth is found from it
layout(location = 1) out vec2 outUV;              // in the layer
layout(location = 2) flat out uint outLayer;
layout(location = 3) flat out vec3 outToEye;      // unit, from the sphere's centre
layout(location = 4) flat out float outHeading;
layout(location = 5) flat out vec3 outTint;
layout(location = 6) flat out uint outFadeStep; // 0, or the share its meshes take (HORDE_FADE_STEPS)

// The quad's two triangles, corner by corner.
const vec2 kCorners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));

void main() {
    DrawEntry entry = DrawEntries(pc.entries).v[gl_VertexIndex / 6];
    InstanceRecord inst = Instances(pc.instances).v[entry.instance];
    FrameGlobals g = Globals(pc.globals).g;
    vec3 centre = placeInWorld(inst, pc.sphere.xyz);
    vec3 toEye = normalize(g.cameraPosition.xyz - centre);
    vec3 right = normalize(cross(abs(toEye.y) > 0.999 ? vec3(0, 0, -1) : vec3(0, 1, 0), toEye));
    vec3 up = cross(toEye, right);
    // Only the part of the sphere's square the poses reach from this view: fewer fragments.
    uint view = entry.level & HORDE_FADE_FIELD;
    vec4 bounds = Vec4s(pc.bounds).v[view];
    vec2 corner = mix(bounds.xy, bounds.zw, kCorners[gl_VertexIndex % 6] * 0.5 + 0.5);
    outWorld = centre + (right * corner.x + up * corner.y) * pc.sphere.w;
    vec4 tile = impostorTile(Uints(pc.poseTiles).v[entry.pose], pc.tilesPerRow, pc.tileRows);
    float inner = float(HORDE_IMPOSTOR_TILE - 2u) / float(HORDE_IMPOSTOR_TILE);
    outUV = tile.xy + (vec2(corner.x, -corner.y) * inner * 0.5 + 0.5) * tile.zw;
    outLayer = view;
    outFadeStep = entry.level >> HORDE_FADE_SHIFT;
    outToEye = toEye;
    outHeading = inst.placement.w;
    outTint = g.tintLevels != 0u ? vec3(1.0, 1.0, 1.0) : inst.tint.rgb;
    gl_Position = g.viewProjection * vec4(outWorld, 1.0);
}
