#include "anim/stride.h"

#include <algorithm>
#include <cmath>

#include "anim/reference.h"

namespace horde {

namespace {

glm::dvec3 upOf(const Model& model) {
    return model.axes.up == Axes::Up::Z ? glm::dvec3(0, 0, 1) : glm::dvec3(0, 1, 0);
}

// Every mesh's vertices, end to end, at clip time t.
std::vector<glm::dvec3> posed(const Model& model, const Clip& clip, double t) {
    std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size()), palette;
    sampleLocals(model, &clip, t, locals);
    localToModel(model, locals, models);
    std::vector<glm::dvec3> out;
    for (const Mesh& mesh : model.meshes) {
        meshPalette(model, mesh, models, palette);
        std::vector<glm::dvec3> positions(mesh.vertexCount()), normals(mesh.vertexCount());
        skinMesh(mesh, palette, positions, normals, 4, sampleMorphWeights(model, mesh, &clip, t));
        out.insert(out.end(), positions.begin(), positions.end());
    }
    return out;
}

glm::dvec3 across(glm::dvec3 v, glm::dvec3 up) {
    return v - up * glm::dot(v, up);
}

} // namespace

Stride measureStride(const Model& model, const Clip& clip, const glm::vec3* velocity) {
    Stride out;
    if (!(clip.duration > 0.0f)) return out;
    const glm::dvec3 up = upOf(model);
    const Bounds bind = bindPoseBounds(model);
    const double height = std::abs(glm::dot(glm::dvec3(bind.max - bind.min), up));
    const double contact = double(kContactShare) * height;
    const double dt = double(clip.duration) / kStrideSamples;
    std::vector<std::vector<glm::dvec3>> poses;
    std::vector<std::vector<bool>> planted;
    for (uint32_t i = 0; i <= kStrideSamples; ++i) {
        poses.push_back(posed(model, clip, dt * i));
        double lowest = INFINITY;
        for (const glm::dvec3& p : poses.back())
            lowest = std::min(lowest, glm::dot(p, up));
        std::vector<bool>& on = planted.emplace_back(poses.back().size());
        for (size_t v = 0; v < on.size(); ++v)
            on[v] = glm::dot(poses.back()[v], up) <= lowest + contact;
    }

    // Planted: the vertices on the ground for the longest run any vertex has, the sole that stays
    // down through a foot's stance (long in a walk, short in a run), not a heel touching down or a
    // toe rolling off.
    auto runs = [&](auto&& visit) {
        for (size_t k = 0; k < poses[0].size(); ++k)
            for (uint32_t i = 0; i <= kStrideSamples;) {
                uint32_t end = i;
                while (end <= kStrideSamples && planted[end][k])
                    ++end;
                if (end > i) visit(k, i, end);
                i = std::max(end, i + 1);
            }
    };
    uint32_t longest = 0;
    runs([&](size_t, uint32_t begin, uint32_t end) { longest = std::max(longest, end - begin); });
    std::vector<std::vector<bool>> stance(planted.size(), std::vector<bool>(poses[0].size(), false));
    runs([&](size_t k, uint32_t begin, uint32_t end) {
        if (end - begin < longest || end - begin < 2) return;
        for (uint32_t j = begin; j < end; ++j)
            stance[j][k] = true;
    });

    glm::dvec3 v(0.0);
    if (velocity) {
        v = glm::dvec3(*velocity);
    } else {
        std::vector<glm::dvec3> moves;
        glm::dvec3 sum(0.0);
        for (uint32_t i = 0; i < kStrideSamples; ++i)
            for (size_t k = 0; k < poses[i].size(); ++k)
                if (stance[i][k] && stance[i + 1][k]) {
                    moves.push_back(across(poses[i + 1][k] - poses[i][k], up) / dt);
                    sum += moves.back();
                }
        if (moves.empty() || glm::length(sum) == 0.0) return out;
        const glm::dvec3 direction = sum / glm::length(sum);
        std::vector<double> along;
        for (const glm::dvec3& m : moves)
            along.push_back(glm::dot(m, direction));
        std::nth_element(along.begin(), along.begin() + along.size() / 2, along.end());
        v = -direction * along[along.size() / 2];
    }
    out.velocity = glm::vec3(v);
    out.length = float(glm::length(v) * clip.duration);

    // Each stance, in the world of an instance moving at v.
    double drift = 0.0;
    for (size_t k = 0; k < poses[0].size(); ++k) {
        glm::dvec3 start(0.0);
        for (uint32_t i = 0; i <= kStrideSamples; ++i) {
            if (!stance[i][k]) continue;
            const glm::dvec3 world = across(poses[i][k], up) + v * (dt * i);
            if (i == 0 || !stance[i - 1][k]) start = world;
            drift = std::max(drift, glm::length(world - start));
        }
    }
    out.drift = float(drift);
    return out;
}

} // namespace horde
