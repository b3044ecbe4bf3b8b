// A crowd frame's draw: the ground, then every material slot's indirect-count draw (or, for a
// brute-force crowd larger than the pool, the chunks of crowd_chunks.cpp).
#include <algorithm>
#include <cmath>

#include "render/crowd_scene_part.h"
#include "vk/device.h"

namespace horde {

void CrowdScene::recordDraw(VkCommandBuffer cmd, uint32_t slotIndex, const RenderTarget& target) {
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    depthAttachmentBarrier(cmd, target.depth);
    commands_ += 2;
    if (target.samples) {
        imageBarrier(cmd, target.samples, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                     VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
        ++commands_;
    }
    if (chunked_) {
        recordChunks(cmd, slotIndex, target);
    } else {
        commands_ += slots_[slotIndex].statistics.begin(cmd, PassStatisticsQueries::draw(0));
        beginRendering(cmd, target, true);
        recordGround(cmd, slotIndex);
        recordIndirectDraws(cmd, slotIndex, target.extent);
        vkCmdEndRendering(cmd);
        commands_ += 1 + slots_[slotIndex].statistics.end(cmd, PassStatisticsQueries::draw(0));
    }
    if (target.colorLayoutAfter == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL) return;
    bool present = target.colorLayoutAfter == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 target.colorLayoutAfter, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                 present ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                 present ? VK_ACCESS_2_NONE : VK_ACCESS_2_TRANSFER_READ_BIT);
    ++commands_;
}

void CrowdScene::beginRendering(VkCommandBuffer cmd, const RenderTarget& target, bool clear) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target.colorView;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    if (target.samples) {
        // Drawn with several samples a pixel, averaged into the target when the rendering ends;
        // the samples are kept only for the next chunk of a brute-force frame to draw over.
        color.imageView = target.samplesView;
        color.storeOp = chunked_ ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
        color.resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
        color.resolveImageView = target.colorView;
        color.resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    }
    color.clearValue.color = {{0.09f, 0.10f, 0.12f, 1.0f}};
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = target.depthView;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    // Chunks after the first test against the depth the earlier ones left.
    depth.storeOp = chunked_ ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_DONT_CARE;
    depth.clearValue.depthStencil = {1.0f, 0};
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, target.extent};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 1;
    rendering.pColorAttachments = &color;
    rendering.pDepthAttachment = &depth;
    vkCmdBeginRendering(cmd, &rendering);
    VkViewport viewport{0, 0, float(target.extent.width), float(target.extent.height), 0, 1};
    VkRect2D scissor{{0, 0}, target.extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
    commands_ += 3;
}

void CrowdScene::recordGround(VkCommandBuffer cmd, uint32_t slotIndex) {
    if (!settings_.ground || parts_.empty()) return;
    glm::vec3 size = worldBounds_.max - worldBounds_.min;
    float margin = std::max(size.x, size.z) * 0.05f;
    gpu::GroundPush push{};
    push.globals = slots_[slotIndex].globals.address();
    push.area = glm::vec4(worldBounds_.min.x - margin, worldBounds_.min.z - margin,
                          worldBounds_.max.x + margin, worldBounds_.max.z + margin);
    push.height = groundHeight_;
    glm::vec4 sphere = parts_[0].asset().worldSphere;
    push.cell = std::max(sphere.w, 1e-3f) * 2.0f;
    vkCmdSetCullMode(cmd, VK_CULL_MODE_NONE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines_.ground.get());
    pushConstants(cmd, pipelines_.ground, push);
    vkCmdDraw(cmd, 6, 1, 0, 0);
    commands_ += 4;
}

