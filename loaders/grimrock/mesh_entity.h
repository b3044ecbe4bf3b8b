#pragma once
// A node's MeshEntity: scanned first (headers, counts and where each array lies, all checked
// against the file), then decoded straight into storage sized from the scan.
#include <array>
#include <span>
#include <vector>

#include "asset/model.h"
#include "reader.h"

namespace horde::grimrock {

struct VertexArray {
    int32_t type = 0, dim = 0, stride = 0;
    size_t offset = 0;                 // file offset of the first vertex, for error messages
    std::span<const std::byte> data;   // vertexCount * stride bytes
    bool present() const { return stride != 0; }
};

struct Bone {
    int32_t node = 0;
    glm::mat4 invRest{1.0f};
};

struct MeshScan {
    uint32_t vertexCount = 0;
    std::array<VertexArray, 15> arrays;
    uint32_t indexCount = 0;
    size_t indicesOffset = 0;
    std::span<const std::byte> indices;
    std::vector<Submesh> segments;
    std::vector<Bone> bones;
    bool castShadow = false;
    bool skinned() const;
};

// Reads a MeshEntity up to its end; `nodeCount` bounds the bone node indices.
MeshScan scanMeshEntity(Reader& r, uint32_t nodeCount);

// Allocates the mesh and decodes every array once into it; adds the mesh (and its skin) to
// `model`. Fails through `r` with the offset of the offending value.
bool decodeMesh(Reader& r, const MeshScan& scan, uint32_t node, Model& model, MeshAllocator& allocator);

} // namespace horde::grimrock
