#include "model/weld.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace horde {

namespace {

// Position, two UV sets, colour, then four (joint, weight) pairs and four more where the mesh
// keeps influences five to eight.
constexpr size_t kKeyWords = 3 + 2 + 2 + 4 + 8 + 8;
using Key = std::array<uint32_t, kKeyWords>;

// Floats compare by their bits, which orders NaNs too; adding zero makes -0 and +0 one value.
uint32_t bits(float f) {
    return std::bit_cast<uint32_t>(f + 0.0f);
}

// What must be equal for two vertices to weld, normals aside. A joint without weight drives
// nothing, so its index does not count.
Key keyOf(const MeshArrays& a, uint32_t v) {
    Key key{};
    size_t at = 0;
    auto put = [&](std::initializer_list<float> values) {
        for (float f : values)
            key[at++] = bits(f);
    };
    put({a.positions[v].x, a.positions[v].y, a.positions[v].z});
    if (!a.uv0.empty())
        put({a.uv0[v].x, a.uv0[v].y});
    else
        at += 2;
    if (!a.uv1.empty())
        put({a.uv1[v].x, a.uv1[v].y});
    else
        at += 2;
    if (!a.colors.empty())
        put({a.colors[v].r, a.colors[v].g, a.colors[v].b, a.colors[v].a});
    else
        at += 4;
    if (!a.weights.empty())
        for (int k = 0; k < 4; ++k) {
            const float w = a.weights[v][k];
            key[at++] = w != 0.0f ? a.joints[v][k] : 0u;
            key[at++] = bits(w);
        }
    if (!a.more.empty())
        for (int k = 0; k < 4; ++k) {
            const float w = a.more[v].weights[k];
            key[at++] = w != 0.0f ? a.more[v].joints[k] : 0u;
            key[at++] = bits(w);
        }
    return key;
}

} // namespace

std::vector<uint32_t> weldVertices(const Mesh& mesh, std::span<const uint32_t> used, bool creases) {
    const MeshArrays& a = mesh.arrays();
    std::vector<uint32_t> weld(mesh.vertexCount());
    for (uint32_t v = 0; v < weld.size(); ++v)
        weld[v] = v;
    std::vector<bool> isUsed(mesh.vertexCount(), false);
    for (uint32_t v : used)
        isUsed[v] = true;
    std::vector<std::pair<Key, uint32_t>> keyed;
    for (uint32_t v = 0; v < weld.size(); ++v)
        if (isUsed[v]) keyed.push_back({keyOf(a, v), v});
    // Equal keys end up together, each group in vertex order.
    std::sort(keyed.begin(), keyed.end());
    const float cosine = std::cos(glm::radians(kWeldNormalDegrees));
    auto normalsWeld = [&](uint32_t s, uint32_t v) {
        return glm::dot(a.normals[s], a.normals[v]) >=
               cosine * glm::length(a.normals[s]) * glm::length(a.normals[v]);
    };
    // Vertices that morph targets move apart (closed lips) stay apart.
    const size_t n = mesh.vertexCount();
    auto morphsWeld = [&](uint32_t s, uint32_t v) {
        for (size_t t = 0; t < mesh.morphTargets(); ++t) {
            if (a.morphPositions[t * n + s] != a.morphPositions[t * n + v]) return false;
            if (creases && !a.morphNormals.empty() && a.morphNormals[t * n + s] != a.morphNormals[t * n + v])
                return false;
        }
        return true;
    };
    std::vector<uint32_t> standing; // the group's vertices that stand for themselves
    for (size_t first = 0, end; first < keyed.size(); first = end) {
        for (end = first + 1; end < keyed.size() && keyed[end].first == keyed[first].first;)
            ++end;
        standing.clear();
        for (size_t i = first; i < end; ++i) {
            const uint32_t v = keyed[i].second;
            auto joins = std::find_if(standing.begin(), standing.end(),
                                      [&](uint32_t s) { return (!creases || normalsWeld(s, v)) && morphsWeld(s, v); });
            if (joins != standing.end())
                weld[v] = *joins;
            else
                standing.push_back(v);
        }
    }
    return weld;
}

} // namespace horde