// Pipeline, texture set and cull mode for one material slot's draw, each set only when it
// changes within one rendering.
const Pipeline& CrowdScene::bindMaterial(VkCommandBuffer cmd, MaterialBinding& bound,
                                         const gpu::MaterialRecord& record, bool fading) {
    const Pipeline& pipeline = (fading ? pipelines_.drawFade : pipelines_.draw)[record.alphaMode];
    if (bound.pipeline != &pipeline) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.get());
        ++commands_;
        bound.pipeline = &pipeline;
        bound.texture = HORDE_NONE; // rebound below: the pipelines' layouts are distinct objects
    }
    if (record.texture != bound.texture) {
        VkDescriptorSet set = resources_->materials->set(record.texture);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout(), 0, 1, &set, 0,
                                nullptr);
        ++commands_;
        bound.texture = record.texture;
    }
    const VkCullModeFlags cull =
        (record.flags & HORDE_MATERIAL_DOUBLE_SIDED) ? VK_CULL_MODE_NONE : VK_CULL_MODE_BACK_BIT;
    if (cull != bound.cull) {
        vkCmdSetCullMode(cmd, cull);
        ++commands_;
        bound.cull = cull;
    }
    return pipeline;
}

gpu::DrawPush CrowdScene::drawPush(const Part& part, size_t partIndex, uint32_t slotIndex,
                                   uint32_t mesh) const {
    const CrowdModel& cm = *part.model;
    const GpuMesh& source = cm.meshes()[mesh];
    const Part::PerSlot& b = part.slots[slotIndex];
    gpu::DrawPush push{};
    push.globals = slots_[slotIndex].globals.address();
    push.instances = part.instanceBuffer.address();
    push.entries = b.entries.address();
    push.sharedOffsets = b.sharedOffsets.address();
    push.materials = resources_->materials->records(partIndex);
    push.worlds = b.worlds.address();
    push.jointBase = part.asset().tables.meshJointBase[mesh];
    push.jointCount = uint32_t(part.asset().tables.joints.size());
    push.extras = b.meshExtras.address() + VkDeviceAddress(mesh) * sizeof(gpu::MeshExtras);
    if (settings_.technique == Technique::Compute) {
        push.positions = b.positions.address();
        push.normals = b.normals.address();
    } else {
        push.positions = source.positions;
        push.normals = source.normals;
        push.joints = source.joints;
        push.weights = source.weights;
        push.palette = b.palette.address();
    }
    const bool uvs = settings_.textures && source.uv0 != 0;
    if (uvs) push.uvs = source.uv0;
    if (uvs || drawnColors(part, mesh) != 0 || settings_.technique == Technique::Vertex)
        push.order = cm.buffers().lodOrder[mesh].address();
    return push;
}

// Every material slot's commands are one indirect-count draw: opaque and masked materials of
// every model first, then the blended ones over them (in model, mesh and submesh order, not
// sorted by depth). Once impostors are baked, each slot's fading instances are a second draw
// of their own, through the fading pipelines. The commands depend on the models' materials,
// never on the crowd's size.
void CrowdScene::recordIndirectDraws(VkCommandBuffer cmd, uint32_t slotIndex, VkExtent2D extent) {
    MaterialBinding bound;
    const bool fades = impostorsBaked() && settings_.impostorFade;
    for (bool blended : {false, true}) {
        // Impostors after the opaque meshes, before anything blends over them.
        if (blended && impostorsBaked()) {
            recordImpostors(cmd, slotIndex, extent);
            bound = {};
        }
        recordMeshDraws(cmd, slotIndex, bound, blended, false);
        if (fades) recordMeshDraws(cmd, slotIndex, bound, blended, true);
    }
}

