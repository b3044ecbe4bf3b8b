#version 460
// Pass 1, cull: every instance's every-pose sphere against the cull frustum; for the seen ones,
// the draw's transform, a pose (its own, or one shared by instances of the same clip and time
// bucket, or in a cross-fade of the same blend, when sharing moves no vertex by more than the
// allowed pixels), whether it is an impostor or fading into one, and an entry in the visible
// list. An own pose's skinned vertices at the levels it wants, and at the coarsest, are added to
// its distance bucket's demand: budget.comp decides from them what the pool can hold, and
// assign.comp draws. Mirrors cullInstance() in engine/crowd/cull_reference.cpp.
#include "compute.glsl"
#include "levels.glsl"

layout(push_constant, scalar) uniform Push { CullPush pc; };

bool outsideFrustum(FrameGlobals g, vec3 centre, float radius) {
    for (int p = 0; p < 6; ++p)
        if (dot(g.cullPlanes[p].xyz, centre) + g.cullPlanes[p].w < -radius) return true;
    return false;
}

// The most pixels across an impostor's point can need (impostor.vert): its rectangle lies in the
// sphere of sqrt(2) times the radius, whose picture at an angle a off the view's axis spans at
// most 2 f sin(b) / (cos(a)^2 - sin(b)^2), sin(b) that radius over the distance; and a pixel for
// rounding. Unbounded where the sphere reaches past the eye's side.
float impostorSpan(FrameGlobals g, vec3 centre, float radius, float distance) {
    float sinB = 1.41421356 * radius / distance;
    float cosA = dot(g.cullPlanes[4].xyz, centre - g.cullEye.xyz) / distance;
    float d = cosA * cosA - sinB * sinB;
    return cosA > 0.0 && d > 0.0 ? 2.0 * g.cullEye.w * sinB / d + 1.0 : 3.4e38;
}

