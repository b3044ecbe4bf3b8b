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
layout(buffer_reference, scalar) buffer ImpostorViews { ImpostorView v[]; };
layout(buffer_reference, scalar) buffer SkinJobs { SkinJob v[]; };
layout(buffer_reference, scalar) buffer DrawInfos { DrawInfo v[]; };
layout(buffer_reference, scalar) buffer VisibleInstances { VisibleInstance v[]; };

bool isNull(uvec2 a) { return a.x == 0u && a.y == 0u; }

layout(buffer_reference, scalar) buffer MeshExtrasRef { MeshExtras x; };

// A mesh's MeshExtras; at address 0, none: four influences, no colours, no morph targets.
MeshExtras meshExtras(uvec2 extras) {
    MeshExtras none;
    none.more = uvec2(0u);
    none.colors = uvec2(0u);
    none.morphTargets = 0u;
    if (isNull(extras)) return none;
    return MeshExtrasRef(extras).x;
}

// A clip's time at phase + speed x time, wrapped past the end (inclusive) or clamped. Mirrors
// clipTime() in engine/anim/reference.cpp.
float clipTimeAt(ClipRecord clip, float phase, float speed, uint loop, float time) {
    float t = phase + speed * time;
    float d = clip.duration;
    if (d <= 0.0) return 0.0;
    if (loop == 0u || (t >= 0.0 && t <= d)) return clamp(t, 0.0, d);
    float wrapped = t - d * floor(t / d);
    return wrapped == 0.0 && t > 0.0 ? d : wrapped;
}

// An instance's own clip time, and that of the clip it fades from.
float clipTime(ClipRecord clip, InstanceRecord inst, float time) {
    return clipTimeAt(clip, inst.phase, inst.speed, inst.loop, time);
}
float fromClipTime(ClipRecord clip, InstanceRecord inst, float time) {
    return clipTimeAt(clip, inst.fromPhase, inst.fromSpeed, inst.loop, time);
}

// The weight of an instance's clip in its cross-fade (its fromClip has the rest): 1 without one.
float fadeWeight(InstanceRecord inst, float time) {
    if (inst.fromClip == HORDE_NONE || !(inst.fadeLength > 0.0)) return 1.0;
    return clamp((time - inst.fadeStart) / inst.fadeLength, 0.0, 1.0);
}

// A shared blend's key: the clip an instance fades into and its time bucket, the clip it fades
// from and its bucket, and the fade's weight in HORDE_BLEND_STEPS steps, packed into one word
// (clips below 255, buckets below 64: the scene gives the table no slots otherwise).
uint blendKey(uint clip, uint bucket, uint fromClip, uint fromBucket, float weight) {
    uint step = min(uint(weight * float(HORDE_BLEND_STEPS)), HORDE_BLEND_STEPS - 1u);
    return (clip << 24u) | (bucket << 18u) | (fromClip << 10u) | (fromBucket << 4u) | step;
}

