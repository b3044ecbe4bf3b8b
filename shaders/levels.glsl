// A mesh's level for an instance: the coarsest whose geometric error projects to at most the
// allowed pixels at the instance's nearest point (level 0 with LOD off). The cull pass and the
// assign pass both choose with it, so the vertices one budgets are the ones the other draws.
// Mirrors the level loop of cullInstance() in engine/crowd/cull_reference.cpp.
uint chosenLevel(CullMesh mesh, CullLevels levels, bool lod, float pixelsPerUnit, float lodErrorPixels) {
    uint level = 0u;
    if (lod)
        for (uint l = 1u; l < mesh.levelCount && levels.v[mesh.firstLevel + l].error * pixelsPerUnit <= lodErrorPixels; ++l)
            level = l;
    return level;
}
