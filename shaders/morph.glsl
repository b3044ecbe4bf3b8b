// Morph targets before skinning, shared by the passes that skin a vertex (skin.comp,
// draw_palette.vert, impostor_bake.vert): the vertex as stored plus each target's displacement
// at its pose slot's weight. Mirrors morphVertex() in engine/anim/reference.cpp.

// The pose slot's run for the mesh lists only the targets that weigh anything (gpu_types.h).
void morphVertex(MeshExtras extras, uint pose, uint vertex, inout vec3 position, inout vec3 normal) {
    if (extras.morphTargets == 0u) return;
    Uints run = Uints(extras.morphWeights);
    Vec3s positions = Vec3s(extras.morphPositions);
    bool normals = !isNull(extras.morphNormals);
    uint first = pose * extras.weightCount + extras.firstWeight;
    uint weighing = min(run.v[first], extras.morphTargets);
    for (uint k = 0u; k < weighing; ++k) {
        uint target = min(run.v[first + 1u + 2u * k], extras.morphTargets - 1u);
        float w = uintBitsToFloat(run.v[first + 2u + 2u * k]);
        uint at = target * extras.vertexCount + vertex;
        position += w * positions.v[at];
        if (normals) normal += w * Vec3s(extras.morphNormals).v[at];
    }
}
