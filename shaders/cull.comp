#version 460
// Pass 1, cull: every instance's every-pose sphere against the cull frustum; for the seen ones,
// the draw's transform, a pose (its own, or one shared by instances of the same clip and time
// bucket when sharing moves no vertex by more than the allowed pixels), and an entry in the
// visible list. An own pose's skinned vertices at the levels it wants, and at the coarsest, are
// added to its distance bucket's demand: budget.comp decides from them what the pool can hold,
// and assign.comp draws. Mirrors cullInstance() in engine/crowd/cull_reference.cpp.
#include "compute.glsl"
#include "levels.glsl"

layout(push_constant, scalar) uniform Push { CullPush pc; };

bool outsideFrustum(FrameGlobals g, vec3 centre, float radius) {
    for (int p = 0; p < 6; ++p)
        if (dot(g.cullPlanes[p].xyz, centre) + g.cullPlanes[p].w < -radius) return true;
    return false;
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
    if (inst.clip != HORDE_NONE) {
        ClipRecord clip = Clips(f.clips).v[inst.clip];
        float t = clipTime(clip, inst, pc.time);
        uint bucket = clip.duration > 0.0 ? min(uint(t / clip.duration * float(f.bucketsPerClip)), f.bucketsPerClip - 1u) : 0u;
        sharedPose = inst.clip * f.bucketsPerClip + bucket;
        float error = Floats(f.clipSpeed).v[inst.clip] * clip.duration / float(2u * f.bucketsPerClip);
        share = lod && error * pixelsPerUnit <= pc.lodErrorPixels;
    }
    // Small enough on screen, an instance is one quad of the atlas, which holds the shared poses.
    bool impostor = (pc.flags & HORDE_CULL_IMPOSTORS) != 0u && lod && 2.0 * radius * pixelsPerUnit <= f.impostorPixels;
    share = share || impostor;
    uint pose = f.sharedPoses + instance;
    if (!share && !deterministic) {
        uint slot = atomicAdd(counters.v[HORDE_COUNT_POSES], 1u);
        share = slot >= f.poseCapacity; // out of own slots: the nearest shared pose still animates
        if (!share) {
            Uints(f.poseInstances).v[slot] = instance;
            pose = f.sharedPoses + slot;
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

    uint bucket = g.cullFar > 0.0 ? min(uint(centreDistance / g.cullFar * float(HORDE_DISTANCE_BUCKETS)),
                                        HORDE_DISTANCE_BUCKETS - 1u)
                                  : 0u;
    if (!share && !deterministic && (pc.flags & HORDE_CULL_POOL) != 0u) {
        uint wanted = 0u;
        for (uint m = 0u; m < f.meshCount; ++m)
            wanted += levels.v[meshes.v[m].firstLevel + chosenLevel(meshes.v[m], levels, lod, pixelsPerUnit, pc.lodErrorPixels)]
                          .vertexCount;
        Uints demand = Uints(f.demand);
        atomicAdd(demand.v[bucket], wanted);
        atomicAdd(demand.v[HORDE_DISTANCE_BUCKETS + bucket], lod ? f.coarseVertices : wanted);
    }
    uint entry = atomicAdd(counters.v[HORDE_COUNT_SEEN], 1u);
    if (deterministic) entry = instance;
    VisibleInstances(f.visible).v[entry] =
        VisibleInstance(instance, pose, bucket | (impostor ? HORDE_VISIBLE_IMPOSTOR : 0u), pixelsPerUnit);
}
