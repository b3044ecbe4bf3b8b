#version 460
// Pass 1, cull: every instance's every-pose sphere against the cull frustum; for the visible
// ones, a level per mesh from the projected error and a pose (its own, or one shared by
// instances of the same clip and time bucket when sharing moves no vertex by more than the
// allowed pixels), appended to the (mesh, level) lists the draws and skin jobs read.
// Mirrors cullInstance() in engine/anim/cull_reference.cpp.
#include "compute.glsl"

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
    atomicAdd(counters.v[HORDE_COUNT_VISIBLE], 1u);
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
    float distance = length(centre - g.cullEye.xyz) - radius;
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
    if (share) {
        pose = sharedPose;
        atomicAdd(counters.v[HORDE_COUNT_SHARED], 1u);
    }

    CullMeshes meshes = CullMeshes(f.meshes);
    CullLevels levels = CullLevels(f.levels);
    bool pool = (pc.flags & HORDE_CULL_POOL) != 0u;
    for (uint m = 0u; m < f.meshCount; ++m) {
        CullMesh mesh = meshes.v[m];
        uint level = 0u;
        if (lod)
            for (uint l = 1u; l < mesh.levelCount && levels.v[mesh.firstLevel + l].error * pixelsPerUnit <= pc.lodErrorPixels; ++l)
                level = l;
        uint list = mesh.firstLevel + level;
        uint vertexCount = levels.v[list].vertexCount;
        uint vertexOffset = 0u;
        if (pool && share) {
            uint combination = (pose * f.meshCount + m) * HORDE_MAX_LEVELS + level;
            Uints(f.sharedRequests).v[combination] = 1u;
            vertexOffset = HORDE_SHARED_BIT | combination;
        } else if (pool) {
            uint jobCounter = HORDE_COUNT_HEADER + f.materialCount + f.listCount + list;
            uint job;
            if (deterministic) {
                vertexOffset = instance % f.chunkInstances * f.vertexStride + mesh.vertexBase;
                job = instance;
                atomicAdd(counters.v[jobCounter], 1u);
            } else {
                vertexOffset = atomicAdd(counters.v[HORDE_COUNT_VERTICES], vertexCount);
                if (vertexOffset + vertexCount > f.vertexCapacity) {
                    atomicAdd(counters.v[HORDE_COUNT_DROPPED], 1u);
                    continue;
                }
                job = atomicAdd(counters.v[jobCounter], 1u);
            }
            SkinJobs(f.jobs).v[list * f.jobCapacity + job] = SkinJob(pose, vertexOffset);
        }
        uint listCounter = HORDE_COUNT_HEADER + f.materialCount + list;
        uint entry = deterministic ? instance : atomicAdd(counters.v[listCounter], 1u);
        if (deterministic) atomicAdd(counters.v[listCounter], 1u);
        DrawEntries(f.entries).v[list * f.instanceCount + entry] = DrawEntry(instance, pose, vertexOffset, level);
    }
}
