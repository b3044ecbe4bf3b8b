// GPU records and push constants, shared by the C++ engine and the GLSL passes so each layout
// is written once. Buffers are reached through device addresses (scalar layout), so passes
// need no descriptor sets; a C++ `address` is the uvec2 GLSL sees.
#ifndef HORDE_GPU_TYPES_H
#define HORDE_GPU_TYPES_H

#ifdef __cplusplus
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
namespace horde::gpu {
using uint = uint32_t;
using vec2 = glm::vec2;
using vec4 = glm::vec4;
using mat4 = glm::mat4;
using address = uint64_t;
#else
#define address uvec2
#endif

// One invocation per (instance, node), (instance, joint) or (instance, vertex).
#define HORDE_WORKGROUP 64
// Marks a missing channel, clip or parent in the tables below.
#define HORDE_NONE 0xFFFFFFFFu

// An affine transform as three rows: p' = (dot(r0, p1), dot(r1, p1), dot(r2, p1)).
struct Affine {
    vec4 r0;
    vec4 r1;
    vec4 r2;
};

// Skinning, chosen per scene (anim/skinning.h) and given to the passes as specialization
// constants (skinning.glsl): a linear blend of matrices, or of dual quaternions.
#define HORDE_SKIN_LBS 0u
#define HORDE_SKIN_DQS 1u
// 32-bit words of one palette entry: LBS an Affine (12 floats, or its 12 values as halves in 6
// words); DQS the rotation and translation as a dual quaternion and the symmetric stretch applied
// before it (8 + 6 floats padded to 16 words, or 14 halves padded to 8).
#define HORDE_PALETTE_WORDS_LBS 12u
#define HORDE_PALETTE_WORDS_LBS_HALF 6u
#define HORDE_PALETTE_WORDS_DQS 16u
#define HORDE_PALETTE_WORDS_DQS_HALF 8u
// A pooled skinned vertex at half precision: position then normal, three halves each, in 3 words.
#define HORDE_POOL_WORDS_HALF 3u

struct NodeRest {
    vec4 translation; // w: parent index as uint (HORDE_NONE for roots)
    vec4 rotation;    // quaternion x, y, z, w
    vec4 scale;
};

struct ClipRecord {
    float duration;
    uint end;           // 0 hold, 1 wrap to first key
    uint rotationBlend; // 0 slerp, 1 nlerp
    uint channelTable;  // first entry of this clip's (node, path) -> channel table
};

struct ChannelRecord {
    uint firstTime;
    uint firstValue;
    uint keyCount;
    uint interpolation; // 0 linear, 1 step, 2 cubic spline
    float firstKeyTime;
    float invStep;      // 1 / key spacing when keys are uniform (the fast path), else 0
    uint path;          // 0 translation, 1 rotation, 2 scale, 3 morph weights
    uint pad;
};

// Morph targets (sample.comp samples the weights, morph.glsl morphs before skinning). Every
// morphing mesh has its run in each pose slot's weights: its targets' weights in the slot's clip,
// or its resting weights where the clip keys none for it (sampleMorphWeights() in
// engine/anim/reference.cpp), kept as the targets that weigh anything: their count, then a
// (target, weight) pair each, the target as uint bits. A clip keyed frame by frame (a Horse's
// gallop) weighs one or two of its targets at a time, and each vertex then reads only those.
#define HORDE_MORPH_RUN(targets) (1u + 2u * (targets))
struct MorphMeshRecord {
    uint targets;     // 0: the mesh does not morph
    uint firstWeight; // its run's start in a pose slot's weights (HORDE_MORPH_RUN(targets) long)
    uint restWeights; // into MorphTables.values: its weights where no clip keys them
    uint pad;
};

// One model's morph tables, read through one address (SamplePush.morphs). A weights channel is a
// ChannelRecord (path 3) whose keys are `targets` floats each in `values` (cubic: in-tangents,
// weights, out-tangents), its times among the clips' other key times.
struct MorphTables {
    address meshes;       // MorphMeshRecord per mesh
    address channelTable; // per (clip, mesh): its weights channel, or HORDE_NONE
    address values;       // floats: resting weights and keyed weights
    uint meshCount;
    uint weightCount;     // words per pose slot: every morphing mesh's run
};

// What a mesh's vertices need beyond positions, normals and four influences, one record per (mesh,
// frame slot): the skin pass, the draws and the impostor bake read it.
struct MeshExtras {
    address more;           // influences five to eight (MoreInfluences); 0 where the mesh keeps four
    address colors;         // linear RGBA per source vertex (glTF COLOR_0), times the material's; 0: none
    address morphPositions; // vec3 per (target, source vertex); 0: the mesh does not morph
    address morphNormals;   // likewise; 0: its targets move no normals
    address morphWeights;   // this frame slot's weights: MorphTables.weightCount words per pose slot
    uint morphTargets;
    uint vertexCount;       // source vertices: one target's stride
    uint firstWeight;       // the mesh's run in a pose slot's weights
    uint weightCount;       // words per pose slot (MorphTables.weightCount)
};

// One instance of a crowd, as every pass reads it. What it plays: `clip` at phase + speed x time
// (common.glsl clipTime); in a cross-fade, `fromClip` at fromPhase + fromSpeed x time too, whose
// weight falls from 1 to 0 over [fadeStart, fadeStart + fadeLength] (fadeWeight). The behaviour
// pass (behaviour.comp) advances the rest each frame and moves the placement; left zero, a record
// is one clip looping, no fade, no state.
struct InstanceRecord {
    uint clip; // HORDE_NONE: bind pose
    float phase;
    float speed;
    uint loop;
    vec4 placement; // world x, y, z and yaw in radians
    vec4 tint;
    uint fromClip;  // the clip fading out; HORDE_NONE: none
    float fromPhase;
    float fromSpeed;
    float fadeStart;
    float fadeLength; // 0: no fade
    uint state;       // behaviour state; HORDE_NONE (or past the behaviour's states): none
    float stateEnd;   // when it ends
    uint random;      // the instance's random stream
    float turnRate;   // radians a second
};

// Behaviour (behaviour.comp, engine/crowd/behaviour.h): one model's states, each with the clips it
// may play and the transitions out of it.
#define HORDE_BEHAVIOUR_MAX_STATES 16u
struct BehaviourStateRecord {
    uint firstClip;       // into the state-clip list
    uint clipCount;       // 0: the model has no clip for it, and never enters it
    uint firstTransition; // into the transition list
    uint transitionCount; // none: the state follows itself
    float minSeconds;     // how long it lasts: minSeconds + spanSeconds x a random share
    float spanSeconds;
    float turn;           // radians over the state, to a random side
    uint moves;           // 1: walks at its clip's speed
};

struct BehaviourTransitionRecord {
    uint to;
    float upTo; // taken by a random share below this and at or above the previous transition's
};

// Per clip: how fast an instance playing it walks (root motion taken out of the clip, or the
// speed that keeps its planted foot still), in world units per second of clip time, before the
// instance's heading; and the cross-fade into it, in seconds.
struct ClipMotionRecord {
    float velocityX;
    float velocityZ;
    float fade; // < 0: the crowd's cross-fade (BehaviourPush.crossfade)
    uint pad;
};

struct BehaviourPush {
    address instances;
    address states;
    address stateClips;
    address transitions;
    address motion;   // ClipMotionRecord per clip
    address counters; // the model's counters: HORDE_COUNT_TRANSITIONS and after
    vec4 area;        // world x0, z0, x1, z1: walkers outside turn back
    float time;
    float step;       // seconds since the last frame
    uint instanceCount;
    uint stateCount;  // 0: every instance loops its clip (nothing to do)
    float crossfade;  // seconds, for a clip whose file gives none
    uint clipCount;
    address fadeFloors; // float per (clip left, clip entered): the shortest fade without a pop
};

struct JointRecord {
    Affine inverseBind;
    uint node;
    uint pad0, pad1, pad2;
};

// Sample and pose run over pose slots: slot s animates instance poseInstances[s] (written by the
// cull pass, or once at creation for the shared poses). Their dispatches are sized on the GPU.
struct SamplePush {
    address instances;
    address poseInstances; // 0: the slots are the blend table's, their poses in blendKeys
    address clips;
    address channelTable;
    address channels;
    address times;
    address values;
    address rest;
    address locals;     // out: Affine per (pose slot, node)
    address counters;   // pose slots in use: counters[countIndex]
    float time;
    uint nodeCount;
    uint countIndex;    // counters[countIndex]: slots in use; with blendKeys instead, the table's size
    uint firstSlot;     // slot of poseInstances[0]
    address blendKeys;  // the shared blends' keys (HORDE_NONE: unused), when poseInstances is 0
    uint bucketsPerClip;
    uint pad;
    address morphs;       // MorphTables; 0: the model has no morph targets
    address morphWeights; // out: MorphTables.weightCount words per pose slot
};

struct PosePush {
    address rest;
    address locals;
    address joints;
    address palette; // out: Affine per (pose slot, joint)
    address counters;
    uint nodeCount;
    uint jointCount;
    uint countIndex; // counters[countIndex]: slots in use; with blendKeys instead, the table's size
    uint firstSlot;
    address blendKeys; // blend-table slots: a slot whose key is HORDE_NONE is skipped; 0 for own slots
};

// One dispatch per (mesh, level): every job of that list skins the level's vertices
// (order[0 .. vertexCount)) with its pose into the pool at its vertex offset.
struct SkinPush {
    address positions;
    address normals;
    address order;    // level vertex -> source vertex
    address joints;   // u16vec4 per vertex; 0 for static meshes (rigid to jointBase)
    address weights;
    address extras;   // MeshExtras: influences five to eight, morph targets
    address palette;  // entries in the scene's form (HORDE_PALETTE_WORDS_*)
    address jobs;     // SkinJob per job of this list
    address counters; // jobs in this list: counters[countIndex]
    address outPositions; // at half precision, positions and normals together (HORDE_POOL_WORDS_HALF)
    address outNormals;
    uint vertexCount;
    uint jointBase;
    uint jointCount;
    uint countIndex;
    uint jobLimit;    // jobs past this many are left to another dispatch (brute force's chunks)
    uint pad;
};

struct FrameGlobals {
    mat4 viewProjection;
    vec4 lightDirection;
    vec4 cameraPosition;
    // The camera culling and level choice use (the drawing camera unless frozen): frustum
    // planes (xyz inward normal, w offset) and its eye, w = pixels per world unit at distance 1.
    vec4 cullPlanes[6];
    vec4 cullEye;
    uint tintLevels; // 1: colour each instance by its level (the `l` key)
    float cullFar;   // no part of the crowd is farther from cullEye: distance buckets span [0, cullFar)
    uint pad1, pad2;
};

// One indirect-count draw per mesh; gl_DrawID picks the command's DrawInfo, gl_InstanceIndex
// the visible entry (firstInstance is the list's base).
struct DrawPush {
    address globals;
    address instances;
    address entries;
    address drawInfo;      // DrawInfo per command of this mesh
    address sharedOffsets; // vertex offset of each shared (pose, mesh, level), for entries marked shared
    address positions;     // skinned pool (compute technique) or source (vertex technique)
    address normals;
    address order;         // vertex technique: level vertex -> source vertex
    address joints;        // vertex technique only; 0 for static meshes (rigid to jointBase)
    address weights;
    address palette;
    address materials;     // MaterialRecord per material slot of the model (LevelSubmesh.material)
    address worlds;        // Affine per instance (the cull pass's)
    uint jointBase;
    uint jointCount;
    address extras; // MeshExtras: vertex colours; the vertex technique's influences five to eight, morph targets
    address uvs;  // source texture coordinates (vec2), found through `order`; 0: the mesh has none
};

// The material table: one record per material slot of every model in a scene, in one buffer.
// Each slot's commands are drawn by their own indirect-count draw with the descriptor set of its
// base texture bound (set 0, binding 0; created once, never updated): devices without
// shaderSampledImageArrayDynamicIndexing (lavapipe) cannot index an array of samplers by a
// draw's material. `texture` names that set: 0 the 1x1 white, 1 the magenta/black checker a
// missing texture draws with, then one per texture file.
#define HORDE_TEXTURE_WHITE 0u
#define HORDE_TEXTURE_MISSING 1u
#define HORDE_ALPHA_OPAQUE 0u
#define HORDE_ALPHA_MASK 1u
#define HORDE_ALPHA_BLEND 2u
#define HORDE_MATERIAL_DOUBLE_SIDED 1u
struct MaterialRecord {
    vec4 baseColor; // linear RGBA, times the base texture
    uint texture;   // its image (descriptor set) in the scene's table
    uint alphaMode; // HORDE_ALPHA_*
    float alphaCutoff;
    uint flags;     // HORDE_MATERIAL_*
};

// Culling and level choice: one invocation per instance (cull.comp).
#define HORDE_MAX_LEVELS 12
#define HORDE_CULL_FRUSTUM 1u      // drop instances whose sphere is outside the cull frustum
#define HORDE_CULL_LOD 2u          // choose levels by projected error, share far poses
#define HORDE_CULL_POOL 4u         // compute technique: skin into the pool (jobs and offsets)
#define HORDE_CULL_IMPOSTORS 8u    // with LOD: instances drawn this small are one quad from the atlas
#define HORDE_SHARED_BIT 0x80000000u // DrawEntry.vertexOffset: index into sharedOffsets instead

// counters[] layout: a fixed header, then draw counts per material slot, then per-list counts
// (entries, skin jobs, fading entries), then fading draw counts per material slot.
#define HORDE_COUNT_VISIBLE 0     // instances drawn (every mesh of them)
#define HORDE_COUNT_POSES 1       // own pose slots handed out this frame
#define HORDE_COUNT_VERTICES 2    // skinned-vertex pool cursor
#define HORDE_COUNT_DROPPED 3     // instances seen but not drawn: the pool could not hold them
#define HORDE_COUNT_SHARED 4      // seen instances given a shared pose
#define HORDE_COUNT_SEEN 5        // instances inside the cull frustum: entries of the visible list
#define HORDE_COUNT_COARSE_FROM 6 // distance bucket from which own-pose instances take coarsest levels
#define HORDE_COUNT_DROP_FROM 7   // distance bucket from which they are dropped
#define HORDE_COUNT_IMPOSTORS 8   // instances drawn as impostors (their list is the last)
#define HORDE_COUNT_TRANSITIONS 9 // behaviour: cross-fades begun this frame
#define HORDE_COUNT_BLENDING 10   // behaviour: instances in a cross-fade
#define HORDE_COUNT_MOVED 11      // behaviour: instances whose placement changed
#define HORDE_COUNT_BLENDS 12     // seen instances given a shared blend (a slot of the blend table)
#define HORDE_COUNT_FADING 13     // instances drawn as meshes and as impostors, fading from one to the other
#define HORDE_COUNT_FADE_SLOTS 14 // instances the cull pass let fade (past fadeCapacity: meshes only)
#define HORDE_COUNT_STATES 16     // behaviour: instances per state, HORDE_BEHAVIOUR_MAX_STATES of them
#define HORDE_COUNT_HEADER 32

// A shared blend rounds a cross-fade's weight to one of this many steps (common.glsl blendKey).
#define HORDE_BLEND_STEPS 16u

// The pool's budget (budget.comp): own-pose instances' skinned vertices per distance bucket, at
// the levels they want and at every mesh's coarsest level, decide how far out instances may keep
// their levels; past that they take the coarsest, and only when even that cannot fit are the
// farthest dropped. Mirrors poolBudget() in engine/crowd/cull_reference.cpp.
#define HORDE_DISTANCE_BUCKETS 256

// Crossing the impostor threshold, an instance whose sphere spans between CrowdFrame.impostorPixels
// and .fadePixels is drawn both ways: its meshes take a share of every pixel's samples, in steps of
// 1/HORDE_FADE_STEPS, its impostor the rest (common.glsl fadeMask). The step rides in the upper half
// of VisibleInstance.bucket and of both kinds' DrawEntry.level; 0: not fading. A list's fading
// entries are its last ones, drawn by their own commands (draw_fade.frag).
#define HORDE_FADE_STEPS 256u
#define HORDE_FADE_SHIFT 16u
#define HORDE_FADE_FIELD 0xFFFFu // the lower half: the distance bucket, the level or the view

// An instance inside the cull frustum, as the cull pass leaves it for the assign pass.
#define HORDE_VISIBLE_IMPOSTOR 0x80000000u // VisibleInstance.bucket: drawn as an impostor
struct VisibleInstance {
    uint instance;
    uint pose;           // shared pose index, or sharedPoses + its own slot
    uint bucket;         // distance bucket of its sphere's centre | fade step << HORDE_FADE_SHIFT | HORDE_VISIBLE_IMPOSTOR
    float pixelsPerUnit; // at the sphere's nearest point: what its levels are chosen by
};

struct CullMesh {
    uint firstLevel;  // into the CullLevel table
    uint levelCount;
    uint vertexBase;  // brute force: this mesh's first vertex in an instance's run of the pool
    uint pad;
};

// A (mesh, level): its index in this table is its list, whose entry count is
// counters[HORDE_COUNT_HEADER + materialCount + list], its job count the listCount after that, and
// of its entries those of fading instances (the last ones) the listCount after that; then comes
// the fading draws' count per material slot (HORDE_FADE_STEPS).
struct CullLevel {
    float error;       // model units
    uint vertexCount;  // skinned per drawn instance
    uint mesh;
    uint firstSubmesh; // into the LevelSubmesh table
    uint submeshCount;
    uint batch;        // instances one draw instance carries (below)
    uint pad0, pad1;
};

// A small level's indices are stored `batch` times over, copy k offset by k x vertexCount, so
// one drawn instance carries `batch` crowd instances: per-instance cost in the rasterizer front
// end (large on a CPU driver, and wasteful on any GPU for a few dozen vertices) is paid once.
struct LevelSubmesh {
    uint firstIndex; // of the first copy
    uint indexCount; // of one copy
    uint material;   // material slot of the model (its MaterialRecord and its draw)
    uint pad;
};

// One drawn (instance, mesh) at a level.
struct DrawEntry {
    uint instance;
    uint pose;         // palette slot
    uint vertexOffset; // pool offset, or HORDE_SHARED_BIT | shared (pose, mesh, level) index
    uint level;        // the level (an impostor: its atlas view) | fade step << HORDE_FADE_SHIFT
};

struct SkinJob {
    uint pose;
    uint vertexOffset;
};

struct DrawInfo {
    uint material;
    uint level;
    uint batch;       // crowd instances per drawn instance
    uint vertexCount; // of the level: gl_VertexIndex / vertexCount picks the instance in the batch
    uint entries;     // visible entries in the list; a batch's tail past them draws nothing
    uint firstEntry;  // the list's first entry (a draw's first instance may be further on)
};

// Everything the per-frame bookkeeping of one model's crowd reads and writes, in one record per
// frame slot, written once at creation: the cull and plan passes take only its address.
struct CrowdFrame {
    address globals;
    address instances;
    address clips;
    address clipSpeed;      // float per clip: bound on vertex speed, model units per clip second
    address meshes;         // CullMesh per mesh
    address levels;         // CullLevel per (mesh, level)
    address submeshes;      // LevelSubmesh per (mesh, level, submesh)
    address counters;
    address entries;        // DrawEntry lists one after another, each as long as it is this frame
    address sharedRequests; // uint per shared (pose, mesh, level): 1 when some visible instance uses it
    address sharedOffsets;  // uint per shared (pose, mesh, level): its pool offset this frame
    address jobs;           // SkinJob lists, jobCapacity each
    address poseInstances;  // instance of each own pose slot
    address dispatches;     // VkDispatchIndirectCommand: sample, pose, assign, then one skin dispatch per list
    address draws;          // VkDrawIndexedIndirectCommand, commandsPerMesh per material slot, then as many fading
    address drawInfo;       // DrawInfo beside each command
    address worlds;         // Affine per instance: model axes to world, written for visible ones
    address axes;           // mat4: the model file's axes to horde's right-handed Y-up world
    address visible;        // VisibleInstance per seen instance (brute force: at its own index)
    address demand;         // uint per distance bucket: wanted vertices, then as many at the coarsest levels
    // uint per list: its first entry (a prefix sum of the counts); then a fill cursor per list; then
    // one per list filling its fading entries from its end
    address listStarts;
    vec4 sphere;            // every pose's bound, in world axes: centre, radius
    uint instanceCount;
    uint meshCount;
    uint listCount;
    uint sharedCount;       // shared (pose, mesh, level) combinations
    uint sharedPoses;       // clips x bucketsPerClip + 1 (bind pose); own slots follow them
    uint bucketsPerClip;
    uint poseCapacity;      // own pose slots
    uint vertexCapacity;    // skinned-vertex pool
    uint jobCapacity;       // per list
    uint commandsPerMesh;
    uint nodeCount;
    uint jointCount;
    uint workgroupLimit;    // the device's maxComputeWorkGroupCount[0]
    uint vertexStride;      // brute force: pool vertices per instance (every mesh at level 0)
    uint chunkInstances;    // brute force: instances skinned and drawn together through the pool
    uint materialCount;     // material slots: every mesh's submeshes
    uint coarseVertices;    // every mesh at its coarsest level: what an instance needs at least
    float impostorPixels;   // an instance whose sphere projects this many pixels across or fewer is an impostor
    address impostorDraw;   // VkDrawIndirectCommand: the impostors' points (impostor.vert)
    // Shared blends: instances in a cross-fade far enough away share a pose sampled once for their
    // two clips' time buckets and the fade's weight step, kept this frame in a table of blendSlots
    // keys (HORDE_NONE: free) whose slot s is pose sharedPoses + s; own slots follow it.
    address blendKeys;
    uint blendSlots;        // a power of two, at least 2; 0: no sharing of blends
    float blendError;       // model units a weight step's rounding may move a vertex (and its bound's spread)
    float fadePixels;       // up to this many pixels across, an instance past impostorPixels fades (HORDE_FADE_STEPS)
    uint fadeCapacity;      // instances that may fade in a frame (draw-list entries kept for their quads)
    float largestPoint;     // pixels: the device's widest point sprite, the most an impostor may span
    uint pad0;
};

// The cull pass, and the assign pass at each of its two stages.
#define HORDE_ASSIGN_COUNT 0u // counts each (mesh, level) list's entries and what is drawn or dropped
#define HORDE_ASSIGN_FILL 1u  // writes the entries at their list's start, skin jobs and pool ranges
struct CullPush {
    address frame;
    float time;
    float lodErrorPixels;
    uint flags;
    uint stage; // assign: HORDE_ASSIGN_*
};

struct PlanPush {
    address frame;
};

// Impostors: each model's posed monster baked into an atlas at scene creation, per view
// direction (a layer: HORDE_IMPOSTOR_AZIMUTHS around the model, times HORDE_IMPOSTOR_ELEVATIONS from
// the horizon up) and per shared pose (a tile of the layer), and drawn as one camera-facing quad
// an instance: premultiplied colour with coverage as alpha, and normal and depth to light it and
// place it among meshes.
#define HORDE_IMPOSTOR_AZIMUTHS 12u
#define HORDE_IMPOSTOR_ELEVATIONS 3u
#define HORDE_IMPOSTOR_ELEVATION_STEP 0.5235988f // 30 degrees between elevations
#define HORDE_IMPOSTOR_TILE 32u                   // texels across a tile: the pose's sphere

// Baking: one instance per shared pose, its level vertices skinned with that pose's palette and
// seen along one view direction into its tile.
struct ImpostorBakePush {
    address positions;  // the mesh's source streams
    address normals;
    address order;      // level vertex -> source vertex
    address joints;
    address weights;
    address palette;    // the shared poses' palettes from the mesh's first joint: pose p's joint j
                        // at p x jointCount + j
    address uvs;        // 0: none
    address materials;  // MaterialRecord per material slot
    address axes;       // mat4: the file's axes into the world, times the crowd's scale
    address poseTiles;  // uint per shared pose: its tile (CrowdAsset::poseTiles)
    address extras;     // MeshExtras of the palettes' frame slot (its morph targets)
    vec4 sphere;        // every pose's sphere in world axes: what a tile holds
    uint view;          // azimuth + elevation x HORDE_IMPOSTOR_AZIMUTHS
    uint tilesPerRow;
    uint tileRows;
    uint jointCount;
    uint material;      // this draw's material slot
    uint poseStride;    // instance i draws shared pose i x poseStride (CrowdAsset::impostorStride)
};

// One view of an atlas, as its draw reads it.
struct ImpostorView {
    vec4 bounds;    // the rectangle of the quad every pose stays in (x0, y0, x1, y1 of [-1, 1])
    float coverage; // the baked coverage times this: the source's covered area over the bake's
                    // levels' from this view (CrowdAsset::impostorCoverage)
    uint pad0, pad1, pad2;
};

// Drawing: entry k's instance as a quad of its sphere facing the camera, the tile of its shared
// pose in the layer of its view (DrawEntry.level).
struct ImpostorPush {
    address globals;
    address instances;
    address entries;
    address views;      // ImpostorView per view
    vec4 sphere;        // every pose's sphere in world axes, before the instance's placement
    uint tilesPerRow;
    uint tileRows;
    address poseTiles;  // uint per shared pose: its tile (CrowdAsset::poseTiles)
    vec2 target;        // the target's width and height in pixels
    float guard;        // pixels the viewport reaches past each edge of the target (recordImpostors)
    uint pad0;
};

struct GroundPush {
    address globals;
    vec4 area;   // world x and z of two opposite corners
    float height;
    float cell;  // checker size in world units
    uint pad0, pad1;
};

// The window's overlay (render/overlay.h): Dear ImGui's draw lists, vertices read by address
// (ImDrawVert: position, texture coordinates, RGBA8 colour), the font atlas an alpha byte per
// texel read by address too, so the overlay binds no descriptor set.
struct OverlayPush {
    address vertices;
    address atlas;     // atlasWidth x atlasHeight alpha bytes
    vec4 transform;    // clip = position * xy + zw
    uint atlasWidth;
    uint atlasHeight;
};

struct CopyPush {
    address source;
    address destination;
    uint count; // vec4s
    uint pad;
};

#ifdef __cplusplus
// GLSL reads these with scalar layout: every member at the next multiple of its component size,
// no padding to 16. These sizes and offsets are what the shaders see; a C++ change that breaks
// one (an 8-byte address after an odd number of 4-byte fields, say) fails here, not on the GPU.
static_assert(sizeof(ImpostorView) == 32);
static_assert(sizeof(Affine) == 48 && sizeof(NodeRest) == 48 && sizeof(ClipRecord) == 16);
static_assert(sizeof(ChannelRecord) == 32 && sizeof(InstanceRecord) == 84 && sizeof(JointRecord) == 64);
static_assert(offsetof(InstanceRecord, fromClip) == 48 && offsetof(InstanceRecord, turnRate) == 80);
static_assert(sizeof(BehaviourStateRecord) == 32 && sizeof(BehaviourTransitionRecord) == 8 &&
              sizeof(ClipMotionRecord) == 16);
static_assert(sizeof(BehaviourPush) == 96 && offsetof(BehaviourPush, area) == 48 && offsetof(BehaviourPush, time) == 64);
static_assert(sizeof(SamplePush) == 128 && offsetof(SamplePush, time) == 80 && offsetof(SamplePush, blendKeys) == 96 &&
              offsetof(SamplePush, morphs) == 112);
static_assert(sizeof(MorphMeshRecord) == 16 && sizeof(MorphTables) == 32 && sizeof(MeshExtras) == 56);
static_assert(sizeof(PosePush) == 64 && offsetof(PosePush, nodeCount) == 40 && offsetof(PosePush, blendKeys) == 56);
static_assert(sizeof(SkinPush) == 112 && offsetof(SkinPush, vertexCount) == 88);
static_assert(sizeof(FrameGlobals) == 224 && offsetof(FrameGlobals, cullPlanes) == 96 &&
              offsetof(FrameGlobals, cullEye) == 192 && offsetof(FrameGlobals, tintLevels) == 208);
static_assert(sizeof(DrawPush) == 128 && offsetof(DrawPush, jointBase) == 104 && offsetof(DrawPush, extras) == 112 &&
              offsetof(DrawPush, uvs) == 120);
static_assert(sizeof(MaterialRecord) == 32);
static_assert(sizeof(CullMesh) == 16 && sizeof(CullLevel) == 32 && sizeof(LevelSubmesh) == 16);
static_assert(sizeof(DrawEntry) == 16 && sizeof(SkinJob) == 8 && sizeof(DrawInfo) == 24);
static_assert(offsetof(CrowdFrame, sphere) == 168 && offsetof(CrowdFrame, instanceCount) == 184 &&
              offsetof(CrowdFrame, blendKeys) == 264 && offsetof(CrowdFrame, fadePixels) == 280 &&
              offsetof(CrowdFrame, largestPoint) == 288 && sizeof(CrowdFrame) == 296);
static_assert(sizeof(ImpostorBakePush) == 128 && offsetof(ImpostorBakePush, sphere) == 88);
static_assert(sizeof(ImpostorPush) == 80 && offsetof(ImpostorPush, sphere) == 32 &&
              offsetof(ImpostorPush, poseTiles) == 56 && offsetof(ImpostorPush, target) == 64);
static_assert(sizeof(VisibleInstance) == 16 && offsetof(FrameGlobals, cullFar) == 212);
static_assert(sizeof(CullPush) == 24 && sizeof(PlanPush) == 8 && sizeof(GroundPush) == 40 && sizeof(CopyPush) == 24);
static_assert(sizeof(OverlayPush) == 40 && offsetof(OverlayPush, transform) == 16);
} // namespace horde::gpu
#else
#undef address
#endif

#endif
