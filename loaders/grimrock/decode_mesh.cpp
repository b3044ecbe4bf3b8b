#include "grimrock/grimrock.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "model/influences.h"
#include "index_copy.h"

namespace horde::grimrock {

namespace {
// Every array is decoded by one loop specialised for its stored type, and copied whole when
// it already has the engine's layout (tight float32 vectors, the common case).
template <class T> T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

// Calls `f` with a value of the array's component type.
template <class F> decltype(auto) withType(int32_t type, F&& f) {
    switch (type) {
    case kByte: return f(uint8_t{});
    case kInt16: return f(int16_t{});
    case kInt32: return f(int32_t{});
    default: return f(float{});
    }
}

// Up to N leading components of vertex `v`, stored as T; integer types keep their integer
// value, missing components read as zero.
template <int N, class T> glm::vec<N, float> vectorAt(const VertexArray& a, size_t v) {
    glm::vec<N, float> out(0.0f);
    const std::byte* p = a.data.data() + v * size_t(a.stride);
    for (int k = 0; k < std::min(a.dim, N); ++k) out[k] = float(load<T>(p + k * sizeof(T)));
    return out;
}

// Absent arrays read as zero.
template <int N> void decodeVectors(const VertexArray& a, std::span<glm::vec<N, float>> out) {
    using Vec = glm::vec<N, float>;
    if (!a.present()) {
        std::fill(out.begin(), out.end(), Vec(0.0f));
        return;
    }
    if (a.type == kFloat32 && a.dim == N && a.stride == int32_t(sizeof(Vec))) {
        std::memcpy(out.data(), a.data.data(), out.size_bytes());
        return;
    }
    withType(a.type, [&](auto zero) {
        for (size_t v = 0; v < out.size(); ++v) out[v] = vectorAt<N, decltype(zero)>(a, v);
    });
}

// Bytes are 0..255 per channel; other types are taken as 0..1. Without a fourth channel a
// colour is opaque.
void decodeColors(const VertexArray& a, std::span<glm::vec4> out) {
    decodeVectors<4>(a, out);
    float scale = a.type == kByte ? 1.0f / 255.0f : 1.0f;
    for (glm::vec4& c : out) {
        c *= scale;
        if (a.dim < 4) c.w = 1.0f;
    }
}

// The file stores the bitangent itself; the engine keeps only its side of the normal.
void decodeTangents(const VertexArray& tangent, const VertexArray& bitangent, MeshArrays& out) {
    withType(tangent.type, [&](auto zero) {
        for (size_t v = 0; v < out.tangents.size(); ++v) out.tangents[v] = glm::vec4(vectorAt<3, decltype(zero)>(tangent, v), 1.0f);
    });
    if (!bitangent.present()) return;
    withType(bitangent.type, [&](auto zero) {
        for (size_t v = 0; v < out.tangents.size(); ++v) {
            const glm::vec3 b = vectorAt<3, decltype(zero)>(bitangent, v);
            if (glm::dot(glm::cross(out.normals[v], glm::vec3(out.tangents[v])), b) < 0.0f) out.tangents[v].w = -1.0f;
        }
    });
}

// Integer weights are normalized to their type's range (bytes /255).
template <class T> float weightValue(T raw) {
    if constexpr (std::is_same_v<T, uint8_t>) return float(raw) / 255.0f;
    else if constexpr (std::is_same_v<T, int16_t>) return float(raw) / 32767.0f;
    else if constexpr (std::is_same_v<T, int32_t>) return float(double(raw) / 2147483647.0);
    else return raw;
}

// A bone index as stored, or -1 when it names no bone (negative or fractional).
template <class T> int64_t boneIndex(T raw) {
    if constexpr (std::is_same_v<T, float>) return raw >= 0.0f && raw < 2147483648.0f && raw == std::floor(raw) ? int64_t(raw) : -1;
    else return int64_t(raw);
}

// Calls `f` with the number of influence slots (1 to 4) as a compile-time constant.
template <class F> bool withCount(int count, F&& f) {
    switch (count) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    default: return f(std::integral_constant<int, 4>{});
    }
}

// Names slot `k` of vertex `v`, which carries weight but names a bone that does not exist.
template <class I> bool failBone(Reader& r, const VertexArray& index, uint32_t v, int k, int64_t bones) {
    const size_t at = size_t(v) * size_t(index.stride) + k * sizeof(I);
    return r.failAt(index.offset + at, "vertexArrays[13] (boneIndex)",
                    "vertex " + std::to_string(v) + " names bone " + std::to_string(double(load<I>(index.data.data() + at))) +
                        " but the mesh has " + std::to_string(bones) + " bones");
}

// Block by block: a block's weights are decoded into a small buffer, then its bone indices are
// read, checked against those weights and reduced with them to the engine's four strongest,
// and each vertex's streams are written once.
constexpr uint32_t kBlock = 256;

void decodeWeights(const VertexArray& weights, int count, uint32_t first, std::span<glm::vec4> out) {
    const std::byte* p = weights.data.data() + size_t(first) * size_t(weights.stride);
    if (weights.type == kFloat32 && count == 4 && weights.stride == int32_t(sizeof(glm::vec4))) {
        std::memcpy(out.data(), p, out.size_bytes());
        return;
    }
    withType(weights.type, [&](auto zero) {
        using W = decltype(zero);
        for (glm::vec4& w : out) {
            w = glm::vec4(0.0f);
            for (int k = 0; k < count; ++k) w[k] = weightValue(load<W>(p + k * sizeof(W)));
            p += weights.stride;
        }
    });
}

bool decodeInfluences(Reader& r, const MeshScan& s, MeshArrays& out) {
    const VertexArray& index = s.arrays[kBoneIndex];
    const VertexArray& weights = s.arrays[kBoneWeight];
    const int count = std::min(index.dim, weights.dim);
    const int64_t bones = int64_t(s.bones.size());
    glm::vec4 block[kBlock];
    return withType(index.type, [&](auto zero) {
        return withCount(count, [&](auto slots) {
            using I = decltype(zero);
            for (uint32_t first = 0; first < s.vertexCount; first += kBlock) {
                const uint32_t size = std::min(kBlock, s.vertexCount - first);
                decodeWeights(weights, count, first, std::span(block, size));
                const std::byte* p = index.data.data() + size_t(first) * size_t(index.stride);
                for (uint32_t i = 0; i < size; ++i, p += index.stride) {
                    glm::vec4 w = block[i];
                    glm::u16vec4 joints(0);
                    int unnamed = -1;
                    for (int k = slots - 1; k >= 0; --k) {
                        int64_t b = boneIndex(load<I>(p + k * sizeof(I)));
                        // Only bones that carry weight must exist; zero-weight slots often hold junk.
                        unnamed = ((w[k] > 0.0f) & (uint64_t(b) >= uint64_t(bones))) ? k : unnamed;
                        joints[k] = uint16_t(b);
                    }
                    if (unnamed >= 0) return failBone<I>(r, index, first + i, unnamed, bones);
                    keepStrongestFour(joints, w);
                    out.joints[first + i] = joints;
                    out.weights[first + i] = w;
                }
            }
            return true;
        });
    });
}

// Only a failing mesh is searched again, for the first bad index to name it.
bool decodeIndices(Reader& r, const MeshScan& s, MeshArrays& out) {
    const bool stream = r.size() >= kStreamingFileBytes;
    if (out.indices16.empty() ? copyIndices32(out.indices32, s.indices, s.vertexCount, stream)
                              : narrowIndices32(out.indices16, s.indices, s.vertexCount, stream))
        return true;
    for (uint32_t i = 0;; ++i) {
        int32_t index = load<int32_t>(s.indices.data() + 4 * size_t(i));
        if (index < 0 || uint32_t(index) >= s.vertexCount)
            return r.failAt(s.indicesOffset + 4 * size_t(i), "MeshData.indices",
                            "index " + std::to_string(i) + " = " + std::to_string(index) + " is outside the " +
                                std::to_string(s.vertexCount) + " vertices");
    }
}
} // namespace

