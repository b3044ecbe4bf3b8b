// Declarations every pass shares: buffer references over device addresses and transform maths.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
#extension GL_EXT_scalar_block_layout : require

#include "gpu_types.h"

layout(buffer_reference, scalar) buffer Floats { float v[]; };
layout(buffer_reference, scalar) buffer Uints { uint v[]; };
layout(buffer_reference, scalar) buffer Vec2s { vec2 v[]; };
layout(buffer_reference, scalar) buffer Vec3s { vec3 v[]; };
layout(buffer_reference, scalar) buffer Vec4s { vec4 v[]; };
layout(buffer_reference, scalar) buffer Joints4 { uvec2 v[]; }; // four 16-bit joint indices
layout(buffer_reference, scalar) buffer Affines { Affine v[]; };
layout(buffer_reference, scalar) buffer NodeRests { NodeRest v[]; };
layout(buffer_reference, scalar) buffer Clips { ClipRecord v[]; };
layout(buffer_reference, scalar) buffer Channels { ChannelRecord v[]; };
layout(buffer_reference, scalar) buffer Instances { InstanceRecord v[]; };
layout(buffer_reference, scalar) buffer JointRecords { JointRecord v[]; };
layout(buffer_reference, scalar) buffer Globals { FrameGlobals g; };
layout(buffer_reference, scalar) buffer Frames { CrowdFrame f; };
layout(buffer_reference, scalar) buffer Matrix { mat4 m; };
layout(buffer_reference, scalar) buffer CullMeshes { CullMesh v[]; };
layout(buffer_reference, scalar) buffer CullLevels { CullLevel v[]; };
layout(buffer_reference, scalar) buffer LevelSubmeshes { LevelSubmesh v[]; };
layout(buffer_reference, scalar) buffer DrawEntries { DrawEntry v[]; };
layout(buffer_reference, scalar) buffer SkinJobs { SkinJob v[]; };
layout(buffer_reference, scalar) buffer DrawInfos { DrawInfo v[]; };
layout(buffer_reference, scalar) buffer VisibleInstances { VisibleInstance v[]; };

bool isNull(uvec2 a) { return a.x == 0u && a.y == 0u; }

// An instance's clip time: phase + speed x time, wrapped past the end (inclusive) or clamped. Mirrors clipTime() in
// engine/anim/reference.cpp.
float clipTime(ClipRecord clip, InstanceRecord inst, float time) {
    float t = inst.phase + inst.speed * time;
    float d = clip.duration;
    if (d <= 0.0) return 0.0;
    if (inst.loop == 0u || (t >= 0.0 && t <= d)) return clamp(t, 0.0, d);
    float wrapped = t - d * floor(t / d);
    return wrapped == 0.0 && t > 0.0 ? d : wrapped;
}

// A model-space point of an instance in the world: turned about Y by its yaw, then placed.
vec3 placeInWorld(InstanceRecord inst, vec3 p) {
    float c = cos(inst.placement.w), s = sin(inst.placement.w);
    return vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z) + inst.placement.xyz;
}

// Unpacked in the shader so that no 16-bit storage feature is needed.
uvec4 loadJoints(uvec2 address, uint vertex) {
    uvec2 packed = Joints4(address).v[vertex];
    return uvec4(packed.x & 0xFFFFu, packed.x >> 16u, packed.y & 0xFFFFu, packed.y >> 16u);
}

vec3 transformPoint(Affine m, vec3 p) {
    vec4 h = vec4(p, 1.0);
    return vec3(dot(m.r0, h), dot(m.r1, h), dot(m.r2, h));
}

vec3 transformVector(Affine m, vec3 v) {
    return vec3(dot(m.r0.xyz, v), dot(m.r1.xyz, v), dot(m.r2.xyz, v));
}

// a * b, both affine.
Affine compose(Affine a, Affine b) {
    Affine r;
    vec4 c0 = vec4(b.r0.x, b.r1.x, b.r2.x, 0.0);
    vec4 c1 = vec4(b.r0.y, b.r1.y, b.r2.y, 0.0);
    vec4 c2 = vec4(b.r0.z, b.r1.z, b.r2.z, 0.0);
    vec4 c3 = vec4(b.r0.w, b.r1.w, b.r2.w, 1.0);
    r.r0 = vec4(dot(a.r0, c0), dot(a.r0, c1), dot(a.r0, c2), dot(a.r0, c3));
    r.r1 = vec4(dot(a.r1, c0), dot(a.r1, c1), dot(a.r1, c2), dot(a.r1, c3));
    r.r2 = vec4(dot(a.r2, c0), dot(a.r2, c1), dot(a.r2, c2), dot(a.r2, c3));
    return r;
}

// T * R * S as rows, quaternion (x, y, z, w).
Affine fromTrs(vec3 t, vec4 q, vec3 s) {
    float x = q.x, y = q.y, z = q.z, w = q.w;
    mat3 r = mat3(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + z * w), 2.0 * (x * z - y * w),
                  2.0 * (x * y - z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + x * w),
                  2.0 * (x * z + y * w), 2.0 * (y * z - x * w), 1.0 - 2.0 * (x * x + y * y));
    Affine m;
    m.r0 = vec4(r[0][0] * s.x, r[1][0] * s.y, r[2][0] * s.z, t.x);
    m.r1 = vec4(r[0][1] * s.x, r[1][1] * s.y, r[2][1] * s.z, t.y);
    m.r2 = vec4(r[0][2] * s.x, r[1][2] * s.y, r[2][2] * s.z, t.z);
    return m;
}

// Normals go through the cofactor matrix (the inverse transpose up to scale), sign-corrected
// for mirroring transforms, so they stay perpendicular under non-uniform scale.
vec3 transformNormal(Affine m, vec3 n) {
    vec3 a = m.r0.xyz, b = m.r1.xyz, c = m.r2.xyz;
    vec3 cr0 = cross(b, c), cr1 = cross(c, a), cr2 = cross(a, b);
    float det = dot(a, cr0);
    vec3 r = vec3(dot(cr0, n), dot(cr1, n), dot(cr2, n));
    float len = length(r);
    return len > 0.0 ? r * (sign(det) / len) : r;
}
