// Brute force through a pool smaller than the crowd: per chunk of instances, every mesh's level 0
// skinned into the pool, then drawn, before the next chunk overwrites it. Every instance is still
// sampled, posed, skinned and drawn in full each frame. The commands grow with the crowd here
// (about 20 per chunk of vertexBudget vertices), the one place they do: it is the baseline, not
// the path that scales.
#include "render/crowd_scene_part.h"
#include "vk/device.h"

namespace horde {

namespace {

// A direct dispatch of `invocations` in rows of at most `limit` workgroups (flatInvocation()),
// as plan.comp sizes the indirect ones.
template <class Push>
void dispatchRows(VkCommandBuffer cmd, const Pipeline& pipeline, const Push& push, uint64_t invocations,
                  uint32_t limit) {
    const uint64_t groups = (invocations + HORDE_WORKGROUP - 1) / HORDE_WORKGROUP;
    if (groups == 0) return;
    const uint32_t x = uint32_t(std::min<uint64_t>(groups, limit));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
    pushConstants(cmd, pipeline, push);
    vkCmdDispatch(cmd, x, uint32_t((groups + x - 1) / x), 1);
}

} // namespace

// What plan.comp would write for a brute-force frame's level-0 draws, once: every instance is
// in every mesh's level-0 list, so only the chunk's first instance changes from draw to draw.
std::vector<gpu::DrawInfo> CrowdScene::buildChunkDraws(Part& part) {
    const CrowdAsset& asset = part.asset();
    const uint32_t count = part.count();
    std::vector<gpu::DrawInfo> infos;
    for (uint32_t m = 0; m < part.meshCount(); ++m) {
        const uint32_t list = asset.cullMeshes[m].firstLevel;
        const gpu::CullLevel& level = asset.cullLevels[list];
        for (uint32_t s = level.firstSubmesh; s < level.firstSubmesh + level.submeshCount; ++s) {
            const gpu::LevelSubmesh& submesh = asset.levelSubmeshes[s];
            if (submesh.indexCount == 0) continue;
            part.chunkDraws.push_back(
                {m, submesh.material, submesh.firstIndex, submesh.indexCount, level.batch});
            // Brute force draws every instance of every mesh at level 0: mesh m's entries start m
            // crowds in.
            infos.push_back({submesh.material, 0, level.batch, level.vertexCount, count, m * count});
        }
    }
    return infos;
}

void CrowdScene::recordChunks(VkCommandBuffer cmd, uint32_t slotIndex, const RenderTarget& target) {
    Slot& slot = slots_[slotIndex];
    const uint32_t limit = device_.properties().limits.maxComputeWorkGroupCount[0];
    uint32_t query = 4;
    bool first = true;
    for (size_t p = 0; p < parts_.size(); ++p) {
        Part& part = parts_[p];
        const CrowdModel& cm = *part.model;
        const CrowdAsset& asset = part.asset();
        const uint32_t count = part.count(), chunk = part.plan.chunkInstances;
        for (uint32_t start = 0; start < count; start += chunk) {
            const uint32_t n = std::min(chunk, count - start);
            if (!first) {
                // The previous chunk's draw has read the pool and written the attachments.
                barrier(
                    cmd,
                    VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                        VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                    VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT |
                        VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                    VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                        VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                        VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
                ++commands_;
            }
            const uint32_t chunkIndex = (query - 4) / 2;
            commands_ += slot.statistics.begin(cmd, PassStatisticsQueries::skin(chunkIndex));
            for (uint32_t m = 0; m < part.meshCount(); ++m) {
                const uint32_t list = asset.cullMeshes[m].firstLevel;
                gpu::SkinPush push = skinPush(part, slotIndex, list);
                push.jobs += VkDeviceAddress(start) * sizeof(gpu::SkinJob);
                push.jobLimit = n;
                dispatchRows(cmd, pipelines_.skin, push, uint64_t(n) * asset.cullLevels[list].vertexCount,
                             limit);
                commands_ += 3;
            }
            commands_ += slot.statistics.end(cmd, PassStatisticsQueries::skin(chunkIndex));
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, query++);
            passBarrier(cmd);
            commands_ += slot.statistics.begin(cmd, PassStatisticsQueries::draw(chunkIndex));
            beginRendering(cmd, target, first);
            if (first) recordGround(cmd, slotIndex);
            // Blended materials after the chunk's opaque ones (not across chunks: this is the baseline).
            const std::span<const gpu::MaterialRecord> records =
                resources_->materials->modelRecords(p, part.materialCount());
            MaterialBinding bound;
            int faced = -1; // the front face set: none yet, or the last drawn mesh's
            for (bool blended : {false, true})
                for (size_t d = 0; d < part.chunkDraws.size(); ++d) {
                    const Part::ChunkDraw& draw = part.chunkDraws[d];
                    const gpu::MaterialRecord& record = records[draw.material];
                    if ((record.alphaMode == HORDE_ALPHA_BLEND) != blended) continue;
                    if (faced != int(asset.clockwise[draw.mesh])) {
                        vkCmdSetFrontFace(cmd, frontFace(asset, draw.mesh));
                        ++commands_;
                        faced = int(asset.clockwise[draw.mesh]);
                    }
                    const Pipeline& pipeline = bindMaterial(cmd, bound, record, false);
                    gpu::DrawPush push = drawPush(part, p, slotIndex, draw.mesh);
                    push.drawInfo = part.chunkDrawInfo.address() + VkDeviceAddress(d) * sizeof(gpu::DrawInfo);
                    vkCmdBindIndexBuffer(cmd, cm.buffers().lodIndices[draw.mesh].get(), 0,
                                         VK_INDEX_TYPE_UINT32);
                    pushConstants(cmd, pipeline, push);
                    vkCmdDrawIndexed(cmd, draw.indexCount * draw.batch, (n + draw.batch - 1) / draw.batch,
                                     draw.firstIndex, 0, draw.mesh * count + start);
                    commands_ += 3;
                }
            vkCmdEndRendering(cmd);
            commands_ += 1 + slot.statistics.end(cmd, PassStatisticsQueries::draw(chunkIndex));
            // The last chunk's draw ends where recordFrame's final timestamp does.
            if (query + 1 < queryCount()) {
                vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, query);
                ++commands_;
            }
            ++query;
            first = false;
        }
    }
}

} // namespace horde