bool decodeMesh(Reader& r, const MeshScan& s, uint32_t node, Model& model, MeshAllocator& allocator) {
    const auto& a = s.arrays;
    MeshLayout layout;
    layout.vertexCount = s.vertexCount;
    layout.indexCount = s.indexCount;
    layout.tangents = a[kTangent].present();
    layout.uvSets = a[kTexcoord1].present() ? 2 : a[kTexcoord0].present() ? 1 : 0;
    layout.skinned = s.skinned();
    layout.index16 = s.vertexCount <= std::numeric_limits<uint16_t>::max() + 1u;
    layout.colors = a[kColor].present();

    Mesh mesh;
    mesh.name = model.nodes[node].name;
    mesh.node = node;
    mesh.submeshes = s.segments;
    mesh.storage = allocator.allocate(layout, mesh.name);
    MeshArrays& out = mesh.arrays();
    decodeVectors<3>(a[kPosition], out.positions);
    decodeVectors<3>(a[kNormal], out.normals);
    if (layout.tangents) decodeTangents(a[kTangent], a[kBitangent], out);
    if (layout.uvSets >= 1) decodeVectors<2>(a[kTexcoord0], out.uv0);
    if (layout.uvSets >= 2) decodeVectors<2>(a[kTexcoord1], out.uv1);
    if (layout.colors) decodeColors(a[kColor], out.colors);
    if (layout.skinned && !decodeInfluences(r, s, out)) return false;
    if (!decodeIndices(r, s, out)) return false;

    if (s.vertexCount > 0 && !a[kNormal].present())
        model.warnings.push_back("mesh '" + mesh.name + "' has no normals; they read as zero");
    if (!s.bones.empty() && !layout.skinned)
        model.warnings.push_back("mesh '" + mesh.name + "' lists " + std::to_string(s.bones.size()) +
                                 " bones but no bone index and weight arrays; drawn as a static mesh");
    if (layout.skinned) {
        Skin skin;
        for (const Bone& bone : s.bones) {
            skin.joints.push_back(uint32_t(bone.node));
            skin.inverseBind.push_back(bone.invRest);
        }
        mesh.skin = int32_t(model.skins.size());
        model.skins.push_back(std::move(skin));
    }
    model.meshes.push_back(std::move(mesh));
    return true;
}

} // namespace horde::grimrock
