// One pass over the interleaved vertices per field, each a short loop storing into one stream.
// Every value equals what the one-vertex-at-a-time definitions give (unpackUnit, halfToFloat,
// keepStrongestFour).
#include "vertex_decode.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "asset/influences.h"

namespace horde::swtor {

namespace {
// Where each field starts inside a vertex, or -1 when the mask leaves it out.
struct VertexFields {
    int skin = -1, normal = -1, uv[2] = {-1, -1};
};

VertexFields vertexFields(uint16_t mask) {
    VertexFields f;
    int at = 12;
    if (mask & kSkin) f.skin = at, at += 8;
    if (mask & kNormalTangent) f.normal = at, at += 8;
    if (mask & kColour) at += 4; // no colour stream in the engine
    int set = 0;
    for (uint16_t uv : kUvSets) {
        if (!(mask & uv)) continue;
        if (set < 2) f.uv[set] = at; // a third set is dropped (with a warning where the mesh is read)
        ++set, at += 4;
    }
    return f;
}

// Weight bytes as fractions of 255, without a division per byte.
constexpr auto kByteWeight = [] {
    std::array<float, 256> t{};
    for (int b = 0; b < 256; ++b) t[size_t(b)] = float(b) / 255.0f;
    return t;
}();

constexpr auto kUnit = [] {
    std::array<float, 256> t{};
    for (int b = 0; b < 256; ++b) t[size_t(b)] = unpackUnit(uint8_t(b));
    return t;
}();

// Names the first weighted slot of vertex `v` whose bone is not in the mesh's list.
bool failBone(Reader& r, const MeshInfo& m, const std::byte* vertex, size_t v, size_t field) {
    size_t k = 0;
    while (!(uint8_t(vertex[field + k]) > 0 && uint8_t(vertex[field + 4 + k]) >= m.bones.size())) ++k;
    return r.failAt(m.offsetVertices + v * m.vertexSize + field + 4 + k, "vertex.boneIndices",
                    "vertex " + std::to_string(v) + " names bone " + std::to_string(uint8_t(vertex[field + 4 + k])) + " but mesh '" +
                        m.name + "' lists " + std::to_string(m.bones.size()) + " bones");
}

bool decodeSkin(Reader& r, const MeshInfo& m, const std::byte* in, size_t stride, size_t field, MeshArrays& a) {
    const size_t bones = m.bones.size();
    for (size_t v = 0; v < m.numVertices; ++v) {
        const std::byte* p = in + v * stride + field;
        uint8_t weights[4], joints[4];
        std::memcpy(weights, p, 4);
        std::memcpy(joints, p + 4, 4);
        // Only bones that carry weight must exist; zero-weight slots often hold junk.
        bool unnamed = false;
        for (size_t k = 0; k < 4; ++k) unnamed |= (weights[k] > 0) & (joints[k] >= bones);
        if (unnamed) return failBone(r, m, in + v * stride, v, field);
        glm::vec4 w(kByteWeight[weights[0]], kByteWeight[weights[1]], kByteWeight[weights[2]], kByteWeight[weights[3]]);
        glm::u16vec4 j(joints[0], joints[1], joints[2], joints[3]);
        keepStrongestFour(j, w);
        a.joints[v] = j;
        a.weights[v] = w;
    }
    return true;
}

// Normal and tangent bytes, each vector then scaled to unit length (zero stays zero), in
// blocks: gathered into rows first, so the scaling runs several vertices per vector
// instruction. The normal's fourth byte is padding; the tangent's is the bitangent sign
// (255 = +1, 0 = -1).
constexpr size_t kBlock = 64;

void normalizeRows(float* __restrict x, float* __restrict y, float* __restrict z) {
    for (size_t i = 0; i < kBlock; ++i) {
        const float squared = x[i] * x[i] + y[i] * y[i] + z[i] * z[i];
        const float inverse = 1.0f / std::sqrt(std::max(squared, FLT_MIN));
        const float scale = squared > 0.0f ? inverse : 1.0f;
        x[i] *= scale, y[i] *= scale, z[i] *= scale;
    }
}

void decodeNormals(const std::byte* in, size_t stride, size_t field, size_t n, glm::vec3* normals, glm::vec4* tangents) {
    float rows[6][kBlock] = {};
    for (size_t base = 0; base < n; base += kBlock) {
        const size_t count = std::min(kBlock, n - base);
        for (size_t i = 0; i < count; ++i) {
            const std::byte* p = in + (base + i) * stride + field;
            for (int k = 0; k < 3; ++k) {
                rows[k][i] = kUnit[uint8_t(p[k])];
                rows[3 + k][i] = kUnit[uint8_t(p[4 + k])];
            }
        }
        normalizeRows(rows[0], rows[1], rows[2]);
        normalizeRows(rows[3], rows[4], rows[5]);
        for (size_t i = 0; i < count; ++i) {
            const bool positive = uint8_t(in[(base + i) * stride + field + 7]) >= 128;
            normals[base + i] = glm::vec3(rows[0][i], rows[1][i], rows[2][i]);
            tangents[base + i] = glm::vec4(rows[3][i], rows[4][i], rows[5][i], positive ? 1.0f : -1.0f);
        }
    }
}

// Half-float pairs, converted a row of halves at a time.
void decodeUvs(const std::byte* in, size_t stride, size_t field, size_t n, glm::vec2* uvs) {
    uint16_t halves[2 * kBlock] = {};
    float values[2 * kBlock];
    for (size_t base = 0; base < n; base += kBlock) {
        const size_t count = std::min(kBlock, n - base);
        for (size_t i = 0; i < count; ++i) std::memcpy(&halves[2 * i], in + (base + i) * stride + field, 4);
        for (size_t i = 0; i < 2 * kBlock; ++i) values[i] = halfToFloat(halves[i]);
        std::memcpy(&uvs[base], values, count * sizeof(glm::vec2));
    }
}
} // namespace

bool decodeVertices(Reader& r, const MeshInfo& m, std::span<const std::byte> vertices, MeshArrays& a) {
    const VertexFields f = vertexFields(m.mask);
    const size_t stride = m.vertexSize, n = m.numVertices;
    const std::byte* in = vertices.data();
    for (size_t v = 0; v < n; ++v) std::memcpy(&a.positions[v], in + v * stride, sizeof(glm::vec3));
    if (!a.joints.empty() && f.skin >= 0 && !decodeSkin(r, m, in, stride, size_t(f.skin), a)) return false;
    if (f.normal >= 0) decodeNormals(in, stride, size_t(f.normal), n, a.normals.data(), a.tangents.data());
    if (f.uv[0] >= 0) decodeUvs(in, stride, size_t(f.uv[0]), n, a.uv0.data());
    if (f.uv[1] >= 0) decodeUvs(in, stride, size_t(f.uv[1]), n, a.uv1.data());
    return true;
}

} // namespace horde::swtor
