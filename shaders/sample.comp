#version 460
// Pass 2, sample: every (pose slot, node) gets its local transform at its instance's clip time,
// blended in a cross-fade with the clip it fades from, and every pose slot its morph weights;
// each slot of the shared-blend table gets the blend its key names, one invocation a slot.
// Mirrors sampleLocals(), sampleBlendedLocals() and sampleMorphWeights() in
// engine/anim/reference.cpp.
#include "compute.glsl"

layout(push_constant, scalar) uniform Push { SamplePush pc; };

// Largest i with times[i] <= t, given times[0] < t < times[last].
uint findKey(ChannelRecord c, float t) {
    Floats times = Floats(pc.times);
    uint last = c.keyCount - 1u;
    uint lo = 0u, hi = last;
    if (c.invStep > 0.0) {
        // Uniform keys: guess from the spacing, then settle on the true key with the real times.
        uint guess = uint(clamp(floor((t - c.firstKeyTime) * c.invStep), 0.0, float(last - 1u)));
        lo = guess > 0u ? guess - 1u : 0u;
        hi = min(guess + 2u, last);
        if (times.v[c.firstTime + lo] > t) lo = 0u;
        if (times.v[c.firstTime + hi] <= t) hi = last;
    }
    while (hi - lo > 1u) {
        uint mid = (lo + hi) >> 1u;
        if (times.v[c.firstTime + mid] <= t) lo = mid; else hi = mid;
    }
    return lo;
}

// Where t falls among a channel's keys: between keys a and b, u of the way (a == b: key a
// alone), and for a cubic spline the span's length dt (0: not cubic). Every path reads its keys
// through this, as sampleChannel() and sampleMorphChannel() in engine/anim/reference.cpp do.
struct KeySpan {
    uint a, b;
    float u, dt;
};

KeySpan keySpan(ClipRecord clip, ChannelRecord c, float t) {
    Floats times = Floats(pc.times);
    uint last = c.keyCount - 1u;
    if (c.keyCount == 1u || t <= times.v[c.firstTime]) return KeySpan(0u, 0u, 0.0, 0.0);
    float lastTime = times.v[c.firstTime + last];
    if (t >= lastTime) {
        float tail = clip.duration - lastTime;
        if (clip.end == 1u && tail > 0.0 && c.interpolation != 1u)
            return KeySpan(last, 0u, min((t - lastTime) / tail, 1.0), 0.0);
        return KeySpan(last, last, 0.0, 0.0);
    }
    uint i = findKey(c, t);
    if (c.interpolation == 1u) return KeySpan(i, i, 0.0, 0.0);
    float t0 = times.v[c.firstTime + i], dt = times.v[c.firstTime + i + 1u] - t0;
    float u = dt > 0.0 ? (t - t0) / dt : 1.0;
    return KeySpan(i, i + 1u, u, c.interpolation == 2u ? dt : 0.0);
}

// Cubic Hermite between p0 and p1 with tangents m0 (out of p0) and m1 (into p1) over dt.
vec4 hermite(vec4 p0, vec4 m0, vec4 p1, vec4 m1, float u, float dt) {
    float u2 = u * u, u3 = u2 * u;
    return (2.0 * u3 - 3.0 * u2 + 1.0) * p0 + (u3 - 2.0 * u2 + u) * dt * m0 + (-2.0 * u3 + 3.0 * u2) * p1 +
           (u3 - u2) * dt * m1;
}

vec4 keyValue(ChannelRecord c, uint k, uint part) {
    uint stride = c.interpolation == 2u ? 3u : 1u;
    uint offset = c.interpolation == 2u ? part : 0u;
    return Vec4s(pc.values).v[c.firstValue + k * stride + offset];
}

vec4 blendKeys(ClipRecord clip, ChannelRecord c, vec4 a, vec4 b, float u) {
    if (c.path != 1u) return mix(a, b, u);
    float d = dot(a, b);
    if (d < 0.0) { b = -b; d = -d; }
    if (clip.rotationBlend == 0u && d < 1.0 - 1e-6) {
        float angle = acos(min(d, 1.0));
        float s = sin(angle);
        return normalize(a * (sin((1.0 - u) * angle) / s) + b * (sin(u * angle) / s));
    }
    return normalize(mix(a, b, u));
}

