#include "render/crowd_model.h"

#include <algorithm>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "render/view.h"
#include "vk/device.h"
#include "vk/gpu_mesh.h"

namespace horde {

namespace {

// The largest factor by which the axes matrix stretches a length (it is a rotation or mirror
// times the file's unit scale).
// The source mesh as a one-level chain.
LodChain sourceOnly(const Mesh& mesh) {
    LodChain chain;
    chain.order.resize(mesh.vertexCount());
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v) chain.order[v] = v;
    chain.indices.resize(mesh.indexCount());
    for (uint32_t i = 0; i < mesh.indexCount(); ++i) chain.indices[i] = mesh.arrays().index(i);
    chain.levels.push_back({0.0f, mesh.vertexCount(), false, mesh.submeshes});
    return chain;
}

MotionBounds bindPoseOnly(const Bounds& bind, size_t clips) {
    return {{bind.center(), bind.radius()}, std::vector<float>(clips, 0.0f)};
}

// Instances per drawn instance for a level of `vertices` vertices: batches of about a thousand
// vertices, at most 64 instances. Big levels draw one instance each.
uint32_t drawBatch(uint32_t vertices) { return std::clamp(1024u / std::max(vertices, 1u), 1u, 64u); }

float largestScale(const glm::mat4& m) {
    return std::max({glm::length(glm::vec3(m[0])), glm::length(glm::vec3(m[1])), glm::length(glm::vec3(m[2]))});
}

} // namespace

Buffer uploadTable(Device& device, std::span<const std::byte> bytes, VkBufferUsageFlags usage, std::string_view name) {
    VkDeviceSize size = std::max<VkDeviceSize>(bytes.size(), 16);
    MemoryUse use = device.unifiedMemory() ? MemoryUse::Direct : MemoryUse::Device;
    Buffer buffer(device, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT, use, name);
    if (bytes.empty()) return buffer;
    if (buffer.mapped()) {
        std::memcpy(buffer.mapped(), bytes.data(), bytes.size());
        return buffer;
    }
    Buffer staging(device, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
    std::memcpy(staging.mapped(), bytes.data(), bytes.size());
    device.immediate([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, bytes.size()};
        vkCmdCopyBuffer(cmd, staging.get(), buffer.get(), 1, &region);
    });
    return buffer;
}

void uploadMeshes(Device& device, Model& model) {
    for (Mesh& mesh : model.meshes) gpuStorage(device, mesh);
}

CrowdModel::CrowdModel(Device& device, const Model& model, const CrowdModelOptions& options)
    : model_(model), tables_(buildAnimationTables(model)), axesToWorld_(glm::scale(glm::mat4(1.0f), glm::vec3(options.scale)) * horde::axesToWorld(model.axes)),
      clockwise_(frontFaceClockwise(model.axes)), bucketsPerClip_(std::max(options.bucketsPerClip, 1u)) {
    const Bounds bind = bindPoseBounds(model);
    motion_ = options.crowd ? motionBounds(model) : bindPoseOnly(bind, model.clips.size());
    worldBindBounds_ = toWorld(bind, axesToWorld_);
    worldSphere_ = glm::vec4(glm::vec3(axesToWorld_ * glm::vec4(motion_.sphere.center, 1.0f)),
                             motion_.sphere.radius * largestScale(axesToWorld_));

    for (const Mesh& mesh : model.meshes) {
        if (!dynamic_cast<const GpuMeshStorage*>(mesh.storage.get()))
            throw std::logic_error("CrowdModel: mesh '" + mesh.name + "' is not in GPU memory (call uploadMeshes first)");
        const uint32_t firstMaterial = uint32_t(materialSlots_.size());
        for (const Submesh& s : mesh.submeshes)
            materialSlots_.push_back(s.material);
        meshMaterials_.push_back(firstMaterial);

        LodChain chain = options.crowd ? buildLodChain(model, mesh, options.lod) : sourceOnly(mesh);
        gpu::CullMesh cullMesh{uint32_t(cullLevels_.size()), uint32_t(chain.levels.size()), vertexStride_, 0};
        cullMeshes_.push_back(cullMesh);
        vertexStride_ += chain.levels.empty() ? 0 : chain.levels[0].vertexCount;
        std::vector<uint32_t> indices; // every level's submeshes, each `batch` times over
        for (const LodLevel& level : chain.levels) {
            gpu::CullLevel record{};
            record.error = level.error * options.scale;
            record.vertexCount = level.vertexCount;
            record.mesh = uint32_t(cullMeshes_.size() - 1);
            record.firstSubmesh = uint32_t(levelSubmeshes_.size());
            record.submeshCount = uint32_t(level.submeshes.size());
            record.batch = drawBatch(level.vertexCount);
            cullLevels_.push_back(record);
            for (size_t s = 0; s < level.submeshes.size(); ++s) {
                const Submesh& submesh = level.submeshes[s];
                levelSubmeshes_.push_back({uint32_t(indices.size()), submesh.indexCount,
                                           firstMaterial + uint32_t(std::min(s, mesh.submeshes.size() - 1)), 0});
                for (uint32_t copy = 0; copy < record.batch; ++copy)
                    for (uint32_t i = 0; i < submesh.indexCount; ++i)
                        indices.push_back(chain.indices[submesh.firstIndex + i] + copy * level.vertexCount);
            }
            commandsPerMesh_ = std::max(commandsPerMesh_, uint32_t(chain.levels.size() * level.submeshes.size()));
        }
        std::string tag = " " + mesh.name;
        buffers_.lodIndices.push_back(uploadTable(device, indices, "lod indices" + tag,
                                                  kStorageUsage | VK_BUFFER_USAGE_INDEX_BUFFER_BIT));
        buffers_.lodOrder.push_back(uploadTable(device, chain.order, "lod vertex order" + tag));
        lods_.push_back(std::move(chain));
    }

    buffers_.rest = uploadTable(device, tables_.rest, "node rest transforms");
    buffers_.clips = uploadTable(device, tables_.clips, "clips");
    buffers_.channelTable = uploadTable(device, tables_.channelTable, "clip channel table");
    buffers_.channels = uploadTable(device, tables_.channels, "channels");
    buffers_.times = uploadTable(device, tables_.times, "key times");
    buffers_.values = uploadTable(device, tables_.values, "key values");
    buffers_.joints = uploadTable(device, tables_.joints, "joints");
    std::vector<float> clipSpeed = motion_.clipSpeed;
    for (float& speed : clipSpeed) speed *= options.scale;
    buffers_.clipSpeed = uploadTable(device, clipSpeed, "clip vertex speed bounds");
    buffers_.meshes = uploadTable(device, cullMeshes_, "cull meshes");
    buffers_.levels = uploadTable(device, cullLevels_, "cull levels");
    buffers_.submeshes = uploadTable(device, levelSubmeshes_, "level submeshes");
    buffers_.axes = uploadTable(device, std::vector<glm::mat4>{axesToWorld_}, "axes to world");
}

} // namespace horde
