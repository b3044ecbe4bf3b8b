#include "render/impostor_atlas.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "crowd/impostor_views.h"
#include "crowd/view.h"
#include "vk/check.h"
#include "vk/device.h"
#include "vk/upload.h"

namespace horde {

namespace {

constexpr uint32_t kAtlasLevels = 5; // a tile from HORDE_IMPOSTOR_TILE texels down to 2

// Per view, the rectangle of the tile every pose stays in: the box around every pose (in the
// world's axes, before an instance's heading) seen along the view, as a share of the sphere's
// radius about its centre (the same frame as impostorFrame() in shaders/common.glsl); and the
// coverage the bake's levels lost there.
std::vector<gpu::ImpostorView> views(const CrowdAsset& asset) {
    const Bounds box = toWorld(asset.motion.poseBox, asset.axesToWorld);
    const glm::vec3 centre(asset.worldSphere);
    const float radius = std::max(asset.worldSphere.w, 1e-20f);
    std::vector<gpu::ImpostorView> out;
    for (uint32_t view = 0; view < kImpostorViews; ++view) {
        const float a = float(view % HORDE_IMPOSTOR_AZIMUTHS) * 2.0f * float(M_PI) / HORDE_IMPOSTOR_AZIMUTHS;
        const glm::vec3 back = impostorViewBack(view);
        const glm::vec3 right(std::cos(a), 0.0f, -std::sin(a)), up = glm::cross(back, right);
        glm::vec2 lo(1.0f), hi(-1.0f);
        for (int corner = 0; corner < 8; ++corner) {
            const glm::vec3 p =
                glm::vec3((corner & 1) ? box.max.x : box.min.x, (corner & 2) ? box.max.y : box.min.y,
                          (corner & 4) ? box.max.z : box.min.z) -
                centre;
            const glm::vec2 q(glm::dot(p, right) / radius, glm::dot(p, up) / radius);
            lo = glm::min(lo, q);
            hi = glm::max(hi, q);
        }
        gpu::ImpostorView v{};
        v.bounds = glm::vec4(glm::clamp(lo, -1.0f, 1.0f), glm::clamp(hi, -1.0f, 1.0f));
        v.coverage = view < asset.impostorCoverage.size() ? asset.impostorCoverage[view] : 1.0f;
        out.push_back(v);
    }
    return out;
}

VkImageSubresourceRange levels(uint32_t first, uint32_t count) {
    return {VK_IMAGE_ASPECT_COLOR_BIT, first, count, 0, kImpostorViews};
}

// The images one atlas's layers are drawn into, one layer at a time, at kImpostorBakeScale times
// the atlas's size, each then filtered down into its layer. Not multisampled: on lavapipe 22.3 a
// driver resolve before the crowd's first frame left every later draw about 15% slower for the
// life of the process (docs/PERFORMANCE.md, "Far crowds"); a filtered blit averages an sRGB colour
// in linear light, as the resolve did.
struct BakeTargets {
    Image color, normalDepth, depth;
    BakeTargets(Device& device, VkExtent2D extent)
        : color(device, extent, kImpostorColorFormat,
                VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, "impostor bake color"),
          normalDepth(device, extent, kImpostorNormalFormat,
                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                      VK_IMAGE_ASPECT_COLOR_BIT, "impostor bake normal and depth"),
          depth(device, extent, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                VK_IMAGE_ASPECT_DEPTH_BIT, "impostor bake depth") {}
};

// Each layer starts from cleared pixels; the previous layer's blit out of them must be done
// before they are written again.
void targetBarriers(VkCommandBuffer cmd, const BakeTargets& t) {
    for (const Image* image : {&t.color, &t.normalDepth})
        imageBarrier(cmd, image->get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    depthAttachmentBarrier(cmd, t.depth.get());
}

void beginLayer(VkCommandBuffer cmd, const BakeTargets& t) {
    const VkExtent2D extent = t.color.extent();
    VkRenderingAttachmentInfo attachments[2] = {{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO},
                                                {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO}};
    const VkImageView views[2] = {t.color.view(), t.normalDepth.view()};
    for (int a = 0; a < 2; ++a) {
        attachments[a].imageView = views[a];
        attachments[a].imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        attachments[a].loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        attachments[a].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        attachments[a].clearValue.color = {{0.0f, 0.0f, 0.0f, 0.0f}};
    }
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = t.depth.view();
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
    depth.clearValue.depthStencil = {1.0f, 0};
    VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
    rendering.renderArea = {{0, 0}, extent};
    rendering.layerCount = 1;
    rendering.colorAttachmentCount = 2;
    rendering.pColorAttachments = attachments;
    rendering.pDepthAttachment = &depth;
    vkCmdBeginRendering(cmd, &rendering);
    const VkViewport viewport{0, 0, float(extent.width), float(extent.height), 0, 1};
    const VkRect2D scissor{{0, 0}, extent};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdSetScissor(cmd, 0, 1, &scissor);
}

// Every tile's pose in one view: per mesh, per submesh at its bake level, one draw a run of played
// poses; the clips a crowd does not play have no tiles.
void drawLayer(VkCommandBuffer cmd, const Pipeline& bake, const CrowdModel& cm,
               const MaterialTable& materials, const ImpostorAtlases::Source& source,
               const ImpostorAtlases::Atlas& atlas, uint32_t view) {
    const CrowdAsset& asset = cm.asset();
    const std::span<const gpu::MaterialRecord> records =
        materials.modelRecords(source.materials, asset.materialSlots.size());
    const std::vector<CrowdAsset::PoseRun> runs = asset.playedPoses();
    for (uint32_t m = 0; m < asset.cullMeshes.size(); ++m) {
        const GpuMesh& mesh = cm.meshes()[m];
        vkCmdSetFrontFace(cmd, frontFace(asset, m));
        const gpu::CullLevel& level =
            asset.cullLevels[asset.cullMeshes[m].firstLevel + impostorBakeLevel(asset, m)];
        vkCmdBindIndexBuffer(cmd, cm.buffers().lodIndices[m].get(), 0, VK_INDEX_TYPE_UINT32);
        gpu::ImpostorBakePush push{};
        push.positions = mesh.positions;
        push.normals = mesh.normals;
        push.order = cm.buffers().lodOrder[m].address();
        push.joints = mesh.joints;
        push.weights = mesh.weights;
        push.palette = source.palette + VkDeviceAddress(asset.tables.meshJointBase[m]) * sizeof(gpu::Affine);
        push.uvs = mesh.uv0;
        push.materials = materials.records(source.materials);
        push.axes = cm.buffers().axes.address();
        push.sphere = asset.worldSphere;
        push.view = view;
        push.tilesPerRow = atlas.tilesPerRow;
        push.tileRows = atlas.tileRows;
        push.poseTiles = cm.buffers().poseTiles.address();
        push.jointCount = uint32_t(asset.tables.joints.size());
        push.extras = source.extras + VkDeviceAddress(m) * sizeof(gpu::MeshExtras);
        push.poseStride = asset.impostorStride;
        for (uint32_t s = level.firstSubmesh; s < level.firstSubmesh + level.submeshCount; ++s) {
            const gpu::LevelSubmesh& submesh = asset.levelSubmeshes[s];
            if (submesh.indexCount == 0) continue;
            const gpu::MaterialRecord& record = records[submesh.material];
            VkDescriptorSet set = materials.set(record.texture);
            vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, bake.layout(), 0, 1, &set, 0,
                                    nullptr);
            vkCmdSetCullMode(cmd, (record.flags & HORDE_MATERIAL_DOUBLE_SIDED) ? VK_CULL_MODE_NONE
                                                                               : VK_CULL_MODE_BACK_BIT);
            push.material = submesh.material;
            pushConstants(cmd, bake, push);
            // Instance i is pose i x stride: the first of each tile's poses.
            const uint32_t stride = asset.impostorStride;
            for (const CrowdAsset::PoseRun& run : runs)
                vkCmdDrawIndexed(cmd, submesh.indexCount, (run.count + stride - 1) / stride, submesh.firstIndex, 0,
                                 run.first / stride);
        }
    }
}

// The layer's pixels filtered down into layer `view` of the atlas's first level: each texel the
// mean of its kImpostorBakeScale x kImpostorBakeScale pixels (a linear filter at a texel's centre,
// which lies between them, for a scale of 2).
void filterLayer(VkCommandBuffer cmd, const BakeTargets& t, const ImpostorAtlases::Atlas& atlas,
                 uint32_t view) {
    static_assert(kImpostorBakeScale == 2, "one linear tap averages two pixels a side");
    const VkExtent2D extent = atlas.color.extent();
    for (const Image* image : {&t.color, &t.normalDepth})
        imageBarrier(cmd, image->get(), VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                     VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_2_BLIT_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT);
    VkImageBlit blit{};
    blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {int32_t(extent.width * kImpostorBakeScale),
                          int32_t(extent.height * kImpostorBakeScale), 1};
    blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, view, 1};
    blit.dstOffsets[1] = {int32_t(extent.width), int32_t(extent.height), 1};
    vkCmdBlitImage(cmd, t.color.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, atlas.color.get(),
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
    vkCmdBlitImage(cmd, t.normalDepth.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, atlas.normalDepth.get(),
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
}

// Each level of every layer averaged down from the one above: premultiplied values average truly.
void buildMips(VkCommandBuffer cmd, const Image& image) {
    const VkExtent2D extent = image.extent();
    for (uint32_t level = 1; level < kAtlasLevels; ++level) {
        imageBarrier(
            cmd, image.get(), levels(level - 1, 1), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
            VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        imageBarrier(cmd, image.get(), levels(level, 1), VK_IMAGE_LAYOUT_UNDEFINED,
                     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, 0,
                     VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkImageBlit blit{};
        blit.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level - 1, 0, kImpostorViews};
        blit.srcOffsets[1] = {int32_t(std::max(extent.width >> (level - 1), 1u)),
                              int32_t(std::max(extent.height >> (level - 1), 1u)), 1};
        blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, 0, kImpostorViews};
        blit.dstOffsets[1] = {int32_t(std::max(extent.width >> level, 1u)),
                              int32_t(std::max(extent.height >> level, 1u)), 1};
        vkCmdBlitImage(cmd, image.get(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image.get(),
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);
    }
    imageBarrier(cmd, image.get(), levels(0, kAtlasLevels - 1), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                 VK_ACCESS_2_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                 VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
    imageBarrier(cmd, image.get(), levels(kAtlasLevels - 1, 1), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT,
                 VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                 VK_ACCESS_2_SHADER_SAMPLED_READ_BIT);
}

} // namespace

ImpostorAtlases::ImpostorAtlases(Device& device)
    : device_(device),
      sampler_(device, "impostor atlas", VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_FILTER_LINEAR) {
    VkDescriptorSetLayoutBinding bindings[2] = {};
    for (uint32_t b = 0; b < 2; ++b) {
        bindings[b].binding = b;
        bindings[b].descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        bindings[b].descriptorCount = 1;
        bindings[b].stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT;
    }
    VkDescriptorSetLayoutCreateInfo info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    info.bindingCount = 2;
    info.pBindings = bindings;
    VK_CHECK(vkCreateDescriptorSetLayout(device.get(), &info, nullptr, &layout_));
    device.setName(layout_, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, "impostor atlas");
}

ImpostorAtlases::~ImpostorAtlases() {
    if (pool_) vkDestroyDescriptorPool(device_.get(), pool_, nullptr);
    vkDestroyDescriptorSetLayout(device_.get(), layout_, nullptr);
}

void ImpostorAtlases::bake(std::span<const Source> sources, const Pipeline& bake,
                           const MaterialTable& materials) {
    if (sources.empty()) return;
    const uint32_t count = uint32_t(sources.size());
    VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 2 * count};
    VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    poolInfo.maxSets = count;
    poolInfo.poolSizeCount = 1;
    poolInfo.pPoolSizes = &size;
    VK_CHECK(vkCreateDescriptorPool(device_.get(), &poolInfo, nullptr, &pool_));
    device_.setName(pool_, VK_OBJECT_TYPE_DESCRIPTOR_POOL, "impostor atlases");

    const VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    for (const Source& source : sources) {
        const uint32_t poses = source.model->asset().impostorTiles;
        Atlas& atlas = atlases_.emplace_back();
        atlas.tilesPerRow = uint32_t(std::ceil(std::sqrt(double(poses))));
        atlas.tileRows = (poses + atlas.tilesPerRow - 1) / atlas.tilesPerRow;
        const VkExtent2D extent{atlas.tilesPerRow * HORDE_IMPOSTOR_TILE,
                                atlas.tileRows * HORDE_IMPOSTOR_TILE};
        const std::string name =
            source.model->model().meshes.empty() ? "model" : source.model->model().meshes[0].name;
        atlas.color = Image(device_, extent, kImpostorColorFormat, usage, VK_IMAGE_ASPECT_COLOR_BIT,
                            "impostor colour " + name, kAtlasLevels, VK_SAMPLE_COUNT_1_BIT, kImpostorViews);
        atlas.normalDepth =
            Image(device_, extent, kImpostorNormalFormat, usage, VK_IMAGE_ASPECT_COLOR_BIT,
                  "impostor normal and depth " + name, kAtlasLevels, VK_SAMPLE_COUNT_1_BIT, kImpostorViews);
        atlas.views = uploadTable(device_, views(source.model->asset()), "impostor views " + name);
    }
    // One submission a model, each bounded by kImpostorTiles, with only its targets alive.
    for (uint32_t s = 0; s < count; ++s) {
        const Atlas& atlas = atlases_[s];
        const BakeTargets targets(device_, {atlas.color.extent().width * kImpostorBakeScale,
                                            atlas.color.extent().height * kImpostorBakeScale});
        device_.immediate([&](VkCommandBuffer cmd) {
            vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, bake.get());
            for (const Image* image : {&atlas.color, &atlas.normalDepth})
                imageBarrier(cmd, image->get(), levels(0, 1), VK_IMAGE_LAYOUT_UNDEFINED,
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_2_BLIT_BIT, 0,
                             VK_PIPELINE_STAGE_2_BLIT_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
            for (uint32_t view = 0; view < kImpostorViews; ++view) {
                targetBarriers(cmd, targets);
                beginLayer(cmd, targets);
                drawLayer(cmd, bake, *sources[s].model, materials, sources[s], atlas, view);
                vkCmdEndRendering(cmd);
                filterLayer(cmd, targets, atlas, view);
            }
            buildMips(cmd, atlas.color);
            buildMips(cmd, atlas.normalDepth);
        });
    }

    std::vector<VkDescriptorSetLayout> layouts(count, layout_);
    std::vector<VkDescriptorSet> sets(count);
    VkDescriptorSetAllocateInfo allocate{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    allocate.descriptorPool = pool_;
    allocate.descriptorSetCount = count;
    allocate.pSetLayouts = layouts.data();
    VK_CHECK(vkAllocateDescriptorSets(device_.get(), &allocate, sets.data()));
    std::vector<VkDescriptorImageInfo> images;
    images.reserve(2 * count);
    std::vector<VkWriteDescriptorSet> writes;
    for (uint32_t s = 0; s < count; ++s) {
        atlases_[s].set = sets[s];
        device_.setName(sets[s], VK_OBJECT_TYPE_DESCRIPTOR_SET, "impostor atlas");
        for (uint32_t b = 0; b < 2; ++b) {
            const Image& image = b == 0 ? atlases_[s].color : atlases_[s].normalDepth;
            images.push_back({sampler_.get(), image.view(), VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
            VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
            write.dstSet = sets[s];
            write.dstBinding = b;
            write.descriptorCount = 1;
            write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
            write.pImageInfo = &images.back();
            writes.push_back(write);
        }
    }
    vkUpdateDescriptorSets(device_.get(), uint32_t(writes.size()), writes.data(), 0, nullptr);
}

} // namespace horde
