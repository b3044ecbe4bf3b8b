#pragma once
// Encodes a GAWB version 4 file from plain records: sections in the order the spec lists them,
// each 16-byte aligned, strings pooled after the bone lists, every offset field listed in the
// cached-offsets table, an empty BNRY block, the per-mesh boxes and the EGCD trailer.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "core/result.h"

namespace horde::swtor {

struct Box {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
};

struct PieceOut {
    uint32_t firstTriangle = 0;
    uint32_t triangles = 0;
    int32_t material = -1;
    int32_t index = -1;
    Box box;
};

struct MeshBoneOut {
    std::string name;
    Box box;
};

struct MeshOut {
    std::string name;
    uint32_t flags = 0;
    uint16_t mask = 0;
    uint32_t vertexCount = 0;
    std::vector<std::byte> vertices; // vertexCount * vertexSizeFor(mask) bytes
    std::vector<uint16_t> indices;
    std::vector<PieceOut> pieces;
    std::vector<MeshBoneOut> bones;
    Box box;
};

struct BoneOut {
    std::string name;
    int32_t parent = -1;
    glm::mat4 boneToParent{1.0f};
    glm::mat4 rootToBone{1.0f};
};

struct AttachmentOut {
    std::string name;
    std::string bone;
    glm::mat4 transform{1.0f};
};

struct FileOut {
    uint32_t type = 0;
    std::vector<MeshOut> meshes;
    std::vector<std::string> materials;
    std::vector<BoneOut> bones;
    std::vector<AttachmentOut> attachments;
    Box box;
};

std::vector<std::byte> encode(const FileOut& file);

} // namespace horde::swtor
