#version 460
// Pass 1c, assign: one invocation per instance the cull pass saw, in two stages around a prefix
// sum of the lists (lists.comp), so the draw lists take what is drawn, not a slot per instance in
// every list. Both stages decide alike from what the cull and budget passes left: each mesh's
// level (the coarsest for every mesh where the budget says so), or that the instance is dropped
// whole (the pool cannot hold it, never drawn in part). Counting adds each entry to its (mesh,
// level) list and tallies what is drawn and dropped; filling writes the entries from their
// list's start, takes the instance's range of the vertex pool in one piece and a skin job per
// own-pose mesh. An instance fading into its impostor has entries in both kinds of list, its
// meshes' last in theirs. Mirrors assignInstance() in engine/crowd/cull_reference.cpp.
#include "compute.glsl"
#include "levels.glsl"

layout(push_constant, scalar) uniform Push { CullPush pc; };

// Recomputed where needed rather than held per mesh: a model may have any number of meshes.
uint levelOf(CullMesh mesh, CullLevels levels, bool coarsest, bool lod, float pixelsPerUnit) {
    return coarsest ? mesh.levelCount - 1u : chosenLevel(mesh, levels, lod, pixelsPerUnit, pc.lodErrorPixels);
}

// An impostor's entry in the last list: its level is the view it is drawn from, beside the fade step.
void addImpostor(CrowdFrame f, Uints counters, Uints lists, bool counting, VisibleInstance v, uint fadeStep) {
    if (counting) {
        atomicAdd(counters.v[HORDE_COUNT_IMPOSTORS], 1u);
        if (fadeStep != 0u) atomicAdd(counters.v[HORDE_COUNT_FADING], 1u);
        return;
    }
    InstanceRecord inst = Instances(f.instances).v[v.instance];
    vec3 toEye = Globals(f.globals).g.cullEye.xyz - placeInWorld(inst, f.sphere.xyz);
    uint entry = lists.v[f.listCount] + atomicAdd(lists.v[2u * f.listCount + 1u], 1u);
    DrawEntries(f.entries).v[entry] =
        DrawEntry(v.instance, v.pose, 0u, impostorView(toEye, inst.placement.w) | fadeStep << HORDE_FADE_SHIFT);
}

