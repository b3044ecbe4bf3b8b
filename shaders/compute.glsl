// What every compute pass shares beyond common.glsl.
#include "common.glsl"

layout(local_size_x = HORDE_WORKGROUP) in;

// Large dispatches are split over Y (the X count is capped by the device); this is the flat index.
uint flatInvocation() {
    return (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * HORDE_WORKGROUP + gl_LocalInvocationID.x;
}
