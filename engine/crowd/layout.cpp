#include "crowd/layout.h"

#include <algorithm>
#include <cmath>

#include "anim/reference.h"
#include "crowd/view.h"

namespace horde {

namespace {

// Small integer hash: deterministic variety without a random engine.
uint32_t hash(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
float unit(uint32_t x) {
    return float(hash(x) & 0xFFFFFF) / float(0x1000000);
}

} // namespace

std::vector<std::vector<gpu::InstanceRecord>> mixedGrid(std::span<const Model* const> models, uint32_t count,
                                                        uint32_t seed) {
    // Rows and columns spaced by the largest model's width and depth, with room to turn a little.
    float spacingX = 1e-3f, spacingZ = 1e-3f;
    for (const Model* model : models) {
        Bounds world = toWorld(bindPoseBounds(*model), axesToWorld(model->axes));
        glm::vec3 size = world.max - world.min;
        spacingX = std::max(spacingX, size.x * 1.3f);
        spacingZ = std::max(spacingZ, size.z * 1.1f);
    }
    // About as deep as wide, so the crowd fills a framed view.
    uint32_t columns = std::clamp(uint32_t(std::ceil(std::sqrt(double(count) * spacingZ / spacingX))), 1u,
                                  std::max(count, 1u));
    uint32_t rows = (count + columns - 1) / columns;
    std::vector<std::vector<gpu::InstanceRecord>> out(models.size());
    for (uint32_t i = 0; i < count; ++i) {
        const Model& model = *models[i % models.size()];
        gpu::InstanceRecord r{};
        uint32_t h = hash(i * 4u + seed * 7919u);
        bool animated = !model.clips.empty();
        r.clip = animated ? h % uint32_t(model.clips.size()) : HORDE_NONE;
        float duration = animated ? model.clips[r.clip].duration : 0.0f;
        r.phase = count == 1 ? 0.0f : unit(h + 1) * duration;
        r.speed = count == 1 ? 1.0f : 0.8f + 0.4f * unit(h + 2);
        r.loop = 1;
        float x = (float(i % columns) - float(columns - 1) * 0.5f) * spacingX;
        float z = (float(i / columns) - float(rows - 1) * 0.5f) * spacingZ;
        float yaw = count == 1 ? 0.0f : (unit(h + 3) - 0.5f) * 0.8f;
        r.placement = glm::vec4(x, 0.0f, z, yaw);
        float shade = count == 1 ? 1.0f : 0.85f + 0.3f * unit(h + 4);
        r.tint = glm::vec4(shade, shade, shade, 1.0f);
        out[i % models.size()].push_back(r);
    }
    return out;
}

std::vector<gpu::InstanceRecord> gridInstances(const Model& model, uint32_t count, uint32_t seed) {
    const Model* one = &model;
    return std::move(mixedGrid(std::span(&one, 1), count, seed)[0]);
}

} // namespace horde
