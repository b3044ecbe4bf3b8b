#pragma once
// validate's shaded renders: the poses of one model drawn from a few crowd scenes. Making a scene
// costs about two frames on lavapipe (0.03 s against 0.015 s for an NWN creature, with one shared
// pose per clip: none is ever drawn, nothing being culled or simplified), and every instance of a
// scene is skinned and drawn in every frame; so a scene holds a few poses, each an instance placed
// so far from the others that no other one is in view, and each pose is drawn with the camera
// moved onto its instance. Only the scene of the poses being drawn is held (they are asked for in
// order), all of them sharing one upload of the model's textures: memory does not grow with the
// number of poses.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "render/crowd_model.h"
#include "render/crowd_scene.h"
#include "render/headless.h"

namespace horde {

struct PoseInstance {
    int clip = -1; // -1: the bind pose
    double time = 0.0;
};

// Making a scene costs about what skinning and drawing one more instance in each of this many
// frames does: fewer scenes each hold more instances that every frame pays for.
constexpr size_t kPosesPerScene = 8;

class PoseRenders {
  public:
    // `spacing`, in metres: more than any pose reaches from its placement plus the farthest a
    // camera framing one sees (its eye distance and far plane), so each render shows one instance.
    PoseRenders(Device& device, Model& model, std::span<const PoseInstance> poses, double spacing,
                bool textures, uint32_t width, uint32_t height);
    // Pose `pose` through `viewProjection` (the common metre frame's, framed on the placement).
    // Fastest with poses asked for in order: going back makes an earlier scene again.
    Image8 render(size_t pose, const glm::mat4& viewProjection);

  private:
    // The scene of poses [first, first + kPosesPerScene).
    std::unique_ptr<CrowdScene> sceneFrom(size_t first);

    Device& device_;
    const Model& model_;
    uint32_t width_, height_;
    std::unique_ptr<CrowdModel> crowdModel_;
    std::vector<PoseInstance> poses_;
    std::vector<glm::vec3> offsets_; // each pose's placement, in the model's units
    gpu::InstanceRecord lone_;       // a lone instance of the model, placed at the origin
    CrowdSettings settings_;
    SceneOutput output_;
    std::unique_ptr<HeadlessTargets> targets_; // every pose drawn into the same images
    std::unique_ptr<CrowdScene> scene_; // of poses [sceneFirst_, sceneFirst_ + kPosesPerScene)
    size_t sceneFirst_ = 0;
    std::shared_ptr<SceneResources> resources_; // the textures every scene draws with
};

} // namespace horde
