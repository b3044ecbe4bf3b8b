// GPU records and push constants, shared by the C++ engine and the GLSL passes so each layout
// is written once. Buffers are reached through device addresses (scalar layout), so passes
// need no descriptor sets; a C++ `address` is the uvec2 GLSL sees.
#ifndef HORDE_GPU_TYPES_H
#define HORDE_GPU_TYPES_H

#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
namespace horde::gpu {
using uint = uint32_t;
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
    uint path;          // 0 translation, 1 rotation, 2 scale
    uint pad;
};

struct InstanceRecord {
    uint clip; // HORDE_NONE: bind pose
    float phase;
    float speed;
    uint loop;
    vec4 placement; // world x, y, z and yaw in radians
    vec4 tint;
};

struct JointRecord {
    Affine inverseBind;
    uint node;
    uint pad0, pad1, pad2;
};

struct SamplePush {
    address instances;
    address clips;
    address channelTable;
    address channels;
    address times;
    address values;
    address rest;
    address locals; // out: Affine per (instance, node)
    float time;
    uint nodeCount;
    uint instanceCount;
    uint pad;
};

struct PosePush {
    address rest;
    address locals;
    address joints;
    address palette; // out: Affine per (instance, joint)
    uint nodeCount;
    uint jointCount;
    uint instanceCount;
    uint pad;
};

struct SkinPush {
    address positions;
    address normals;
    address tangents; // 0 when the mesh has none
    address joints;   // u16vec4 per vertex; 0 for static meshes (rigid to jointBase)
    address weights;
    address palette;
    address outPositions;
    address outNormals;
    address outTangents;
    uint vertexCount;
    uint jointBase;
    uint jointCount;
    uint instanceCount;
};

struct FrameGlobals {
    mat4 viewProjection;
    mat4 modelToWorld; // the file's axes to horde's right-handed Y-up world
    vec4 lightDirection;
    vec4 cameraPosition;
};

struct DrawPush {
    address globals;
    address instances;
    address positions; // skinned (compute technique) or source (vertex technique)
    address normals;
    address joints;    // vertex technique only
    address weights;
    address palette;
    uint vertexCount;
    uint jointBase;
    uint jointCount;
    uint skinned; // vertex technique: 1 blends four joints, 0 binds rigidly to jointBase
    vec4 color;
};

struct CopyPush {
    address source;
    address destination;
    uint count; // vec4s
    uint pad;
};

#ifdef __cplusplus
} // namespace horde::gpu
#else
#undef address
#endif

#endif
