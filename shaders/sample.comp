#version 460
// Pass 2, sample: every (pose slot, node) gets its local transform at its instance's clip time,
// blended in a cross-fade with the clip it fades from; each slot of the shared-blend table gets
// the blend its key names, one invocation a slot. Mirrors sampleLocals() and sampleBlendedLocals() in
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
    Floats times = Floats(pc.times);
    uint last = c.keyCount - 1u;
    if (c.keyCount == 1u || t <= times.v[c.firstTime]) return keyValue(c, 0u, 1u);
    float lastTime = times.v[c.firstTime + last];
    if (t >= lastTime) {
        float tail = clip.duration - lastTime;
        if (clip.end == 1u && tail > 0.0 && c.interpolation != 1u)
            return blendKeys(clip, c, keyValue(c, last, 1u), keyValue(c, 0u, 1u), min((t - lastTime) / tail, 1.0));
        return keyValue(c, last, 1u);
    }
    uint i = findKey(c, t);
    float t0 = times.v[c.firstTime + i], t1 = times.v[c.firstTime + i + 1u], dt = t1 - t0;
    float u = dt > 0.0 ? (t - t0) / dt : 1.0;
    if (c.interpolation == 1u) return keyValue(c, i, 1u);
    if (c.interpolation == 0u) return blendKeys(clip, c, keyValue(c, i, 1u), keyValue(c, i + 1u, 1u), u);
    float u2 = u * u, u3 = u2 * u;
    vec4 r = (2.0 * u3 - 3.0 * u2 + 1.0) * keyValue(c, i, 1u) + (u3 - 2.0 * u2 + u) * dt * keyValue(c, i, 2u) +
             (-2.0 * u3 + 3.0 * u2) * keyValue(c, i + 1u, 1u) + (u3 - u2) * dt * keyValue(c, i + 1u, 0u);
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
    if (weight < 1.0) {
        float ft = inst.fromClip != HORDE_NONE ? fromClipTime(Clips(pc.clips).v[inst.fromClip], inst, pc.time) : 0.0;
        x = blendTrs(sampleNode(inst.fromClip, ft, node, rest), x, weight);
    }
    Affines(pc.locals).v[(pc.firstSlot + local) * pc.nodeCount + node] = fromTrs(x.t, x.r, x.s);
}
