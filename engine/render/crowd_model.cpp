#include "render/crowd_model.h"

#include "anim/root_motion.h"
#include "vk/upload.h"

namespace horde {

CrowdModel::CrowdModel(Device& device, const Model& model, CrowdAsset asset)
    : model_(model), asset_(std::move(asset)) {
    for (const Mesh& mesh : model.meshes)
        meshes_.push_back(gpuMesh(mesh));
    const AnimationTables& t = asset_.tables;
    const std::vector<glm::mat4> axes{asset_.axesToWorld};
    TableUpload upload(device);
    buffers_.rest = upload.add(t.rest, "node rest transforms");
    buffers_.clips = upload.add(t.clips, "clips");
    buffers_.channelTable = upload.add(t.channelTable, "clip channel table");
    buffers_.channels = upload.add(t.channels, "channels");
    buffers_.times = upload.add(t.times, "key times");
    buffers_.values = upload.add(t.values, "key values");
    buffers_.joints = upload.add(t.joints, "joints");
    buffers_.clipSpeed = upload.add(asset_.clipSpeed, "clip vertex speed bounds");
    buffers_.meshes = upload.add(asset_.cullMeshes, "cull meshes");
    buffers_.levels = upload.add(asset_.cullLevels, "cull levels");
    buffers_.submeshes = upload.add(asset_.levelSubmeshes, "level submeshes");
    buffers_.axes = upload.add(axes, "axes to world");
    buffers_.fadeFloors = upload.add(asset_.fadeFloors, "cross-fade floors");
    buffers_.poseTiles = upload.add(asset_.poseTiles, "impostor pose tiles");
    std::vector<gpu::MorphTables> morphs;
    if (t.morphWeightCount > 0) {
        buffers_.morphMeshes = upload.add(t.morphMeshes, "morph meshes");
        buffers_.morphChannelTable = upload.add(t.morphChannelTable, "clip morph channel table");
        buffers_.morphValues = upload.add(t.morphValues, "morph weights");
        morphs.push_back({buffers_.morphMeshes.address(), buffers_.morphChannelTable.address(),
                          buffers_.morphValues.address(), uint32_t(t.morphMeshes.size()), t.morphWeightCount});
        buffers_.morphTables = upload.add(morphs, "morph tables");
    }
    for (size_t m = 0; m < model.meshes.size(); ++m) {
        const std::string tag = " " + model.meshes[m].name;
        buffers_.lodIndices.push_back(upload.add(asset_.drawIndices[m], "lod indices" + tag,
                                                 kStorageUsage | VK_BUFFER_USAGE_INDEX_BUFFER_BIT));
        buffers_.lodOrder.push_back(upload.add(asset_.lods[m].order, "lod vertex order" + tag));
    }
    upload.submit();
}

std::vector<std::unique_ptr<CrowdModel>> crowdModels(Device& device, std::span<Model* const> models,
                                                     std::span<const CrowdAssetOptions> options) {
    std::vector<std::unique_ptr<CrowdModel>> out;
    for (size_t m = 0; m < models.size(); ++m) {
        extractRootMotion(*models[m]);
        uploadMeshes(device, *models[m]);
        out.push_back(std::make_unique<CrowdModel>(device, *models[m], options[m]));
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
