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
    lone_ = crowdLayout(crowdModel_->asset(), 1)[0];
    settings_ = singleInstanceSettings();
    settings_.textures = textures;
    // Only glTF's colours are drawn, and the colour check compares them on both sides: drawn, a
    // game file's conversion to glTF would differ from it by them.
    settings_.vertexColors = false;
    // Both sides alike: edges averaged the same way.
    output_ = {kFramesInFlight, kOffscreenColorFormat, device.supportedSamples(4)};
    targets_ = std::make_unique<HeadlessTargets>(device, VkExtent2D{width, height}, output_.samples);
    poses_.assign(poses.begin(), poses.end());
    // A grid about its middle keeps the placements small: a vertex far from the origin would lose
    // float precision that one at the placement of a lone instance does not.
    const size_t columns = size_t(std::ceil(std::sqrt(double(std::min(poses.size(), kPosesPerScene)))));
    for (size_t i = 0; i < poses.size(); ++i) {
        const size_t k = i % kPosesPerScene;
        offsets_.emplace_back(step * (float(k % columns) - float(columns - 1) * 0.5f), 0.0f,
                              step * (float(k / columns) - float(columns - 1) * 0.5f));
    }
}

std::unique_ptr<CrowdScene> PoseRenders::sceneFrom(size_t first) {
    std::vector<gpu::InstanceRecord> instances;
    for (size_t i = first; i < poses_.size() && i < first + kPosesPerScene; ++i) {
        gpu::InstanceRecord r = lone_;
        r.clip = poses_[i].clip < 0 ? HORDE_NONE : uint32_t(poses_[i].clip);
        // The lone instance's clip time is phase + speed x start time: the same time, from 0.
        r.phase = float(poses_[i].time);
        r.speed = 1.0f;
        r.placement += glm::vec4(offsets_[i], 0.0f);
        instances.push_back(r);
    }
    const CrowdModel* models[] = {crowdModel_.get()};
    auto scene = std::make_unique<CrowdScene>(device_, models,
                                              std::vector<std::vector<gpu::InstanceRecord>>{std::move(instances)},
                                              settings_, output_, resources_);
    resources_ = scene->resources();
    return scene;
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
    const size_t first = pose - pose % kPosesPerScene;
    if (!scene_ || sceneFirst_ != first) {
        scene_.reset();
        scene_ = sceneFrom(first);
        sceneFirst_ = first;
    }
    return renderHeadless(device_, *targets_, *scene_,
                          ViewCamera{viewProjection * toMetres * toPlacement}, options)
        .image;
}

} // namespace horde
