#version 460
// Baking the impostor atlas: instance i is shared pose i x stride, the first of the poses its tile
// stands for. A level vertex is morphed by that pose's weights and skinned with its palette (the
// vertex technique's morph and blend), put in the world's axes, seen along this layer's view
// direction by an orthographic camera that holds the model's every-pose sphere, and moved into
// pose i's tile (the played clips' poses have tiles, one after another). A border texel around
// each tile keeps its neighbours apart in the mips.
#include "common.glsl"
#include "morph.glsl"

layout(push_constant, scalar) uniform Push { ImpostorBakePush pc; };

layout(location = 0) out vec3 outNormal; // world axes, before an instance's heading
layout(location = 1) out vec2 outUV;
layout(location = 2) out vec3 outColor; // the vertex's colour, white where the mesh has none

void main() {
    uint pose = gl_InstanceIndex * pc.poseStride;
    uint v = Uints(pc.order).v[gl_VertexIndex];
    Affines palette = Affines(pc.palette);
    uint base = pose * pc.jointCount;
    Affine m;
    if (isNull(pc.joints)) {
        m = palette.v[base];
    } else {
        uvec4 j = loadJoints(pc.joints, v);
        vec4 w = Vec4s(pc.weights).v[v];
        m.r0 = vec4(0.0); m.r1 = vec4(0.0); m.r2 = vec4(0.0);
        for (int k = 0; k < 4; ++k) {
            if (w[k] <= 0.0) continue;
            Affine p = palette.v[base + j[k]];
            m.r0 += p.r0 * w[k];
            m.r1 += p.r1 * w[k];
            m.r2 += p.r2 * w[k];
        }
    }
    vec3 position = Vec3s(pc.positions).v[v], normal = Vec3s(pc.normals).v[v];
    MeshExtras extras = meshExtras(pc.extras);
    morphVertex(extras, pose, v, position, normal);
    outColor = isNull(extras.colors) ? vec3(1.0) : Vec4s(extras.colors).v[v].rgb;
    mat4 axes = Matrix(pc.axes).m;
    vec3 world = (axes * vec4(transformPoint(m, position), 1.0)).xyz;
    outNormal = normalize(mat3(axes) * transformNormal(m, normal));
    outUV = isNull(pc.uvs) ? vec2(0.0) : Vec2s(pc.uvs).v[v];

    vec3 right, up, back;
    impostorFrame(pc.view, right, up, back);
    vec3 q = (world - pc.sphere.xyz) / pc.sphere.w;
    vec2 across = vec2(dot(q, right), dot(q, up)) * (float(HORDE_IMPOSTOR_TILE - 2u) / float(HORDE_IMPOSTOR_TILE));
    vec4 tile = impostorTile(Uints(pc.poseTiles).v[pose], pc.tilesPerRow, pc.tileRows);
    // Texture y runs down the layer, the view's up runs up it.
    vec2 uv = tile.xy + (vec2(across.x, -across.y) * 0.5 + 0.5) * tile.zw;
    gl_Position = vec4(uv * 2.0 - 1.0, 0.5 - 0.5 * dot(q, back), 1.0);
}
