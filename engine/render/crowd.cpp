#include "render/crowd.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "anim/reference.h"
#include "render/view.h"
#include "shaders/spirv.h"
#include "vk/check.h"
#include "vk/device.h"
#include "vk/gpu_mesh.h"

namespace horde {

namespace {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkBufferUsageFlags kStorage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                        VK_BUFFER_USAGE_TRANSFER_DST_BIT;

// Small integer hash: deterministic variety without a random engine.
uint32_t hash(uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}
float unit(uint32_t x) { return float(hash(x) & 0xFFFFFF) / float(0x1000000); }

glm::vec4 materialColor(const std::string& name) {
    static constexpr glm::vec3 palette[] = {{0.80f, 0.42f, 0.30f}, {0.45f, 0.62f, 0.35f}, {0.85f, 0.75f, 0.45f},
                                            {0.40f, 0.50f, 0.78f}, {0.70f, 0.45f, 0.70f}, {0.35f, 0.70f, 0.70f},
                                            {0.75f, 0.75f, 0.72f}, {0.55f, 0.40f, 0.30f}};
    uint32_t h = 2166136261u;
    for (char c : name) h = (h ^ uint8_t(c)) * 16777619u;
    return glm::vec4(palette[h % 8], 1.0f);
}

template <class T> Buffer uploadTable(Device& device, const std::vector<T>& data, const char* name) {
    VkDeviceSize size = std::max<VkDeviceSize>(data.size() * sizeof(T), 16);
    MemoryUse use = device.unifiedMemory() ? MemoryUse::Direct : MemoryUse::Device;
    Buffer buffer(device, size, kStorage, use, name);
    if (data.empty()) return buffer;
    if (buffer.mapped()) {
        std::memcpy(buffer.mapped(), data.data(), data.size() * sizeof(T));
        return buffer;
    }
    Buffer staging(device, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "staging");
    std::memcpy(staging.mapped(), data.data(), data.size() * sizeof(T));
    device.immediate([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, size};
        vkCmdCopyBuffer(cmd, staging.get(), buffer.get(), 1, &region);
    });
    return buffer;
}

} // namespace

std::vector<std::vector<gpu::InstanceRecord>> mixedGrid(std::span<const Model* const> models, uint32_t count,
                                                        uint32_t seed) {
    // Rows and columns spaced by the largest model's width and depth, with room to turn a little.
    float spacingX = 1e-3f, spacingZ = 1e-3f;
    for (const Model* model : models) {
        Bounds world = toWorld(bindPoseBounds(*model), axesToWorld(model->axes));
        glm::vec3 size = world.max - world.min;
        spacingX = std::max(spacingX, size.x * 1.3f);
        spacingZ = std::max(spacingZ, size.z * 1.1f);
    }
    // About as deep as wide, so the crowd fills a framed view.
    uint32_t columns = std::clamp(uint32_t(std::ceil(std::sqrt(double(count) * spacingZ / spacingX))), 1u, std::max(count, 1u));
    uint32_t rows = (count + columns - 1) / columns;
    std::vector<std::vector<gpu::InstanceRecord>> out(models.size());
    for (uint32_t i = 0; i < count; ++i) {
        const Model& model = *models[i % models.size()];
        gpu::InstanceRecord r{};
        uint32_t h = hash(i * 4u + seed * 7919u);
        bool animated = !model.clips.empty();
        r.clip = animated ? h % uint32_t(model.clips.size()) : HORDE_NONE;
        float duration = animated ? model.clips[r.clip].duration : 0.0f;
        r.phase = count == 1 ? 0.0f : unit(h + 1) * duration;
        r.speed = count == 1 ? 1.0f : 0.8f + 0.4f * unit(h + 2);
        r.loop = 1;
        float x = (float(i % columns) - float(columns - 1) * 0.5f) * spacingX;
        float z = (float(i / columns) - float(rows - 1) * 0.5f) * spacingZ;
        float yaw = count == 1 ? 0.0f : (unit(h + 3) - 0.5f) * 0.8f;
        r.placement = glm::vec4(x, 0.0f, z, yaw);
        float shade = count == 1 ? 1.0f : 0.85f + 0.3f * unit(h + 4);
        r.tint = glm::vec4(shade, shade, shade, 1.0f);
        out[i % models.size()].push_back(r);
    }
    return out;
}

