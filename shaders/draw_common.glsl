// What both draw techniques do once a vertex is in model space: place the instance in the world
// and hand the fragment its material slot, texture coordinates and vertex colour (or its level
// colour, for the `l` view).
#include "common.glsl"

layout(push_constant, scalar) uniform Push { DrawPush pc; };

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec3 outTint;
layout(location = 2) out vec2 outUV;
layout(location = 3) flat out uint outMaterial; // HORDE_NONE: the level view, no material
layout(location = 4) flat out uint outFadeStep;  // draw_fade.frag: the share of samples its meshes take

const vec3 kLevelColors[HORDE_MAX_LEVELS] = vec3[](
    vec3(0.95, 0.95, 0.95), vec3(0.30, 0.75, 0.35), vec3(0.25, 0.55, 0.95), vec3(0.95, 0.80, 0.20),
    vec3(0.95, 0.45, 0.15), vec3(0.85, 0.25, 0.25), vec3(0.70, 0.30, 0.85), vec3(0.20, 0.80, 0.80),
    vec3(0.60, 0.45, 0.25), vec3(0.55, 0.55, 0.55), vec3(0.35, 0.35, 0.35), vec3(0.20, 0.20, 0.20));

// Which visible entry this vertex belongs to, and its vertex within the level; false past the
// list's end (the tail of the last batch). A draw starts at its first instance's entry: the
// list's first, or a brute-force chunk's.
bool visibleEntry(DrawInfo info, out DrawEntry entry, out uint levelVertex) {
    uint k = gl_BaseInstance + (gl_InstanceIndex - gl_BaseInstance) * info.batch + gl_VertexIndex / info.vertexCount;
    levelVertex = gl_VertexIndex % info.vertexCount;
    if (k >= info.firstEntry + info.entries) return false;
    entry = DrawEntries(pc.entries).v[k];
    return true;
}

// `levelVertex` finds the source vertex's texture coordinates and colour through the level's
// vertex order (read only where the draw samples textures or the mesh has colours: pc.order is 0
// otherwise, but for the vertex technique).
void emit(DrawInfo info, DrawEntry entry, uint levelVertex, vec3 modelPosition, vec3 modelNormal) {
    Affine world = Affines(pc.worlds).v[entry.instance];
    vec3 tint = Instances(pc.instances).v[entry.instance].tint.rgb;
    bool levels = Globals(pc.globals).g.tintLevels != 0u;
    // Only the colours' address of the mesh's extras: every vertex of every draw reads it.
    uvec2 colors = isNull(pc.extras) ? uvec2(0u) : MeshExtrasRef(pc.extras).x.colors;
    outNormal = transformVector(world, modelNormal);
    if (levels)
        outTint = kLevelColors[min(info.level, HORDE_MAX_LEVELS - 1u)] * tint;
    else
        outTint = isNull(colors) ? tint : tint * Vec4s(colors).v[Uints(pc.order).v[levelVertex]].rgb;
    outMaterial = levels ? HORDE_NONE : info.material;
    outUV = pc.uvs == uvec2(0u) ? vec2(0.0) : Vec2s(pc.uvs).v[Uints(pc.order).v[levelVertex]];
    outFadeStep = entry.level >> HORDE_FADE_SHIFT;
    gl_Position = Globals(pc.globals).g.viewProjection * vec4(transformPoint(world, modelPosition), 1.0);
}

// A vertex whose skinned data could not be placed this frame: outside the clip volume, so its
// triangles are dropped.
void emitNothing() {
    outNormal = vec3(0.0);
    outTint = vec3(0.0);
    outUV = vec2(0.0);
    outMaterial = HORDE_NONE;
    outFadeStep = 0u;
    gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
}