void main() {
    uint seenIndex = flatInvocation();
    CrowdFrame f = Frames(pc.frame).f;
    Uints counters = Uints(f.counters);
    if (seenIndex >= counters.v[HORDE_COUNT_SEEN]) return;
    bool counting = pc.stage == HORDE_ASSIGN_COUNT;
    VisibleInstance v = VisibleInstances(f.visible).v[seenIndex];
    bool lod = (pc.flags & HORDE_CULL_LOD) != 0u;
    bool pool = (pc.flags & HORDE_CULL_POOL) != 0u;
    bool deterministic = pc.flags == 0u || pc.flags == HORDE_CULL_POOL; // brute force: slot = instance
    Uints lists = Uints(f.listStarts);
    uint fadeStep = (v.bucket >> HORDE_FADE_SHIFT) & (HORDE_FADE_STEPS - 1u);
    uint distanceBucket = v.bucket & HORDE_FADE_FIELD;
    if ((v.bucket & HORDE_VISIBLE_IMPOSTOR) != 0u) {
        if (counting) atomicAdd(counters.v[HORDE_COUNT_VISIBLE], 1u);
        addImpostor(f, counters, lists, counting, v, 0u);
        return;
    }
    bool own = v.pose >= f.sharedPoses + f.blendSlots; // shared: the bucket poses, then the blend table
    bool coarsest = false;
    if (own && pool && !deterministic) {
        if (distanceBucket >= counters.v[HORDE_COUNT_DROP_FROM]) {
            if (counting) atomicAdd(counters.v[HORDE_COUNT_DROPPED], 1u);
            return;
        }
        coarsest = lod && distanceBucket >= counters.v[HORDE_COUNT_COARSE_FROM];
    }

    CullMeshes meshes = CullMeshes(f.meshes);
    CullLevels levels = CullLevels(f.levels);
    uint vertices = 0u;
    for (uint m = 0u; m < f.meshCount; ++m) {
        uint level = levelOf(meshes.v[m], levels, coarsest, lod, v.pixelsPerUnit);
        vertices += levels.v[meshes.v[m].firstLevel + level].vertexCount;
        // A shared pose's vertices come from the budget pass, which may have run out of pool.
        // A fading instance whose meshes cannot be drawn is its impostor whole.
        if (pool && !own && Uints(f.sharedOffsets).v[(v.pose * f.meshCount + m) * HORDE_MAX_LEVELS + level] == HORDE_NONE) {
            if (fadeStep != 0u) {
                if (counting) atomicAdd(counters.v[HORDE_COUNT_VISIBLE], 1u);
                addImpostor(f, counters, lists, counting, v, 0u);
            } else if (counting) {
                atomicAdd(counters.v[HORDE_COUNT_DROPPED], 1u);
            }
            return;
        }
    }
    if (fadeStep != 0u) addImpostor(f, counters, lists, counting, v, fadeStep);
    uint listBase = HORDE_COUNT_HEADER + f.materialCount, fadingBase = listBase + 2u * f.listCount;
    if (counting) {
        atomicAdd(counters.v[HORDE_COUNT_VISIBLE], 1u);
        for (uint m = 0u; m < f.meshCount; ++m) {
            uint list = meshes.v[m].firstLevel + levelOf(meshes.v[m], levels, coarsest, lod, v.pixelsPerUnit);
            atomicAdd(counters.v[listBase + list], 1u);
            if (fadeStep != 0u) atomicAdd(counters.v[fadingBase + list], 1u);
        }
        return;
    }

    // The budget holds every own-pose instance it did not drop; a pool that still runs out (it
    // cannot) would draw the entries empty rather than leave them unwritten.
    uint vertexOffset = 0u;
    if (pool && own) {
        if (deterministic) {
            vertexOffset = v.instance % f.chunkInstances * f.vertexStride;
        } else {
            vertexOffset = atomicAdd(counters.v[HORDE_COUNT_VERTICES], vertices);
            if (vertexOffset + vertices > f.vertexCapacity) vertexOffset = HORDE_NONE;
        }
    }
    for (uint m = 0u; m < f.meshCount; ++m) {
        CullMesh mesh = meshes.v[m];
        uint level = levelOf(mesh, levels, coarsest, lod, v.pixelsPerUnit);
        uint list = mesh.firstLevel + level;
        uint offset = vertexOffset;
        if (pool && !own) {
            offset = HORDE_SHARED_BIT | ((v.pose * f.meshCount + m) * HORDE_MAX_LEVELS + level);
        } else if (pool && vertexOffset != HORDE_NONE) {
            offset = deterministic ? vertexOffset + mesh.vertexBase : vertexOffset;
            uint jobCounter = listBase + f.listCount + list;
            uint job = deterministic ? v.instance : atomicAdd(counters.v[jobCounter], 1u);
            if (deterministic) atomicAdd(counters.v[jobCounter], 1u);
            SkinJobs(f.jobs).v[list * f.jobCapacity + job] = SkinJob(v.pose, offset);
            if (!deterministic) vertexOffset += levels.v[list].vertexCount;
        }
        // A fading instance's entries are its lists' last, drawn by the fading commands.
        uint entry = lists.v[list];
        if (deterministic)
            entry += v.instance;
        else if (fadeStep != 0u)
            entry += counters.v[listBase + list] - 1u - atomicAdd(lists.v[2u * f.listCount + 2u + list], 1u);
        else
            entry += atomicAdd(lists.v[f.listCount + 1u + list], 1u);
        DrawEntries(f.entries).v[entry] = DrawEntry(v.instance, v.pose, offset, level | fadeStep << HORDE_FADE_SHIFT);
    }
}
