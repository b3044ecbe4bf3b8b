// What both draw techniques do once a vertex is in model space: place the instance in the world.
#include "common.glsl"

layout(push_constant, scalar) uniform Push { DrawPush pc; };

layout(location = 0) out vec3 outNormal;
layout(location = 1) out vec3 outColor;

void emit(vec3 modelPosition, vec3 modelNormal) {
    FrameGlobals g = Globals(pc.globals).g;
    InstanceRecord inst = Instances(pc.instances).v[gl_InstanceIndex];
    vec3 p = (g.modelToWorld * vec4(modelPosition, 1.0)).xyz;
    vec3 n = mat3(g.modelToWorld) * modelNormal;
    float c = cos(inst.placement.w), s = sin(inst.placement.w);
    p = vec3(c * p.x + s * p.z, p.y, -s * p.x + c * p.z) + inst.placement.xyz;
    n = vec3(c * n.x + s * n.z, n.y, -s * n.x + c * n.z);
    outNormal = n;
    outColor = pc.color.rgb * inst.tint.rgb;
    gl_Position = g.viewProjection * vec4(p, 1.0);
}
