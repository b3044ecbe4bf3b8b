#include "bench_context.h"

#include <cstdio>

#include "crowd_sources.h"
#include "render/crowd_model.h"

namespace horde::bench {

bool Context::loadAssets(const std::string& path) {
    textureAllocator = std::make_unique<GpuTextureAllocator>(*device);
    textures = std::make_unique<TextureLibrary>(*textureAllocator);
    const CrowdModelArg arg{path, {}, {}, {}};
    Result<CrowdSources> sources = loadCrowdSources(
        ModelInput{}, std::span(&arg, 1),
        [&](const ModelInput& input) {
            GpuMeshAllocator meshes(*device);
            return input.load(meshes, textures.get());
        },
        [](const FolderModelNote& note) {
            if (!note.kept) std::fprintf(stderr, "horde_bench: %s: %s, left out\n", note.model.c_str(), note.why.c_str());
        });
    if (!sources) {
        std::fprintf(stderr, "horde_bench: %s\n", sources.error().message.c_str());
        return false;
    }
    assets = std::move(*sources);
    // Sized as `horde crowd --model DIR` sizes them: a mixed crowd stands at one height.
    const std::vector<Model*> models = assets.pointers();
    const std::vector<ModelScale> scales = crowdScales(models, Units::Auto);
    std::vector<CrowdAssetOptions> options;
    for (size_t m = 0; m < models.size(); ++m) options.push_back({.scale = scales[m].factor, .name = assets.inputs[m].model});
    assetCrowdModels = horde::crowdModels(*device, models, options);
    for (size_t m = 0; m < models.size(); ++m) {
        if (assetCrowdModels[m]->asset().tables.morphWeightCount == 0) continue;
        CrowdAsset unmorphed = buildCrowdAsset(*models[m], options[m]);
        for (gpu::MorphMeshRecord& mesh : unmorphed.tables.morphMeshes) mesh.targets = 0;
        unmorphed.tables.morphWeightCount = 0;
        unmorphed.name += " (unmorphed)";
        unmorphedAssets.push_back(std::make_unique<CrowdModel>(*device, *models[m], std::move(unmorphed)));
    }
    return true;
}

} // namespace horde::bench
