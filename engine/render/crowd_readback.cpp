// Results read back for tests and `horde pose`, apart from the frame path: each read waits for
// its own copy.
#include <cstring>

#include <glm/gtc/packing.hpp>

#include "render/crowd_scene_part.h"
#include "vk/device.h"

namespace horde {

std::vector<uint8_t> CrowdScene::readBuffer(const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size) {
    Buffer readback(device_, std::max<VkDeviceSize>(size, 16), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                    MemoryUse::Readback, "readback");
    device_.immediate([&](VkCommandBuffer cmd) {
        VkBufferCopy region{offset, 0, size};
        vkCmdCopyBuffer(cmd, buffer.get(), readback.get(), 1, &region);
        barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    });
    std::vector<uint8_t> bytes(size);
    std::memcpy(bytes.data(), readback.mapped(), size);
    return bytes;
}

std::vector<gpu::InstanceRecord> CrowdScene::readInstances(uint32_t partIndex) {
    const Part& part = parts_.at(partIndex);
    std::vector<uint8_t> bytes = readBuffer(part.instanceBuffer, 0, part.count() * sizeof(gpu::InstanceRecord));
    std::vector<gpu::InstanceRecord> out(part.count());
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

std::vector<uint32_t> CrowdScene::readPalette(uint32_t slot, uint32_t partIndex) {
    const Part& part = parts_.at(partIndex);
    if (settings_.cull || settings_.lod) throw std::logic_error("readPalette needs culling and LOD off");
    const CrowdAsset& asset = part.asset();
    const VkDeviceSize joint = paletteEntryBytes(settings_.skin) * asset.tables.joints.size();
    std::vector<uint8_t> bytes =
        readBuffer(part.slots[slot].palette, part.ownPoseBase() * joint, part.count() * joint);
    std::vector<uint32_t> out(bytes.size() / sizeof(uint32_t));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(uint32_t));
    return out;
}

std::vector<glm::vec3> CrowdScene::readSkinned(uint32_t slot, uint32_t partIndex, uint32_t meshIndex,
                                               bool normals) {
    const Part& part = parts_.at(partIndex);
    if (settings_.cull || settings_.lod || settings_.technique != Technique::Compute)
        throw std::logic_error("readSkinned needs the compute technique with culling and LOD off");
    if (chunked_) throw std::logic_error("readSkinned needs a crowd the vertex budget holds whole");
    const CrowdAsset& asset = part.asset();
    const uint32_t stride = asset.vertexStride;
    const bool half = settings_.skin.precision == Precision::Fp16;
    const Buffer& pool = normals && !half ? part.slots[slot].normals : part.slots[slot].positions;
    const uint64_t vertexBytes = half ? poolVertexBytes(settings_.skin) : sizeof(glm::vec3);
    std::vector<uint8_t> bytes = readBuffer(pool, 0, uint64_t(part.count()) * stride * vertexBytes);
    // At half precision a vertex is three words: (px, py), (pz, nx), (ny, nz).
    auto pooled = [&](size_t index) {
        if (!half) return reinterpret_cast<const glm::vec3*>(bytes.data())[index];
        uint32_t w[HORDE_POOL_WORDS_HALF];
        std::memcpy(w, bytes.data() + index * vertexBytes, sizeof w);
        const glm::vec2 a = glm::unpackHalf2x16(w[0]), b = glm::unpackHalf2x16(w[1]), c = glm::unpackHalf2x16(w[2]);
        return normals ? glm::vec3(b.y, c) : glm::vec3(a, b.x);
    };
    const std::vector<uint32_t>& order = asset.lods[meshIndex].order;
    const uint32_t base = asset.cullMeshes[meshIndex].vertexBase;
    std::vector<glm::vec3> out(part.count() * order.size());
    for (size_t i = 0; i < part.count(); ++i)
        for (size_t v = 0; v < order.size(); ++v)
            out[i * order.size() + order[v]] = pooled(i * stride + base + v);
    return out;
}

std::vector<uint32_t> CrowdScene::readListStarts(uint32_t slot, uint32_t partIndex) {
    const Part& part = parts_.at(partIndex);
    std::vector<uint8_t> bytes =
        readBuffer(part.slots[slot].listStarts, 0, uint64_t(part.listCount() + 1) * 4);
    std::vector<uint32_t> out(part.listCount() + 1);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

std::vector<gpu::DrawEntry> CrowdScene::readEntries(uint32_t slot, uint32_t partIndex, uint32_t count) {
    const Part& part = parts_.at(partIndex);
    std::vector<uint8_t> bytes =
        readBuffer(part.slots[slot].entries, 0, uint64_t(count) * sizeof(gpu::DrawEntry));
    std::vector<gpu::DrawEntry> out(count);
    std::memcpy(out.data(), bytes.data(), bytes.size());
    return out;
}

} // namespace horde