void main() {
    uint instance = flatInvocation();
    CrowdFrame f = Frames(pc.frame).f;
    if (instance >= f.instanceCount) return;
    FrameGlobals g = Globals(f.globals).g;
    InstanceRecord inst = Instances(f.instances).v[instance];
    vec3 centre = placeInWorld(inst, f.sphere.xyz);
    float radius = f.sphere.w;
    if ((pc.flags & HORDE_CULL_FRUSTUM) != 0u && outsideFrustum(g, centre, radius)) return;
    Uints counters = Uints(f.counters);
    // The draw's transform, once per instance rather than once per vertex: the file's axes, the
    // heading, the placement.
    mat4 axes = Matrix(f.axes).m;
    float c = cos(inst.placement.w), s = sin(inst.placement.w);
    mat4 heading = mat4(vec4(c, 0.0, -s, 0.0), vec4(0.0, 1.0, 0.0, 0.0), vec4(s, 0.0, c, 0.0), vec4(inst.placement.xyz, 1.0));
    mat4 world = heading * axes;
    Affine toWorld;
    toWorld.r0 = vec4(world[0][0], world[1][0], world[2][0], world[3][0]);
    toWorld.r1 = vec4(world[0][1], world[1][1], world[2][1], world[3][1]);
    toWorld.r2 = vec4(world[0][2], world[1][2], world[2][2], world[3][2]);
    Affines(f.worlds).v[instance] = toWorld;

    // Pixels one model unit covers at the sphere's nearest point (the camera inside it: level 0).
    float centreDistance = length(centre - g.cullEye.xyz);
    float distance = centreDistance - radius;
    float pixelsPerUnit = distance > 0.0 ? g.cullEye.w / distance : 3.4e38;
    bool lod = (pc.flags & HORDE_CULL_LOD) != 0u;
    bool deterministic = pc.flags == 0u || pc.flags == HORDE_CULL_POOL; // brute force: slot = instance

    // A shared pose is sampled at the middle of its time bucket, so it is off by at most half a
    // bucket of clip time: no vertex moves more than clipSpeed x that.
    uint sharedPose = f.sharedPoses - 1u; // the bind pose
    bool share = inst.clip == HORDE_NONE && lod;
    Clips clips = Clips(f.clips);
    float error = 0.0;
    uint bucket = 0u;
    if (inst.clip != HORDE_NONE) {
        ClipRecord clip = clips.v[inst.clip];
        bucket = timeBucket(clip, clipTime(clip, inst, pc.time), f.bucketsPerClip);
        sharedPose = inst.clip * f.bucketsPerClip + bucket;
        error = Floats(f.clipSpeed).v[inst.clip] * clip.duration / float(2u * f.bucketsPerClip);
        share = lod && error * pixelsPerUnit <= pc.lodErrorPixels;
    }
    // In a cross-fade, the pose blends two clips: an own pose, or, far enough away, a blend shared
    // with every instance of the same two buckets and weight step, which rounding both clip times
    // to their buckets and the weight to its step moves no vertex past the allowed pixels.
    float fade = fadeWeight(inst, pc.time);
    uint blend = HORDE_NONE;
    uint dominant = sharedPose;
    if (fade < 1.0) {
        share = false;
        uint fromBucket = 0u;
        float fromError = 0.0;
        uint fromPose = f.sharedPoses - 1u;
        if (inst.fromClip != HORDE_NONE) {
            ClipRecord from = clips.v[inst.fromClip];
            fromBucket = timeBucket(from, fromClipTime(from, inst, pc.time), f.bucketsPerClip);
            fromPose = inst.fromClip * f.bucketsPerClip + fromBucket;
            fromError = Floats(f.clipSpeed).v[inst.fromClip] * from.duration / float(2u * f.bucketsPerClip);
        }
        dominant = fade >= 0.5 ? sharedPose : fromPose;
        bool keyed = f.blendSlots > 0u && inst.clip < 255u && inst.fromClip < 255u;
        if (lod && keyed && (max(error, fromError) + f.blendError) * pixelsPerUnit <= pc.lodErrorPixels)
            blend = blendKey(inst.clip, bucket, inst.fromClip, fromBucket, fade);
    }
    // Small enough on screen, an instance is one quad of the atlas, which holds the shared poses
    // (a cross-fade's the one its weight leans to). A little larger, it fades from the quad to its
    // meshes over a band of sizes, both drawn in the quad's pose so that the two halves agree.
    float size = 2.0 * radius * pixelsPerUnit;
    // An impostor is one point sprite: one the device cannot draw that wide is its meshes.
    bool impostors = (pc.flags & HORDE_CULL_IMPOSTORS) != 0u && lod &&
                     impostorSpan(g, centre, radius, centreDistance) <= f.largestPoint;
    bool impostor = impostors && size <= f.impostorPixels;
    uint fadeStep = 0u;
    // Past the entries kept for fading quads, an instance is its meshes alone, as without the fade.
    if (impostors && !impostor && size < f.fadePixels &&
        atomicAdd(counters.v[HORDE_COUNT_FADE_SLOTS], 1u) < f.fadeCapacity)
        fadeStep = clamp(uint((size - f.impostorPixels) / (f.fadePixels - f.impostorPixels) * float(HORDE_FADE_STEPS)),
                         1u, HORDE_FADE_STEPS - 1u);
    if (impostor || fadeStep != 0u) sharedPose = dominant;
    share = share || impostor || fadeStep != 0u;
    if (!share && blend != HORDE_NONE) {
        // The table's slot for the key; a slot another key took this frame leaves an own pose.
        uint slot = (blend * 2654435761u) >> (32u - uint(findMSB(f.blendSlots)));
        uint held = atomicCompSwap(Uints(f.blendKeys).v[slot], HORDE_NONE, blend);
        if (held == HORDE_NONE || held == blend) {
            share = true;
            sharedPose = f.sharedPoses + slot;
            atomicAdd(counters.v[HORDE_COUNT_BLENDS], 1u);
        }
    }
    uint ownBase = f.sharedPoses + f.blendSlots;
    uint pose = ownBase + instance;
    if (!share && !deterministic) {
        uint slot = atomicAdd(counters.v[HORDE_COUNT_POSES], 1u);
        share = slot >= f.poseCapacity; // out of own slots: the nearest shared pose still animates
        if (!share) {
            Uints(f.poseInstances).v[slot] = instance;
            pose = ownBase + slot;
        } else {
            sharedPose = dominant;
        }
    } else if (deterministic) {
        atomicAdd(counters.v[HORDE_COUNT_POSES], 1u);
        Uints(f.poseInstances).v[instance] = instance;
    }
    CullMeshes meshes = CullMeshes(f.meshes);
    CullLevels levels = CullLevels(f.levels);
    if (share) {
        pose = sharedPose;
        atomicAdd(counters.v[HORDE_COUNT_SHARED], 1u);
        // A shared (pose, mesh, level) is skinned once for every instance drawing it.
        if ((pc.flags & HORDE_CULL_POOL) != 0u && !impostor)
            for (uint m = 0u; m < f.meshCount; ++m) {
                uint level = chosenLevel(meshes.v[m], levels, lod, pixelsPerUnit, pc.lodErrorPixels);
                Uints(f.sharedRequests).v[(pose * f.meshCount + m) * HORDE_MAX_LEVELS + level] = 1u;
            }
    }

    uint distanceBucket = g.cullFar > 0.0 ? min(uint(centreDistance / g.cullFar * float(HORDE_DISTANCE_BUCKETS)),
                                                HORDE_DISTANCE_BUCKETS - 1u)
                                          : 0u;
    if (!share && !deterministic && (pc.flags & HORDE_CULL_POOL) != 0u) {
        uint wanted = 0u;
        for (uint m = 0u; m < f.meshCount; ++m)
            wanted += levels.v[meshes.v[m].firstLevel + chosenLevel(meshes.v[m], levels, lod, pixelsPerUnit, pc.lodErrorPixels)]
                          .vertexCount;
        Uints demand = Uints(f.demand);
        atomicAdd(demand.v[distanceBucket], wanted);
        atomicAdd(demand.v[HORDE_DISTANCE_BUCKETS + distanceBucket], lod ? f.coarseVertices : wanted);
    }
    uint entry = atomicAdd(counters.v[HORDE_COUNT_SEEN], 1u);
    if (deterministic) entry = instance;
    uint kind = fadeStep << HORDE_FADE_SHIFT | (impostor ? HORDE_VISIBLE_IMPOSTOR : 0u);
    VisibleInstances(f.visible).v[entry] = VisibleInstance(instance, pose, distanceBucket | kind, pixelsPerUnit);
}
