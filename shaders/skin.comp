#version 460
// Pass 4, skin: one (mesh, level)'s vertices for every skin job of that list (a visible
// instance's own pose, or a pose shared by far instances) blended by the scene's skinning
// (skinning.glsl) into the vertex pool the draw reads. Mirrors skinMesh() and
// skinMeshDualQuaternion() in engine/anim/reference.cpp.
#include "compute.glsl"
#include "skinning.glsl"

layout(push_constant, scalar) uniform Push { SkinPush pc; };

void main() {
    uint id = flatInvocation();
    if (id >= pc.vertexCount * min(Uints(pc.counters).v[pc.countIndex], pc.jobLimit)) return;
    SkinJob job = SkinJobs(pc.jobs).v[id / pc.vertexCount];
    uint vertex = id % pc.vertexCount;
    uint source = Uints(pc.order).v[vertex];
    Influences found = influencesOf(pc.joints, pc.weights, pc.more, source);
    vec3 position, normal;
    skinVertex(pc.palette, job.pose * pc.jointCount + pc.jointBase, found, Vec3s(pc.positions).v[source],
               Vec3s(pc.normals).v[source], position, normal);
    storePooled(pc.outPositions, pc.outNormals, job.vertexOffset + vertex, position, normal);
}
