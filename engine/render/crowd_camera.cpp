#include "render/crowd_camera.h"

namespace horde {

OrbitCamera crowdCamera(const CrowdScene& scene, float aspect, uint32_t viewportHeight) {
    const CrowdSettings& s = scene.settings();
    OrbitCamera framed;
    switch (s.view) {
    case CrowdView::Street:
        framed = streetCamera(scene.worldBounds(), scene.groundHeight(), scene.modelHeight() * 1.2f);
        break;
    case CrowdView::Overview:
        framed = frameBounds(scene.worldBounds(), aspect, 0.6f, 0.55f);
        break;
    case CrowdView::Front:
        framed = frontCamera(scene.worldBounds(), scene.placementBounds(), scene.groundHeight(),
                             scene.modelHeight(), aspect, viewportHeight, kFrontRowPixels);
        break;
    }
    return aroundFramed(framed, s.picture);
}

} // namespace horde
