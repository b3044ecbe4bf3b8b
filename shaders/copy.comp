#version 460
// The bandwidth yardstick: a plain copy of vec4s over the same kind of buffers the passes use.
// The harness reports each pass's bytes per second as a fraction of this copy's.
#include "common.glsl"

layout(local_size_x = HORDE_WORKGROUP) in;
layout(push_constant, scalar) uniform Push { CopyPush pc; };

void main() {
    uint id = gl_GlobalInvocationID.x;
    if (id >= pc.count) return;
    Vec4s(pc.destination).v[id] = Vec4s(pc.source).v[id];
}