vec4 sampleChannel(ClipRecord clip, ChannelRecord c, float t) {
    KeySpan k = keySpan(clip, c, t);
    if (k.a == k.b) return keyValue(c, k.a, 1u);
    if (k.dt == 0.0) return blendKeys(clip, c, keyValue(c, k.a, 1u), keyValue(c, k.b, 1u), k.u);
    vec4 r = hermite(keyValue(c, k.a, 1u), keyValue(c, k.a, 2u), keyValue(c, k.b, 1u), keyValue(c, k.b, 0u), k.u, k.dt);
    return c.path == 1u ? normalize(r) : r;
}

struct Trs {
    vec3 t;
    vec4 r;
    vec3 s;
};

// A node's local transform in `clipIndex` at clip time `time` (its rest where no channel drives it).
Trs sampleNode(uint clipIndex, float time, uint node, NodeRest rest) {
    Trs x = Trs(rest.translation.xyz, rest.rotation, rest.scale.xyz);
    if (clipIndex == HORDE_NONE) return x;
    ClipRecord clip = Clips(pc.clips).v[clipIndex];
    Uints table = Uints(pc.channelTable);
    Channels channels = Channels(pc.channels);
    uint base = clip.channelTable + node * 3u;
    uint ct = table.v[base], cr = table.v[base + 1u], cs = table.v[base + 2u];
    if (ct != HORDE_NONE) x.t = sampleChannel(clip, channels.v[ct], time).xyz;
    if (cr != HORDE_NONE) x.r = sampleChannel(clip, channels.v[cr], time);
    if (cs != HORDE_NONE) x.s = sampleChannel(clip, channels.v[cs], time).xyz;
    return x;
}

// `a` toward `b` by `w`: translation and scale lerped, rotation by normalised lerp on the shorter
// arc. Mirrors blendTrs() in engine/anim/reference.cpp.
Trs blendTrs(Trs a, Trs b, float w) {
    vec4 to = dot(a.r, b.r) < 0.0 ? -b.r : b.r;
    return Trs(mix(a.t, b.t, w), normalize(mix(a.r, to, w)), mix(a.s, b.s, w));
}

// Morph weights (MorphTables): target `target` of a weights channel's key k, part as keyValue's.
layout(buffer_reference, scalar) buffer MorphTablesRef { MorphTables t; };
layout(buffer_reference, scalar) buffer MorphMeshes { MorphMeshRecord v[]; };

float morphKeyValue(MorphTables m, ChannelRecord c, uint targets, uint target, uint k, uint part) {
    uint stride = c.interpolation == 2u ? 3u : 1u;
    uint offset = c.interpolation == 2u ? part : 0u;
    return Floats(m.values).v[c.firstValue + (k * stride + offset) * targets + target];
}

// One target's weight in `clipIndex` at clip time `time`: the mesh's weights channel there, or
// its resting weight where the clip keys none for it.
float sampleWeight(MorphTables m, MorphMeshRecord mesh, uint meshIndex, uint clipIndex, float time, uint target) {
    uint channel = clipIndex == HORDE_NONE ? HORDE_NONE : Uints(m.channelTable).v[clipIndex * m.meshCount + meshIndex];
    if (channel == HORDE_NONE) return Floats(m.values).v[mesh.restWeights + target];
    ChannelRecord c = Channels(pc.channels).v[channel];
    KeySpan k = keySpan(Clips(pc.clips).v[clipIndex], c, time);
    float a = morphKeyValue(m, c, mesh.targets, target, k.a, 1u);
    if (k.a == k.b) return a;
    float b = morphKeyValue(m, c, mesh.targets, target, k.b, 1u);
    if (k.dt == 0.0) return mix(a, b, k.u);
    return hermite(vec4(a), vec4(morphKeyValue(m, c, mesh.targets, target, k.a, 2u)), vec4(b),
                   vec4(morphKeyValue(m, c, mesh.targets, target, k.b, 0u)), k.u, k.dt).x;
}

