#include "crowd/sight.h"

#include <cmath>

#include "crowd/cull_reference.h"

namespace horde {

float nearestHeightPixels(const CrowdAsset& asset, std::span<const gpu::InstanceRecord> instances,
                          const ViewCamera& view, uint32_t viewportHeight) {
    const std::array<glm::vec4, 6> planes = frustumPlanes(view.viewProjection);
    const glm::vec4 sphere = asset.worldSphere;
    const Bounds& bind = asset.worldBindBounds;
    float nearest = INFINITY, height = 0.0f;
    for (const gpu::InstanceRecord& r : instances) {
        const float c = std::cos(r.placement.w), s = std::sin(r.placement.w);
        const glm::vec3 centre =
            glm::vec3(c * sphere.x + s * sphere.z, sphere.y, -s * sphere.x + c * sphere.z) +
            glm::vec3(r.placement);
        bool inside = true;
        for (const glm::vec4& p : planes)
            inside &= glm::dot(glm::vec3(p), centre) + p.w >= -sphere.w;
        const float distance = glm::length(centre - view.eye);
        if (!inside || distance >= nearest) continue;
        nearest = distance;
        const glm::vec3 foot(r.placement.x, r.placement.y + bind.min.y, r.placement.z);
        height = projectedHeight(view.viewProjection, foot, bind.max.y - bind.min.y, viewportHeight);
    }
    return height;
}

} // namespace horde
