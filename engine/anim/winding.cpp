#include "anim/winding.h"

#include "anim/reference.h"
#include "model/influences.h"

namespace horde {

std::vector<bool> mirroredMeshes(const Model& model) {
    std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size()), palette;
    sampleLocals(model, nullptr, 0.0, locals);
    localToModel(model, locals, models);
    std::vector<bool> out(model.meshes.size(), false);
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const Mesh& mesh = model.meshes[m];
        meshPalette(model, mesh, models, palette);
        if (!mesh.skinned()) {
            out[m] = glm::determinant(glm::dmat3(palette[0])) < 0.0;
            continue;
        }
        size_t mirrored = 0, kept = 0;
        for (size_t v = 0; v < mesh.vertexCount(); ++v) {
            const VertexInfluences in = influencesOf(mesh.arrays(), v, 4);
            glm::dmat3 blend(0.0);
            for (uint32_t k = 0; k < in.count; ++k)
                blend += glm::dmat3(palette[in.joints[k]]) * in.weights[k];
            const double d = glm::determinant(blend);
            mirrored += d < 0.0;
            kept += d > 0.0;
        }
        out[m] = mirrored > kept;
    }
    return out;
}

} // namespace horde