// Every morphing mesh's run of pose slot `slot` (gpu_types.h): `clip` at `t`, in a cross-fade
// lerped from `fromClip` at `fromTime` by `weight` (1: `clip` alone), the targets that weigh nothing
// left out.
void sampleWeights(uint slot, uint clip, float t, uint fromClip, float fromTime, float weight) {
    if (isNull(pc.morphs)) return;
    MorphTables m = MorphTablesRef(pc.morphs).t;
    Uints written = Uints(pc.morphWeights);
    for (uint mi = 0u; mi < m.meshCount; ++mi) {
        MorphMeshRecord mesh = MorphMeshes(m.meshes).v[mi];
        if (mesh.targets == 0u) continue;
        uint run = slot * m.weightCount + mesh.firstWeight, weighing = 0u;
        for (uint target = 0u; target < mesh.targets; ++target) {
            float w = sampleWeight(m, mesh, mi, clip, t, target);
            if (weight < 1.0) w = mix(sampleWeight(m, mesh, mi, fromClip, fromTime, target), w, weight);
            if (w == 0.0) continue;
            written.v[run + 1u + 2u * weighing] = target;
            written.v[run + 2u + 2u * weighing] = floatBitsToUint(w);
            ++weighing;
        }
        written.v[run] = weighing;
    }
}

// A slot of the shared-blend table, every node of it: one invocation a slot, as most slots are
// empty in a frame and an empty one should cost one read.
void sampleSharedBlend(uint slot) {
    if (slot >= pc.countIndex) return;
    uint key = Uints(pc.blendKeys).v[slot];
    if (key == HORDE_NONE) return;
    // The key names both clips' buckets and the fade's weight step (common.glsl blendKey).
    uint clip = key >> 24u, bucket = (key >> 18u) & 63u, fromClip = (key >> 10u) & 255u, fromBucket = (key >> 4u) & 63u;
    float weight = (float(key & 15u) + 0.5) / float(HORDE_BLEND_STEPS);
    Clips clips = Clips(pc.clips);
    float t = bucketTime(clips.v[clip], bucket, pc.bucketsPerClip);
    float ft = bucketTime(clips.v[fromClip], fromBucket, pc.bucketsPerClip);
    for (uint node = 0u; node < pc.nodeCount; ++node) {
        NodeRest rest = NodeRests(pc.rest).v[node];
        Trs x = blendTrs(sampleNode(fromClip, ft, node, rest), sampleNode(clip, t, node, rest), weight);
        Affines(pc.locals).v[(pc.firstSlot + slot) * pc.nodeCount + node] = fromTrs(x.t, x.r, x.s);
    }
    sampleWeights(pc.firstSlot + slot, clip, t, fromClip, ft, weight);
}

void main() {
    uint id = flatInvocation();
    if (isNull(pc.poseInstances)) {
        sampleSharedBlend(id);
        return;
    }
    if (id >= pc.nodeCount * Uints(pc.counters).v[pc.countIndex]) return;
    uint local = id / pc.nodeCount, node = id % pc.nodeCount;
    NodeRest rest = NodeRests(pc.rest).v[node];
    InstanceRecord inst = Instances(pc.instances).v[Uints(pc.poseInstances).v[local]];
    float t = inst.clip != HORDE_NONE ? clipTime(Clips(pc.clips).v[inst.clip], inst, pc.time) : 0.0;
    Trs x = sampleNode(inst.clip, t, node, rest);
    float weight = fadeWeight(inst, pc.time);
    bool fading = weight < 1.0 && inst.fromClip != HORDE_NONE;
    float ft = fading ? fromClipTime(Clips(pc.clips).v[inst.fromClip], inst, pc.time) : 0.0;
    if (weight < 1.0) x = blendTrs(sampleNode(inst.fromClip, ft, node, rest), x, weight);
    Affines(pc.locals).v[(pc.firstSlot + local) * pc.nodeCount + node] = fromTrs(x.t, x.r, x.s);
    // The slot's first invocation samples its morph weights too: a few dozen at most a model.
    if (node == 0u) sampleWeights(pc.firstSlot + local, inst.clip, t, inst.fromClip, ft, weight);
}
