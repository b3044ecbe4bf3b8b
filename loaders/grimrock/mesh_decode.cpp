#include <cmath>
#include <cstring>
#include <limits>

#include "asset/influences.h"
#include "grimrock_file.h"
#include "mesh_entity.h"

namespace horde::grimrock {

namespace {
template <class T> T load(const std::byte* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

// One component as stored; integer types keep their integer value.
double component(const VertexArray& a, uint32_t vertex, int k) {
    const std::byte* p = a.data.data() + size_t(vertex) * size_t(a.stride);
    switch (a.type) {
    case kByte: return load<uint8_t>(p + k);
    case kInt16: return load<int16_t>(p + 2 * k);
    case kInt32: return load<int32_t>(p + 4 * k);
    default: return load<float>(p + 4 * k);
    }
}

// Integer weights are normalized to their type's range (bytes /255).
double weight(const VertexArray& a, uint32_t vertex, int k) {
    double raw = component(a, vertex, k);
    switch (a.type) {
    case kByte: return raw / 255.0;
    case kInt16: return raw / 32767.0;
    case kInt32: return raw / 2147483647.0;
    default: return raw;
    }
}

// Up to `n` leading components; absent arrays and missing components read as zero.
glm::vec4 vector(const VertexArray& a, uint32_t vertex, int n) {
    glm::vec4 v(0.0f);
    if (!a.present()) return v;
    for (int k = 0; k < std::min(a.dim, n); ++k) v[k] = float(component(a, vertex, k));
    return v;
}

bool decodeInfluences(Reader& r, const MeshScan& s, MeshArrays& out) {
    const VertexArray& index = s.arrays[kBoneIndex];
    const VertexArray& weights = s.arrays[kBoneWeight];
    const int count = std::min(index.dim, weights.dim);
    Influence influences[4];
    for (uint32_t v = 0; v < s.vertexCount; ++v) {
        for (int k = 0; k < count; ++k) {
            double w = weight(weights, v, k);
            double b = component(index, v, k);
            // Only bones that carry weight must exist; zero-weight slots often hold junk.
            if (w > 0.0 && !(b >= 0.0 && b < double(s.bones.size()) && b == std::floor(b)))
                return r.failAt(index.offset + size_t(v) * size_t(index.stride), "vertexArrays[13] (boneIndex)",
                                "vertex " + std::to_string(v) + " names bone " + std::to_string(b) + " but the mesh has " +
                                    std::to_string(s.bones.size()) + " bones");
            influences[k] = Influence{w > 0.0 ? uint32_t(b) : 0u, float(w)};
        }
        FourInfluences four = strongestFour(std::span<const Influence>(influences, size_t(count)));
        out.joints[v] = four.joints;
        out.weights[v] = four.weights;
    }
    return true;
}

bool decodeIndices(Reader& r, const MeshScan& s, MeshArrays& out) {
    for (uint32_t i = 0; i < s.indexCount; ++i) {
        int32_t index = load<int32_t>(s.indices.data() + 4 * size_t(i));
        if (index < 0 || uint32_t(index) >= s.vertexCount)
            return r.failAt(s.indicesOffset + 4 * size_t(i), "MeshData.indices",
                            "index " + std::to_string(i) + " = " + std::to_string(index) + " is outside the " +
                                std::to_string(s.vertexCount) + " vertices");
        out.setIndex(i, uint32_t(index));
    }
    return true;
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

    Mesh mesh;
    mesh.name = model.nodes[node].name;
    mesh.node = node;
    mesh.submeshes = s.segments;
    mesh.storage = allocator.allocate(layout, mesh.name);
    MeshArrays& out = mesh.arrays();
    for (uint32_t v = 0; v < s.vertexCount; ++v) {
        out.positions[v] = glm::vec3(vector(a[kPosition], v, 3));
        out.normals[v] = glm::vec3(vector(a[kNormal], v, 3));
        if (layout.tangents) {
            glm::vec3 t(vector(a[kTangent], v, 3));
            // The file stores the bitangent itself; the engine keeps only its side of the normal.
            float side = 1.0f;
            if (a[kBitangent].present() && glm::dot(glm::cross(out.normals[v], t), glm::vec3(vector(a[kBitangent], v, 3))) < 0.0f)
                side = -1.0f;
            out.tangents[v] = glm::vec4(t, side);
        }
        if (layout.uvSets >= 1) out.uv0[v] = glm::vec2(vector(a[kTexcoord0], v, 2));
        if (layout.uvSets >= 2) out.uv1[v] = glm::vec2(vector(a[kTexcoord1], v, 2));
    }
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
