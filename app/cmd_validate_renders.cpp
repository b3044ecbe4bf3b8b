#include "cmd_validate_renders.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "crowd/layout.h"
#include "crowd/view.h"
#include "vk/device.h"

namespace horde {

PoseRenders::PoseRenders(Device& device, Model& model, std::span<const PoseInstance> poses, double spacing,
                         bool textures, uint32_t width, uint32_t height)
    : device_(device), model_(model), width_(width), height_(height) {
    uploadMeshes(device, model);
    // Nothing is culled or simplified, so no instance ever borrows a shared pose: one per clip
    // instead of 64 spares their sampling when the scene is made.
    crowdModel_ =
        std::make_unique<CrowdModel>(device, model, CrowdAssetOptions{.crowd = false, .bucketsPerClip = 1});
    const float step = float(spacing / double(model.axes.metresPerUnit));
    const gpu::InstanceRecord lone = crowdLayout(crowdModel_->asset(), 1)[0];
    const CrowdModel* models[] = {crowdModel_.get()};
    CrowdSettings settings = singleInstanceSettings();
    settings.textures = textures;
    // Both sides alike: edges averaged the same way.
    const SceneOutput output{kFramesInFlight, kOffscreenColorFormat, device.supportedSamples(4)};
    // A grid about its middle keeps the placements small: a vertex far from the origin would lose
    // float precision that one at the placement of a lone instance does not.
    const size_t columns = size_t(std::ceil(std::sqrt(double(std::min(poses.size(), kPosesPerScene)))));
    for (size_t first = 0; first < poses.size(); first += kPosesPerScene) {
        std::vector<gpu::InstanceRecord> instances;
        for (size_t k = 0; first + k < poses.size() && k < kPosesPerScene; ++k) {
            const PoseInstance& pose = poses[first + k];
            const glm::vec3 offset(step * (float(k % columns) - float(columns - 1) * 0.5f), 0.0f,
                                   step * (float(k / columns) - float(columns - 1) * 0.5f));
            gpu::InstanceRecord r = lone;
            r.clip = pose.clip < 0 ? HORDE_NONE : uint32_t(pose.clip);
            // The lone instance's clip time is phase + speed x start time: the same time, from 0.
            r.phase = float(pose.time);
            r.speed = 1.0f;
            r.placement += glm::vec4(offset, 0.0f);
            offsets_.push_back(offset);
            instances.push_back(r);
        }
        scenes_.push_back(std::make_unique<CrowdScene>(
            device, models, std::vector<std::vector<gpu::InstanceRecord>>{std::move(instances)}, settings, output));
    }
}

Image8 PoseRenders::render(size_t pose, const glm::mat4& viewProjection) {
    HeadlessOptions options;
    options.width = width_;
    options.height = height_;
    options.startTime = 0.0f;
    // The renderer draws in the file's units: scaling them to metres puts both models in one frame;
    // the camera moves with the pose's placement.
    const glm::mat4 toMetres = glm::scale(glm::mat4(1.0f), glm::vec3(model_.axes.metresPerUnit));
    const glm::mat4 toPlacement = glm::translate(glm::mat4(1.0f), -offsets_[pose]);
    return renderHeadless(device_, *scenes_[pose / kPosesPerScene],
                          ViewCamera{viewProjection * toMetres * toPlacement}, options)
        .image;
}

} // namespace horde
