#pragma once
// Where a mesh's vertex streams live. A loader asks a MeshAllocator for storage sized from
// the file's headers, then decodes each array once, straight into these spans. The engine's
// GPU allocator hands out mapped GPU-visible memory; HeapMeshAllocator plain memory for tools
// that never draw.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include <glm/glm.hpp>

namespace horde {

struct MeshLayout {
    uint32_t vertexCount = 0;
    uint32_t indexCount = 0;
    bool tangents = false;
    uint32_t uvSets = 1;      // 0, 1 or 2
    bool skinned = false;     // joints and weights streams present
    bool index16 = false;     // 16-bit indices instead of 32-bit
    bool colors = false;      // an RGBA colour per vertex (glTF COLOR_0, Grimrock's colour array)
    bool moreInfluences = false; // skinned meshes whose source has more than four: influences five to eight
    uint32_t morphTargets = 0;   // morph targets: displacements of every vertex, blended by weights
    bool morphNormals = false;   // the targets displace normals too
};

// Influences five to eight of a vertex (glTF JOINTS_1/WEIGHTS_1), beside the four strongest of
// `joints` and `weights`. Those stay the four strongest renormalized, what every writer and the
// four-influence skinning read; these weights are shares of all eight, so eight-influence
// skinning scales the four by one minus their sum (model/influences.h, influencesOf).
struct MoreInfluences {
    glm::u16vec4 joints{0};
    glm::vec4 weights{0.0f};
};
static_assert(sizeof(MoreInfluences) == 24, "the GPU reads it as uvec2 + vec4, scalar layout");

struct MeshArrays {
    std::span<glm::vec3> positions;
    std::span<glm::vec3> normals;
    std::span<glm::vec4> tangents;  // xyz + handedness sign; empty without tangents
    std::span<glm::vec2> uv0;
    std::span<glm::vec2> uv1;
    std::span<glm::vec4> colors;    // linear RGBA in 0..1; empty without colours
    std::span<glm::u16vec4> joints; // indices into the mesh's skin joints
    std::span<glm::vec4> weights;   // sum to 1 (see influences.h)
    std::span<MoreInfluences> more; // empty unless layout.moreInfluences
    // Morph target t's displacement of vertex v at [t * vertexCount + v] (anim/reference.h, morphVertex).
    std::span<glm::vec3> morphPositions;
    std::span<glm::vec3> morphNormals; // empty unless layout.morphNormals
    std::span<uint16_t> indices16;
    std::span<uint32_t> indices32;

    uint32_t index(size_t i) const { return indices16.empty() ? indices32[i] : indices16[i]; }
    void setIndex(size_t i, uint32_t value) {
        if (indices16.empty()) indices32[i] = value;
        else indices16[i] = static_cast<uint16_t>(value);
    }
};

// Byte offsets of each stream from the start of the storage, for GPU addressing.
struct StreamOffsets {
    size_t positions = 0, normals = 0, tangents = 0, uv0 = 0, uv1 = 0, colors = 0, joints = 0, weights = 0,
           more = 0, morphPositions = 0, morphNormals = 0, indices = 0, total = 0;
};

StreamOffsets streamOffsets(const MeshLayout& layout);
MeshArrays arraysAt(std::byte* base, const MeshLayout& layout, const StreamOffsets& offsets);

class MeshStorage {
  public:
    virtual ~MeshStorage() = default;
    // Called once the loader has written every stream (a GPU copy may follow).
    virtual void commit() {}
    MeshLayout layout;
    StreamOffsets offsets;
    MeshArrays arrays;
    std::span<std::byte> bytes; // every stream, offsets.total bytes
};

class MeshAllocator {
  public:
    virtual ~MeshAllocator() = default;
    virtual std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) = 0;
};

class HeapMeshAllocator final : public MeshAllocator {
  public:
    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) override;
};

} // namespace horde
