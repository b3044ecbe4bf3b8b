#version 460
// Pass 4, skin: one (mesh, level)'s vertices for every skin job of that list (a visible
// instance's own pose, or a pose shared by far instances) morphed by the pose's weights
// (morph.glsl) and blended by the scene's skinning (skinning.glsl) into the vertex pool the draw
// reads. Mirrors morphVertex(), skinMesh() and skinMeshDualQuaternion() in
// engine/anim/reference.cpp.
#include "compute.glsl"
#include "skinning.glsl"
#include "morph.glsl"

layout(push_constant, scalar) uniform Push { SkinPush pc; };

void main() {
    uint id = flatInvocation();
    if (id >= pc.vertexCount * min(Uints(pc.counters).v[pc.countIndex], pc.jobLimit)) return;
    SkinJob job = SkinJobs(pc.jobs).v[id / pc.vertexCount];
    uint vertex = id % pc.vertexCount;
    uint source = Uints(pc.order).v[vertex];
    MeshExtras extras = meshExtras(pc.extras);
    Influences found = influencesOf(pc.joints, pc.weights, extras.more, source);
    vec3 sourcePosition = Vec3s(pc.positions).v[source], sourceNormal = Vec3s(pc.normals).v[source];
    morphVertex(extras, job.pose, source, sourcePosition, sourceNormal);
    vec3 position, normal;
    skinVertex(pc.palette, job.pose * pc.jointCount + pc.jointBase, found, sourcePosition, sourceNormal, position,
               normal);
    storePooled(pc.outPositions, pc.outNormals, job.vertexOffset + vertex, position, normal);
}