std::vector<gpu::InstanceRecord> gridInstances(const Model& model, uint32_t count, uint32_t seed) {
    const Model* one = &model;
    return std::move(mixedGrid(std::span(&one, 1), count, seed)[0]);
}

CrowdRenderer::CrowdRenderer(Device& device, Model& model, std::vector<gpu::InstanceRecord> instances,
                             Technique technique, uint32_t slots, VkFormat colorFormat, uint64_t maxChunkBytes)
    : device_(device), model_(model), technique_(technique), tables_(buildAnimationTables(model)),
      instances_(std::move(instances)), axesToWorld_(axesToWorld(model.axes)),
      clockwise_(frontFaceClockwise(model.axes)) {
    for (Mesh& mesh : model.meshes) {
        gpuStorage(device, mesh);
        for (const Submesh& s : mesh.submeshes) materialColors_.push_back(materialColor(s.material));
    }

    // The crowd's extent: the model's bind bounds around every placement, with room to move.
    Bounds model_world = toWorld(bindPoseBounds(model), axesToWorld_);
    float reach = glm::length(glm::vec2(std::max(std::abs(model_world.min.x), std::abs(model_world.max.x)),
                                        std::max(std::abs(model_world.min.z), std::abs(model_world.max.z))));
    worldBounds_ = {glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (const gpu::InstanceRecord& r : instances_) {
        glm::vec3 p(r.placement);
        worldBounds_.min = glm::min(worldBounds_.min, p + glm::vec3(-reach, model_world.min.y, -reach));
        worldBounds_.max = glm::max(worldBounds_.max, p + glm::vec3(reach, model_world.max.y, reach));
    }
    if (instances_.empty()) worldBounds_ = model_world;

    // Chunks keep every per-frame buffer within the device's storage buffer range.
    uint64_t limit = std::min<uint64_t>(device.properties().limits.maxStorageBufferRange, 1ull << 30);
    if (maxChunkBytes) limit = std::min(limit, maxChunkBytes);
    uint64_t perInstance = 1;
    perInstance = std::max<uint64_t>(perInstance, uint64_t(model.nodes.size()) * sizeof(gpu::Affine));
    perInstance = std::max<uint64_t>(perInstance, uint64_t(tables_.joints.size()) * sizeof(gpu::Affine));
    if (technique_ == Technique::Compute)
        for (const Mesh& mesh : model.meshes)
            perInstance = std::max<uint64_t>(perInstance, uint64_t(mesh.vertexCount()) * sizeof(glm::vec4));
    uint32_t capacity = uint32_t(std::clamp<uint64_t>(limit / perInstance, 1, 1u << 30));
    for (uint32_t first = 0; first < instances_.size(); first += capacity)
        chunks_.push_back({first, std::min<uint32_t>(capacity, uint32_t(instances_.size()) - first)});

    // Refuse a crowd that cannot fit before allocating any of it: a clean error, not a driver
    // out-of-memory halfway through (or the host's OOM killer on a CPU driver).
    VkDeviceSize heap = 0;
    for (uint32_t h = 0; h < device.memory().memoryHeapCount; ++h)
        if (device.memory().memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            heap = std::max(heap, device.memory().memoryHeaps[h].size);
    uint64_t needed = uint64_t(slots) * instances_.size() * bytesPerInstance();
    if (needed > heap)
        throw VulkanError("a crowd of " + std::to_string(instances_.size()) + " needs " + std::to_string(needed >> 20) +
                              " MiB of per-frame buffers; the device heap has " + std::to_string(heap >> 20) + " MiB",
                          VK_ERROR_OUT_OF_DEVICE_MEMORY);

    instanceBuffer_ = uploadTable(device, instances_, "crowd instances");
    restBuffer_ = uploadTable(device, tables_.rest, "node rest transforms");
    clipBuffer_ = uploadTable(device, tables_.clips, "clips");
    tableBuffer_ = uploadTable(device, tables_.channelTable, "clip channel table");
    channelBuffer_ = uploadTable(device, tables_.channels, "channels");
    timeBuffer_ = uploadTable(device, tables_.times, "key times");
    valueBuffer_ = uploadTable(device, tables_.values, "key values");
    jointBuffer_ = uploadTable(device, tables_.joints, "joints");

    slots_.resize(slots);
    for (uint32_t s = 0; s < slots; ++s) {
        Slot& slot = slots_[s];
        std::string tag = " (slot " + std::to_string(s) + ")";
        slot.globals = Buffer(device, sizeof(gpu::FrameGlobals), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              MemoryUse::Upload, "frame globals" + tag);
        for (const Chunk& chunk : chunks_) {
            ChunkBuffers b;
            b.locals = Buffer(device, std::max<uint64_t>(uint64_t(chunk.count) * model.nodes.size() * sizeof(gpu::Affine), 16),
                              kStorage, MemoryUse::Device, "locals" + tag);
            b.palette = Buffer(device, std::max<uint64_t>(uint64_t(chunk.count) * tables_.joints.size() * sizeof(gpu::Affine), 16),
                               kStorage, MemoryUse::Device, "palette" + tag);
            if (technique_ == Technique::Compute) {
                for (const Mesh& mesh : model.meshes) {
                    uint64_t n = std::max<uint64_t>(uint64_t(chunk.count) * mesh.vertexCount(), 1);
                    b.positions.emplace_back(device, n * sizeof(glm::vec3), kStorage, MemoryUse::Device, "skinned positions " + mesh.name + tag);
                    b.normals.emplace_back(device, n * sizeof(glm::vec3), kStorage, MemoryUse::Device, "skinned normals " + mesh.name + tag);
                    b.tangents.emplace_back(device, mesh.layout().tangents ? n * sizeof(glm::vec4) : 16, kStorage,
                                            MemoryUse::Device, "skinned tangents " + mesh.name + tag);
                }
            }
            slot.chunks.push_back(std::move(b));
        }
        VkQueryPoolCreateInfo query{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        query.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query.queryCount = kQueries;
        VK_CHECK(vkCreateQueryPool(device.get(), &query, nullptr, &slot.queries));
        device.setName(slot.queries, VK_OBJECT_TYPE_QUERY_POOL, "pass timestamps" + tag);
    }

    samplePipeline_ = createComputePipeline(device, spirv::sample_comp(), sizeof(gpu::SamplePush), "sample");
    posePipeline_ = createComputePipeline(device, spirv::pose_comp(), sizeof(gpu::PosePush), "pose");
    skinPipeline_ = createComputePipeline(device, spirv::skin_comp(), sizeof(gpu::SkinPush), "skin");
    GraphicsPipelineInfo draw;
    draw.vertex = technique_ == Technique::Compute ? spirv::draw_skinned_vert() : spirv::draw_palette_vert();
    draw.fragment = spirv::draw_frag();
    draw.pushSize = sizeof(gpu::DrawPush);
    draw.colorFormat = colorFormat;
    draw.depthFormat = kDepthFormat;
    drawPipeline_ = createGraphicsPipeline(device, draw, technique_ == Technique::Compute ? "draw skinned" : "draw palette");
}

CrowdRenderer::~CrowdRenderer() {
    for (Slot& slot : slots_)
        if (slot.queries) vkDestroyQueryPool(device_.get(), slot.queries, nullptr);
}

VkDeviceAddress CrowdRenderer::instanceAddress(const Chunk& chunk) const {
    return instanceBuffer_.address() + VkDeviceAddress(chunk.first) * sizeof(gpu::InstanceRecord);
}

uint64_t CrowdRenderer::skinnedVerticesPerFrame() const {
    uint64_t vertices = 0;
    for (const Mesh& mesh : model_.meshes) vertices += mesh.vertexCount();
    return vertices * instances_.size();
}

uint64_t CrowdRenderer::bytesPerInstance() const {
    uint64_t bytes = (model_.nodes.size() + tables_.joints.size()) * sizeof(gpu::Affine);
    if (technique_ == Technique::Compute)
        for (const Mesh& mesh : model_.meshes)
            bytes += uint64_t(mesh.vertexCount()) * (2 * sizeof(glm::vec3) + (mesh.layout().tangents ? sizeof(glm::vec4) : 0));
    return bytes;
}

void CrowdRenderer::recordSample(VkCommandBuffer cmd, uint32_t slotIndex, float time) {
    Slot& slot = slots_[slotIndex];
    const uint32_t nodeCount = uint32_t(model_.nodes.size());
    for (size_t c = 0; c < chunks_.size(); ++c) {
        gpu::SamplePush push{};
        push.instances = instanceAddress(chunks_[c]);
        push.clips = clipBuffer_.address();
        push.channelTable = tableBuffer_.address();
        push.channels = channelBuffer_.address();
        push.times = timeBuffer_.address();
        push.values = valueBuffer_.address();
        push.rest = restBuffer_.address();
        push.locals = slot.chunks[c].locals.address();
        push.time = time;
        push.nodeCount = nodeCount;
        push.instanceCount = chunks_[c].count;
        dispatch(cmd, samplePipeline_, push, uint64_t(nodeCount) * chunks_[c].count);
    }
}

void CrowdRenderer::recordPose(VkCommandBuffer cmd, uint32_t slotIndex) {
    Slot& slot = slots_[slotIndex];
    const uint32_t jointCount = uint32_t(tables_.joints.size());
    for (size_t c = 0; c < chunks_.size(); ++c) {
        gpu::PosePush push{};
        push.rest = restBuffer_.address();
        push.locals = slot.chunks[c].locals.address();
        push.joints = jointBuffer_.address();
        push.palette = slot.chunks[c].palette.address();
        push.nodeCount = uint32_t(model_.nodes.size());
        push.jointCount = jointCount;
        push.instanceCount = chunks_[c].count;
        dispatch(cmd, posePipeline_, push, uint64_t(jointCount) * chunks_[c].count);
    }
}

void CrowdRenderer::recordSkin(VkCommandBuffer cmd, uint32_t slotIndex) {
    if (technique_ != Technique::Compute) return;
    Slot& slot = slots_[slotIndex];
    for (size_t c = 0; c < chunks_.size(); ++c) {
        for (size_t m = 0; m < model_.meshes.size(); ++m) {
            const Mesh& mesh = model_.meshes[m];
            const auto& gpu = static_cast<const GpuMeshStorage&>(*mesh.storage);
            gpu::SkinPush push{};
            push.positions = gpu.address(gpu.offsets.positions);
            push.normals = gpu.address(gpu.offsets.normals);
            push.tangents = mesh.layout().tangents ? gpu.address(gpu.offsets.tangents) : 0;
            push.joints = mesh.skinned() ? gpu.address(gpu.offsets.joints) : 0;
            push.weights = mesh.skinned() ? gpu.address(gpu.offsets.weights) : 0;
            push.palette = slot.chunks[c].palette.address();
            push.outPositions = slot.chunks[c].positions[m].address();
            push.outNormals = slot.chunks[c].normals[m].address();
            push.outTangents = slot.chunks[c].tangents[m].address();
            push.vertexCount = mesh.vertexCount();
            push.jointBase = tables_.meshJointBase[m];
            push.jointCount = uint32_t(tables_.joints.size());
            push.instanceCount = chunks_[c].count;
            dispatch(cmd, skinPipeline_, push, uint64_t(mesh.vertexCount()) * chunks_[c].count);
        }
    }
}

namespace {
// Every crowd's pass N finishes before any crowd's pass N+1 reads it.
void passBarrier(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}
} // namespace

void CrowdRenderer::recordAnimation(VkCommandBuffer cmd, uint32_t slot, float time) {
    recordSample(cmd, slot, time);
    passBarrier(cmd);
    recordPose(cmd, slot);
    passBarrier(cmd);
    recordSkin(cmd, slot);
    passBarrier(cmd);
}

void CrowdRenderer::recordFrame(VkCommandBuffer cmd, uint32_t slot, float time, const RenderTarget& target,
                                const glm::mat4& viewProjection) {
    CrowdRenderer* self = this;
    recordFrame(cmd, slot, std::span(&self, 1), time, target, viewProjection);
}

void CrowdRenderer::recordFrame(VkCommandBuffer cmd, uint32_t slot, std::span<CrowdRenderer* const> crowds, float time,
                                const RenderTarget& target, const glm::mat4& viewProjection) {
    VkQueryPool queries = crowds[0]->slots_[slot].queries;
    auto stamp = [&](uint32_t index) { vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, index); };
    vkCmdResetQueryPool(cmd, queries, 0, kQueries);
    stamp(0);
    for (CrowdRenderer* crowd : crowds) crowd->recordSample(cmd, slot, time);
    passBarrier(cmd);
    stamp(1);
    for (CrowdRenderer* crowd : crowds) crowd->recordPose(cmd, slot);
    passBarrier(cmd);
    stamp(2);
    for (CrowdRenderer* crowd : crowds) crowd->recordSkin(cmd, slot);
    passBarrier(cmd);
    stamp(3);
    beginTarget(cmd, target);
    for (CrowdRenderer* crowd : crowds) crowd->recordDraw(cmd, slot, viewProjection);
    endTarget(cmd, target);
    stamp(4);
    crowds[0]->slots_[slot].used = true;
}

void CrowdRenderer::beginTarget(VkCommandBuffer cmd, const RenderTarget& target) {
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    imageBarrier(cmd, target.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                 VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);

    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target.colorView;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    color.clearValue.color = {{0.09f, 0.10f, 0.12f, 1.0f}};
    VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    depth.imageView = target.depthView;
    depth.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
    depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
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
}

void CrowdRenderer::endTarget(VkCommandBuffer cmd, const RenderTarget& target) {
    vkCmdEndRendering(cmd);
    if (target.colorLayoutAfter == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL) return;
    bool present = target.colorLayoutAfter == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 target.colorLayoutAfter, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, present ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                 present ? VK_ACCESS_2_NONE : VK_ACCESS_2_TRANSFER_READ_BIT);
}

void CrowdRenderer::recordDraw(VkCommandBuffer cmd, uint32_t slotIndex, const glm::mat4& viewProjection) {
    Slot& slot = slots_[slotIndex];
    gpu::FrameGlobals globals{};
    globals.viewProjection = viewProjection;
    globals.modelToWorld = axesToWorld_;
    globals.lightDirection = glm::vec4(glm::normalize(glm::vec3(-0.4f, -0.8f, -0.45f)), 0.0f);
    std::memcpy(slot.globals.mapped(), &globals, sizeof(globals));

    vkCmdSetCullMode(cmd, VK_CULL_MODE_BACK_BIT);
    vkCmdSetFrontFace(cmd, clockwise_ ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, drawPipeline_.get());
    for (size_t c = 0; c < chunks_.size(); ++c) {
        size_t colorIndex = 0;
        for (size_t m = 0; m < model_.meshes.size(); ++m) {
            const Mesh& mesh = model_.meshes[m];
            const auto& gpu = static_cast<const GpuMeshStorage&>(*mesh.storage);
            gpu::DrawPush push{};
            push.globals = slot.globals.address();
            push.instances = instanceAddress(chunks_[c]);
            if (technique_ == Technique::Compute) {
                push.positions = slot.chunks[c].positions[m].address();
                push.normals = slot.chunks[c].normals[m].address();
            } else {
                push.positions = gpu.address(gpu.offsets.positions);
                push.normals = gpu.address(gpu.offsets.normals);
                push.joints = mesh.skinned() ? gpu.address(gpu.offsets.joints) : 0;
                push.weights = mesh.skinned() ? gpu.address(gpu.offsets.weights) : 0;
                push.palette = slot.chunks[c].palette.address();
                push.skinned = mesh.skinned() ? 1u : 0u;
            }
            push.vertexCount = mesh.vertexCount();
            push.jointBase = tables_.meshJointBase[m];
            push.jointCount = uint32_t(tables_.joints.size());
            vkCmdBindIndexBuffer(cmd, gpu.buffer().get(), gpu.offsets.indices,
                                 mesh.layout().index16 ? VK_INDEX_TYPE_UINT16 : VK_INDEX_TYPE_UINT32);
            for (const Submesh& submesh : mesh.submeshes) {
                push.color = materialColors_[colorIndex++];
                pushConstants(cmd, drawPipeline_, push);
                vkCmdDrawIndexed(cmd, submesh.indexCount, chunks_[c].count, submesh.firstIndex, 0, 0);
            }
        }
    }
}

std::optional<PassTimes> CrowdRenderer::passTimes(uint32_t slotIndex) const {
    const Slot& slot = slots_[slotIndex];
    if (!slot.used) return std::nullopt;
    uint64_t stamps[kQueries];
    VkResult r = vkGetQueryPoolResults(device_.get(), slot.queries, 0, kQueries, sizeof(stamps), stamps,
                                       sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
    if (r != VK_SUCCESS) return std::nullopt;
    double period = device_.properties().limits.timestampPeriod * 1e-6;
    PassTimes t;
    t.sampleMs = double(stamps[1] - stamps[0]) * period;
    t.poseMs = double(stamps[2] - stamps[1]) * period;
    t.skinMs = double(stamps[3] - stamps[2]) * period;
    t.drawMs = double(stamps[4] - stamps[3]) * period;
    return t;
}

std::vector<uint8_t> CrowdRenderer::readBuffer(const Buffer& buffer, VkDeviceSize size) {
    Buffer readback(device_, std::max<VkDeviceSize>(size, 16), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "readback");
    device_.immediate([&](VkCommandBuffer cmd) {
        VkBufferCopy region{0, 0, size};
        vkCmdCopyBuffer(cmd, buffer.get(), readback.get(), 1, &region);
        barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                VK_ACCESS_2_HOST_READ_BIT);
    });
    std::vector<uint8_t> bytes(size);
    std::memcpy(bytes.data(), readback.mapped(), size);
    return bytes;
}

namespace {
template <class T> std::vector<T> castBytes(const std::vector<uint8_t>& bytes) {
    std::vector<T> out(bytes.size() / sizeof(T));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
}
} // namespace

std::vector<gpu::Affine> CrowdRenderer::readLocals(uint32_t slot) {
    std::vector<gpu::Affine> out;
    for (size_t c = 0; c < chunks_.size(); ++c) {
        auto part = castBytes<gpu::Affine>(
            readBuffer(slots_[slot].chunks[c].locals, uint64_t(chunks_[c].count) * model_.nodes.size() * sizeof(gpu::Affine)));
        out.insert(out.end(), part.begin(), part.end());
    }
    return out;
}

std::vector<gpu::Affine> CrowdRenderer::readPalette(uint32_t slot) {
    std::vector<gpu::Affine> out;
    for (size_t c = 0; c < chunks_.size(); ++c) {
        auto part = castBytes<gpu::Affine>(
            readBuffer(slots_[slot].chunks[c].palette, uint64_t(chunks_[c].count) * tables_.joints.size() * sizeof(gpu::Affine)));
        out.insert(out.end(), part.begin(), part.end());
    }
    return out;
}

std::vector<glm::vec3> CrowdRenderer::readSkinned(uint32_t slot, uint32_t mesh, bool normals) {
    std::vector<glm::vec3> out;
    if (technique_ != Technique::Compute) return out;
    uint64_t vertices = model_.meshes[mesh].vertexCount();
    for (size_t c = 0; c < chunks_.size(); ++c) {
        const ChunkBuffers& b = slots_[slot].chunks[c];
        auto part = castBytes<glm::vec3>(readBuffer(normals ? b.normals[mesh] : b.positions[mesh],
                                                    chunks_[c].count * vertices * sizeof(glm::vec3)));
        out.insert(out.end(), part.begin(), part.end());
    }
    return out;
}

} // namespace horde