// Every model's material slots of one kind (blended or not), each one indirect-count draw of the
// run of commands for all instances, or for the fading ones.
void CrowdScene::recordMeshDraws(VkCommandBuffer cmd, uint32_t slotIndex, MaterialBinding& bound,
                                 bool blended, bool fading) {
    for (size_t p = 0; p < parts_.size(); ++p) {
        Part& part = parts_[p];
        const CrowdModel& cm = *part.model;
        const CrowdAsset& asset = part.asset();
        Part::PerSlot& b = part.slots[slotIndex];
        const std::span<const gpu::MaterialRecord> records =
            resources_->materials->modelRecords(p, part.materialCount());
        int faced = -1; // the front face set for this part: none yet, or the last mesh's
        for (uint32_t m = 0; m < part.meshCount(); ++m) {
            const uint32_t first = asset.meshMaterials[m];
            const uint32_t end = first + uint32_t(cm.model().meshes[m].submeshes.size());
            bool any = false;
            for (uint32_t material = first; material < end; ++material)
                any |= (records[material].alphaMode == HORDE_ALPHA_BLEND) == blended;
            if (!any) continue;
            if (faced != int(asset.clockwise[m])) {
                vkCmdSetFrontFace(cmd, frontFace(asset, m));
                ++commands_;
                faced = int(asset.clockwise[m]);
            }
            gpu::DrawPush push = drawPush(part, p, slotIndex, m);
            vkCmdBindIndexBuffer(cmd, cm.buffers().lodIndices[m].get(), 0, VK_INDEX_TYPE_UINT32);
            ++commands_;
            for (uint32_t material = first; material < end; ++material) {
                const gpu::MaterialRecord& record = records[material];
                if ((record.alphaMode == HORDE_ALPHA_BLEND) != blended) continue;
                const Pipeline& pipeline = bindMaterial(cmd, bound, record, fading);
                // The fading run of commands and its counts follow the others (plan.comp).
                const uint64_t slot = fading ? part.materialCount() + material : material;
                const uint64_t command = slot * asset.commandsPerMesh;
                const uint64_t count =
                    HORDE_COUNT_HEADER + material +
                    (fading ? uint64_t(part.materialCount()) + 3 * uint64_t(part.listCount()) : 0);
                push.drawInfo = b.drawInfo.address() + command * sizeof(gpu::DrawInfo);
                pushConstants(cmd, pipeline, push);
                vkCmdDrawIndexedIndirectCount(cmd, b.draws.get(), command * kCommandBytes, b.counters.get(),
                                              count * 4, asset.commandsPerMesh, kCommandBytes);
                commands_ += 2;
            }
        }
    }
}

// Each model's impostors: one indirect draw of a point an impostor, its atlas bound. A device may
// clip a point whole when its centre leaves the view (VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
// lavapipe does not), so the viewport reaches half the widest point past each edge of the target,
// as far as the device lets a viewport reach, the scissor keeping the target's.
void CrowdScene::recordImpostors(VkCommandBuffer cmd, uint32_t slotIndex, VkExtent2D extent) {
    const Pipeline& pipeline = pipelines_.impostor;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.get());
    vkCmdSetCullMode(cmd, VK_CULL_MODE_NONE);
    const VkPhysicalDeviceLimits& limits = device_.properties().limits;
    const float width = float(extent.width), height = float(extent.height);
    const float guard = std::max(0.0f, std::min({std::ceil(device_.largestPoint() * 0.5f),
                                                 (float(limits.maxViewportDimensions[0]) - width) * 0.5f,
                                                 (float(limits.maxViewportDimensions[1]) - height) * 0.5f,
                                                 -limits.viewportBoundsRange[0],
                                                 limits.viewportBoundsRange[1] - std::max(width, height)}));
    const VkViewport guarded{-guard, -guard, width + 2.0f * guard, height + 2.0f * guard, 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &guarded);
    commands_ += 3;
    for (size_t p = 0; p < parts_.size(); ++p) {
        const Part& part = parts_[p];
        const ImpostorAtlases::Atlas& atlas = impostors_->atlas(p);
        gpu::ImpostorPush push{};
        push.globals = slots_[slotIndex].globals.address();
        push.instances = part.instanceBuffer.address();
        push.entries = part.slots[slotIndex].entries.address();
        push.views = atlas.views.address();
        push.sphere = part.asset().worldSphere;
        push.tilesPerRow = atlas.tilesPerRow;
        push.tileRows = atlas.tileRows;
        push.poseTiles = part.model->buffers().poseTiles.address();
        push.target = glm::vec2(width, height);
        push.guard = guard;
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout(), 0, 1, &atlas.set, 0,
                                nullptr);
        pushConstants(cmd, pipeline, push);
        // The count form, as the meshes draw: lavapipe 22.3 drew nothing from the same GPU-written
        // command through the plain indirect form. Any impostor makes the count one or more.
        vkCmdDrawIndirectCount(cmd, part.slots[slotIndex].impostorDraw.get(), 0,
                               part.slots[slotIndex].counters.get(), HORDE_COUNT_IMPOSTORS * 4, 1,
                               sizeof(VkDrawIndirectCommand));
        commands_ += 3;
    }
    const VkViewport viewport{0, 0, width, height, 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    ++commands_;
}

} // namespace horde
