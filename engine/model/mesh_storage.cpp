#include "model/mesh_storage.h"

#include <vector>

namespace horde {

namespace {
// 16 bytes keeps every stream aligned for vec4 loads on the GPU.
size_t place(size_t& cursor, size_t bytes) {
    size_t at = (cursor + 15) & ~size_t(15);
    cursor = at + bytes;
    return at;
}

template <class T> std::span<T> spanAt(std::byte* base, size_t offset, size_t count) {
    return count ? std::span<T>(reinterpret_cast<T*>(base + offset), count) : std::span<T>();
}
} // namespace

StreamOffsets streamOffsets(const MeshLayout& layout) {
    size_t n = layout.vertexCount;
    StreamOffsets o;
    size_t cursor = 0;
    o.positions = place(cursor, n * sizeof(glm::vec3));
    o.normals = place(cursor, n * sizeof(glm::vec3));
    o.tangents = place(cursor, layout.tangents ? n * sizeof(glm::vec4) : 0);
    o.uv0 = place(cursor, layout.uvSets > 0 ? n * sizeof(glm::vec2) : 0);
    o.uv1 = place(cursor, layout.uvSets > 1 ? n * sizeof(glm::vec2) : 0);
    o.colors = place(cursor, layout.colors ? n * sizeof(glm::vec4) : 0);
    o.joints = place(cursor, layout.skinned ? n * sizeof(glm::u16vec4) : 0);
    o.weights = place(cursor, layout.skinned ? n * sizeof(glm::vec4) : 0);
    o.more = place(cursor, layout.skinned && layout.moreInfluences ? n * sizeof(MoreInfluences) : 0);
    const size_t morphs = n * layout.morphTargets;
    o.morphPositions = place(cursor, morphs * sizeof(glm::vec3));
    o.morphNormals = place(cursor, layout.morphNormals ? morphs * sizeof(glm::vec3) : 0);
    o.indices = place(cursor, size_t(layout.indexCount) * (layout.index16 ? 2 : 4));
    o.total = (cursor + 15) & ~size_t(15);
    return o;
}

MeshArrays arraysAt(std::byte* base, const MeshLayout& layout, const StreamOffsets& o) {
    size_t n = layout.vertexCount;
    MeshArrays a;
    a.positions = spanAt<glm::vec3>(base, o.positions, n);
    a.normals = spanAt<glm::vec3>(base, o.normals, n);
    a.tangents = spanAt<glm::vec4>(base, o.tangents, layout.tangents ? n : 0);
    a.uv0 = spanAt<glm::vec2>(base, o.uv0, layout.uvSets > 0 ? n : 0);
    a.uv1 = spanAt<glm::vec2>(base, o.uv1, layout.uvSets > 1 ? n : 0);
    a.colors = spanAt<glm::vec4>(base, o.colors, layout.colors ? n : 0);
    a.joints = spanAt<glm::u16vec4>(base, o.joints, layout.skinned ? n : 0);
    a.weights = spanAt<glm::vec4>(base, o.weights, layout.skinned ? n : 0);
    a.more = spanAt<MoreInfluences>(base, o.more, layout.skinned && layout.moreInfluences ? n : 0);
    const size_t morphs = n * layout.morphTargets;
    a.morphPositions = spanAt<glm::vec3>(base, o.morphPositions, morphs);
    a.morphNormals = spanAt<glm::vec3>(base, o.morphNormals, layout.morphNormals ? morphs : 0);
    if (layout.index16) a.indices16 = spanAt<uint16_t>(base, o.indices, layout.indexCount);
    else a.indices32 = spanAt<uint32_t>(base, o.indices, layout.indexCount);
    return a;
}

namespace {
class HeapMeshStorage final : public MeshStorage {
  public:
    explicit HeapMeshStorage(const MeshLayout& l) {
        layout = l;
        offsets = streamOffsets(l);
        storage_.resize(offsets.total / 16);
        bytes = std::as_writable_bytes(std::span(storage_));
        arrays = arraysAt(bytes.data(), layout, offsets);
    }

  private:
    std::vector<glm::vec4> storage_; // vec4 elements give the 16-byte alignment streams need
};
} // namespace

std::unique_ptr<MeshStorage> HeapMeshAllocator::allocate(const MeshLayout& layout, std::string_view) {
    return std::make_unique<HeapMeshStorage>(layout);
}

} // namespace horde