// A clip time's bucket of the shared poses, and the time its pose is sampled at (the middle).
uint timeBucket(ClipRecord clip, float t, uint bucketsPerClip) {
    return clip.duration > 0.0 ? min(uint(t / clip.duration * float(bucketsPerClip)), bucketsPerClip - 1u) : 0u;
}
float bucketTime(ClipRecord clip, uint bucket, uint bucketsPerClip) {
    return clip.duration * (float(bucket) + 0.5) / float(bucketsPerClip);
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

// The atlas view an impostor is drawn from: the baked direction nearest the one from its
// sphere's centre to the eye, turned into the model's frame (before the instance's heading):
// azimuth steps around it, elevation steps from its horizon up. Mirrors impostorView() in
// engine/anim/cull_reference.cpp.
uint impostorView(vec3 toEye, float heading) {
    float c = cos(heading), s = sin(heading);
    vec3 d = vec3(c * toEye.x - s * toEye.z, toEye.y, s * toEye.x + c * toEye.z);
    float step = 6.2831853 / float(HORDE_IMPOSTOR_AZIMUTHS);
    int azimuth = int(round(atan(d.x, d.z) / step));
    uint a = uint((azimuth + int(HORDE_IMPOSTOR_AZIMUTHS)) % int(HORDE_IMPOSTOR_AZIMUTHS));
    float up = asin(clamp(d.y / max(length(d), 1e-20), -1.0, 1.0));
    uint e = uint(clamp(round(up / HORDE_IMPOSTOR_ELEVATION_STEP), 0.0, float(HORDE_IMPOSTOR_ELEVATIONS - 1u)));
    return e * HORDE_IMPOSTOR_AZIMUTHS + a;
}

// A baked view's frame in the model's world axes: `back` from the model toward the eye (azimuth
// about +Y from +Z, elevation above the horizon, as OrbitCamera turns), `right` and `up` across
// its tiles.
void impostorFrame(uint view, out vec3 right, out vec3 up, out vec3 back) {
    float a = float(view % HORDE_IMPOSTOR_AZIMUTHS) * (6.2831853 / float(HORDE_IMPOSTOR_AZIMUTHS));
    float e = float(view / HORDE_IMPOSTOR_AZIMUTHS) * HORDE_IMPOSTOR_ELEVATION_STEP;
    back = vec3(sin(a) * cos(e), sin(e), cos(a) * cos(e));
    right = vec3(cos(a), 0.0, -sin(a));
    up = cross(back, right);
}

// Where a pose's tile lies in an atlas layer, in texture coordinates: its corner and size.
vec4 impostorTile(uint pose, uint tilesPerRow, uint tileRows) {
    vec2 size = vec2(1.0 / float(tilesPerRow), 1.0 / float(tileRows));
    return vec4(vec2(float(pose % tilesPerRow), float(pose / tilesPerRow)) * size, size);
}

// How many of a pixel's `samples` an impostor texel of coverage `alpha` takes: its share, rounded
// by a 4 x 4 ordered dither, so a patch of one coverage gets that share of its samples on average
// (alpha to coverage left the far crowd brighter than the true image on lavapipe). With one sample
// a pixel, the texel is drawn or not: a screen door of the same average. Mirrors impostorSamples()
// in engine/crowd/impostor_coverage.cpp.
uint impostorSamples(float alpha, uint samples, uvec2 pixel) {
    const uint bayer[16] = uint[16](0u, 8u, 2u, 10u, 12u, 4u, 14u, 6u, 3u, 11u, 1u, 9u, 15u, 7u, 13u, 5u);
    float dither = (float(bayer[(pixel.y % 4u) * 4u + pixel.x % 4u]) + 0.5) / 16.0;
    return uint(clamp(floor(alpha * float(samples) + dither), 0.0, float(samples)));
}

// Which samples those are: a run of `covered` starting at a sample that moves from pixel to pixel,
// so two impostors of part coverage over one pixel do not both take its first samples (the nearer
// would hide the farther wholly). Mirrors sampleRun() in engine/crowd/impostor_coverage.cpp.
uint sampleRun(uint covered, uint samples, uvec2 pixel) {
    uint all = (1u << samples) - 1u, run = (1u << covered) - 1u;
    uint first = (pixel.x + 2u * pixel.y) % samples;
    return ((run << first) | (run >> (samples - first))) & all;
}

// The samples a fading instance's meshes take at `pixel`, its impostor the others
// (HORDE_FADE_STEPS): those whose rank, the pixel's 4 x 4 ordered-dither index x samples + the
// sample, lies below the meshes' share of 16 x samples, so over any 4 x 4 block they take their
// share to a sample.
// Whole pixels first: each half keeps all its samples at its edges (splitting every pixel's
// samples instead made a dolly's frames change more, docs/PERFORMANCE.md "Popping"). Mirrors
// fadeMask() in engine/crowd/impostor_coverage.cpp.
uint fadeMask(uint step, uint samples, uvec2 pixel) {
    const uint bayer[16] = uint[16](0u, 8u, 2u, 10u, 12u, 4u, 14u, 6u, 3u, 11u, 1u, 9u, 15u, 7u, 13u, 5u);
    uint dither = bayer[(pixel.y % 4u) * 4u + pixel.x % 4u], mask = 0u;
    // Rank r is taken where r + 1/2 < step / HORDE_FADE_STEPS x 16 x samples.
    for (uint i = 0u; i < samples; ++i)
        if ((2u * (dither * samples + i) + 1u) * HORDE_FADE_STEPS < 32u * step * samples) mask |= 1u << i;
    return mask;
}

// A model-frame vector turned by an instance's heading about +Y (placeInWorld's turn).
vec3 turnByHeading(vec3 v, float heading) {
    float c = cos(heading), s = sin(heading);
    return vec3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z);
}
