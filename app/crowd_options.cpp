#include "crowd_options.h"

namespace horde {

void CrowdOptions::addOptions(CLI::App& command, bool skinning) {
    if (skinning) {
        command
            .add_option("--technique", technique, "compute: skin pass then draw; vertex: skin in the vertex shader")
            ->check(CLI::IsMember({"compute", "vertex"}));
        skin.addOptions(command);
    }
    command.add_option("--lod", lod, "levels of detail and shared far poses (off: every instance in full)")
        ->check(CLI::IsMember({"on", "off"}));
    command.add_option("--cull", cull, "frustum culling on the GPU (off: every instance drawn)")
        ->check(CLI::IsMember({"on", "off"}));
    command
        .add_option("--textures", textures,
                    "base-colour textures sampled (off: base colours only, to measure what sampling costs)")
        ->check(CLI::IsMember({"on", "off"}));
    command
        .add_option(
            "--impostors", impostors,
            "with LOD on, monsters a few pixels across drawn as one quad of an atlas baked from their "
            "shared poses (off: every instance as a mesh)")
        ->check(CLI::IsMember({"on", "off"}));
    command
        .add_option("--lod-error", lodErrorPixels,
                    "largest error a level or a shared pose may show, in pixels")
        ->check(CLI::Range(0.0f, 1000.0f));
    command
        .add_option(
            "--units", units,
            "height: every model scaled to one common height (printed per model); file: the files' own "
            "units; auto (default): height when the crowd has more than one model")
        ->check(CLI::IsMember({"auto", "height", "file"}));
    command
        .add_option(
            "--view", view,
            "front (default): from the crowd's edge, its front row readable and the crowd filling the "
            "frame; overview: the whole crowd; street: eye height at its near edge")
        ->check(CLI::IsMember({"front", "overview", "street"}));
    command
        .add_option("--layout", layout,
                    "scatter (default): random positions in cells no two footprints share, random headings; "
                    "grid: rows facing forward, the benchmarks' crowd")
        ->check(CLI::IsMember({"scatter", "grid"}));
    command.add_option("--seed", seed,
                       "the crowd's layout, clips, phases and speeds (the same seed, the same crowd)");
    picture.addOptions(command);
}

CrowdSettings CrowdOptions::settings(VkFormat colorFormat, uint32_t slots,
                                     VkSampleCountFlagBits samples) const {
    CrowdSettings s;
    s.technique = technique == "vertex" ? Technique::Vertex : Technique::Compute;
    s.skin = skin.options();
    s.lod = lod == "on";
    s.cull = cull == "on";
    s.textures = textures == "on";
    s.impostors = impostors == "on";
    s.lodErrorPixels = lodErrorPixels;
    s.ground = true;
    s.slots = slots;
    s.colorFormat = colorFormat;
    s.samples = samples;
    s.layout = {layout == "grid" ? Layout::Grid : Layout::Scatter, seed};
    return s;
}

OrbitCamera CrowdOptions::camera(const CrowdScene& scene, float aspect, uint32_t viewportHeight) const {
    if (view == "street")
        return picture.around(
            streetCamera(scene.worldBounds(), scene.groundHeight(), scene.modelHeight() * 1.2f));
    if (view == "overview") return picture.around(frameBounds(scene.worldBounds(), aspect, 0.6f, 0.55f));
    return picture.around(frontCamera(scene.worldBounds(), scene.placementBounds(), scene.groundHeight(),
                                      scene.modelHeight(), aspect, viewportHeight, kFrontRowPixels));
}

std::vector<std::unique_ptr<CrowdModel>> crowdModels(Device& device, const std::vector<Model*>& models,
                                                     const std::vector<float>& scales) {
    std::vector<std::unique_ptr<CrowdModel>> out;
    for (size_t m = 0; m < models.size(); ++m) {
        uploadMeshes(device, *models[m]);
        CrowdAssetOptions options;
        options.scale = scales.at(m);
        out.push_back(std::make_unique<CrowdModel>(device, *models[m], options));
    }
    return out;
}

std::vector<const CrowdModel*> pointers(const std::vector<std::unique_ptr<CrowdModel>>& models) {
    std::vector<const CrowdModel*> out;
    for (const auto& m : models)
        out.push_back(m.get());
    return out;
}

} // namespace horde
