#include "render/crowd_scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "anim/cull_reference.h"
#include "shaders/spirv.h"
#include "vk/check.h"
#include "vk/device.h"
#include "vk/gpu_mesh.h"

namespace horde {

namespace {

constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkBufferUsageFlags kIndirect = kStorageUsage | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
constexpr uint32_t kCommandBytes = sizeof(VkDrawIndexedIndirectCommand);

// Every compute pass's writes reach every later pass, indirect argument and vertex read.
void passBarrier(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

template <class T> const T* as(const Buffer& b) { return static_cast<const T*>(b.mapped()); }

// A direct dispatch of `invocations` in rows of at most `limit` workgroups (flatInvocation()),
// as plan.comp sizes the indirect ones.
template <class Push>
void dispatchRows(VkCommandBuffer cmd, const Pipeline& pipeline, const Push& push, uint64_t invocations, uint32_t limit) {
    const uint64_t groups = (invocations + HORDE_WORKGROUP - 1) / HORDE_WORKGROUP;
    if (groups == 0) return;
    const uint32_t x = uint32_t(std::min<uint64_t>(groups, limit));
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
    pushConstants(cmd, pipeline, push);
    vkCmdDispatch(cmd, x, uint32_t((groups + x - 1) / x), 1);
}

// Brute force skins and draws its crowd in chunks of instances through one pool of the vertex
// budget: all the work every frame, in memory that does not grow with the crowd. A chunk holds
// a whole number of every mesh's level-0 batch, so no drawn instance straddles two chunks.
uint32_t bruteChunk(const CrowdModel& cm, uint32_t count, uint64_t vertexBudget) {
    uint32_t align = 1;
    for (const gpu::CullMesh& mesh : cm.cullMeshes()) align = std::lcm(align, cm.cullLevels()[mesh.firstLevel].batch);
    const uint64_t fit = vertexBudget / std::max(cm.levelVertexStride(), 1u) / align * align;
    return uint32_t(std::min<uint64_t>(count, std::max<uint64_t>(fit, align)));
}

// Sample and pose over pose slots [firstSlot, firstSlot + counters[countIndex]), slot s animating
// instance poseInstances[s - firstSlot]: the shared poses once, the own poses every frame.
struct PoseSlots {
    VkDeviceAddress instances, poseInstances, counters;
    uint32_t countIndex, firstSlot;
};

gpu::SamplePush samplePush(const CrowdModel& cm, const PoseSlots& slots, VkDeviceAddress locals, float time) {
    gpu::SamplePush push{};
    push.instances = slots.instances;
    push.poseInstances = slots.poseInstances;
    push.clips = cm.buffers().clips.address();
    push.channelTable = cm.buffers().channelTable.address();
    push.channels = cm.buffers().channels.address();
    push.times = cm.buffers().times.address();
    push.values = cm.buffers().values.address();
    push.rest = cm.buffers().rest.address();
    push.locals = locals;
    push.counters = slots.counters;
    push.time = time;
    push.nodeCount = uint32_t(cm.tables().rest.size());
    push.countIndex = slots.countIndex;
    push.firstSlot = slots.firstSlot;
    return push;
}

gpu::PosePush posePush(const CrowdModel& cm, const PoseSlots& slots, VkDeviceAddress locals, VkDeviceAddress palette) {
    gpu::PosePush push{};
    push.rest = cm.buffers().rest.address();
    push.locals = locals;
    push.joints = cm.buffers().joints.address();
    push.palette = palette;
    push.counters = slots.counters;
    push.nodeCount = uint32_t(cm.tables().rest.size());
    push.jointCount = uint32_t(cm.tables().joints.size());
    push.countIndex = slots.countIndex;
    push.firstSlot = slots.firstSlot;
    return push;
}

} // namespace

// One model's share of the crowd: its instances and, per frame slot, its working buffers.
struct CrowdScene::Part {
    const CrowdModel* model = nullptr;
    std::vector<gpu::InstanceRecord> instances;
    Buffer instanceBuffer;
    uint32_t poseCapacity = 0, jobCapacity = 0, sharedCount = 0;
    uint32_t chunkInstances = 0; // brute force: instances per skin-and-draw chunk
    uint64_t vertexCapacity = 0;
    // Brute force in chunks: each level-0 submesh's draw record (the chunk's draws are direct).
    struct ChunkDraw {
        uint32_t mesh, material, firstIndex, indexCount, batch, list;
    };
    std::vector<ChunkDraw> chunkDraws;
    Buffer chunkDrawInfo;
    uint32_t counterCount = 0;
    struct PerSlot {
        Buffer frame, counters, entries, sharedRequests, sharedOffsets, jobs, poseInstances, dispatches, draws, drawInfo,
            locals, palette, positions, normals, worlds;
    };
    std::vector<PerSlot> slots;
    uint32_t meshCount() const { return uint32_t(model->model().meshes.size()); }
    uint32_t materialCount() const { return uint32_t(model->materialSlots().size()); }
    uint32_t listCount() const { return model->listCount(); }
};

CrowdScene::CrowdScene(Device& device, std::span<const CrowdModel* const> models,
                       std::vector<std::vector<gpu::InstanceRecord>> instances, const CrowdSettings& settings)
    : device_(device), settings_(settings) {
    const bool lod = settings.lod, pool = settings.technique == Technique::Compute;
    const bool brute = !lod && !settings.cull;
    const VkDeviceSize allocationLimit = device.maxAllocationSize();
    VkDeviceSize heap = 0;
    for (uint32_t h = 0; h < device.memory().memoryHeapCount; ++h)
        if (device.memory().memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            heap = std::max(heap, device.memory().memoryHeaps[h].size);

    // Size every buffer before allocating any: a crowd that cannot fit is a clean error, not a
    // driver out-of-memory halfway through (or the host's OOM killer on a CPU driver).
    struct Plan {
        VkDeviceSize bytes;
        std::string what;
    };
    std::vector<Plan> plans;
    for (size_t m = 0; m < models.size(); ++m) {
        if (instances[m].empty()) continue;
        Part part;
        part.model = models[m];
        part.instances = std::move(instances[m]);
        const uint32_t count = uint32_t(part.instances.size());
        const CrowdModel& cm = *part.model;
        part.poseCapacity = lod ? std::min(count, settings.poseBudget) : count;
        part.sharedCount = cm.sharedPoses() * part.meshCount() * HORDE_MAX_LEVELS;
        part.jobCapacity = part.poseCapacity + (lod ? cm.sharedPoses() : 0);
        part.chunkInstances = brute && pool ? bruteChunk(cm, count, settings.vertexBudget) : count;
        part.vertexCapacity = lod ? std::min<uint64_t>(settings.vertexBudget,
                                                       uint64_t(part.poseCapacity + cm.sharedPoses()) * cm.levelVertexStride())
                                  : uint64_t(part.chunkInstances) * cm.levelVertexStride();
        chunked_ |= part.chunkInstances < count;
        if (!pool) part.vertexCapacity = 0;
        part.counterCount = HORDE_COUNT_HEADER + part.materialCount() + 2 * part.listCount();
        uint64_t poses = uint64_t(cm.sharedPoses()) + part.poseCapacity;
        plans.push_back({poses * cm.tables().rest.size() * sizeof(gpu::Affine), "local transforms"});
        plans.push_back({poses * cm.tables().joints.size() * sizeof(gpu::Affine), "palettes"});
        plans.push_back({part.vertexCapacity * sizeof(glm::vec3), "skinned positions"});
        plans.push_back({part.vertexCapacity * sizeof(glm::vec3), "skinned normals"});
        plans.push_back({uint64_t(part.listCount()) * count * sizeof(gpu::DrawEntry), "draw lists"});
        plans.push_back({uint64_t(count) * sizeof(gpu::Affine), "instance transforms"});
        plans.push_back({uint64_t(part.listCount()) * part.jobCapacity * sizeof(gpu::SkinJob), "skin jobs"});
        parts_.push_back(std::move(part));
    }
    uint64_t total = 0;
    for (const Plan& p : plans) {
        total += p.bytes * settings.slots;
        if (p.bytes > allocationLimit)
            throw VulkanError("a crowd of " + std::to_string(instanceCount()) + " needs " + std::to_string(p.bytes >> 20) +
                                  " MiB of " + p.what + " in one buffer; the device allows " +
                                  std::to_string(allocationLimit >> 20) + " MiB (turn LOD on, or fewer instances)",
                              VK_ERROR_OUT_OF_DEVICE_MEMORY);
    }
    if (total > heap)
        throw VulkanError("a crowd of " + std::to_string(instanceCount()) + " needs " + std::to_string(total >> 20) +
                              " MiB of per-frame buffers; the device heap has " + std::to_string(heap >> 20) + " MiB",
                          VK_ERROR_OUT_OF_DEVICE_MEMORY);
    slotBytes_ = total / std::max(settings.slots, 1u);

    // The crowd's extent: every placement with its model's every-pose sphere.
    worldBounds_ = {glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (Part& part : parts_) {
        glm::vec4 s = part.model->worldSphere();
        for (const gpu::InstanceRecord& r : part.instances) {
            glm::vec3 p(r.placement);
            float c = std::cos(r.placement.w), sn = std::sin(r.placement.w);
            glm::vec3 centre = glm::vec3(c * s.x + sn * s.z, s.y, -sn * s.x + c * s.z) + p;
            worldBounds_.min = glm::min(worldBounds_.min, centre - glm::vec3(s.w));
            worldBounds_.max = glm::max(worldBounds_.max, centre + glm::vec3(s.w));
        }
        part.instanceBuffer = uploadTable(device, part.instances, "crowd instances");
        if (chunked_) buildChunkDraws(part);
    }
    if (parts_.empty()) worldBounds_ = {glm::vec3(-1.0f), glm::vec3(1.0f)};
    groundHeight_ = parts_.empty() ? 0.0f : 1e30f;
    for (const Part& part : parts_) {
        const Bounds& bind = part.model->worldBindBounds();
        groundHeight_ = std::min(groundHeight_, bind.min.y);
        modelHeight_ = std::max(modelHeight_, bind.max.y - bind.min.y);
    }

    slots_.resize(settings.slots);
    for (uint32_t s = 0; s < settings.slots; ++s) {
        std::string tag = " (slot " + std::to_string(s) + ")";
        Slot& slot = slots_[s];
        slot.globals = Buffer(device, sizeof(gpu::FrameGlobals), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryUse::Upload,
                              "frame globals" + tag);
        uint64_t countBytes = 16;
        for (const Part& part : parts_) countBytes += uint64_t(part.counterCount) * 4;
        slot.countsReadback = Buffer(device, countBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback,
                                     "crowd counts readback" + tag);
        VkQueryPoolCreateInfo query{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        query.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query.queryCount = queryCount();
        slot.stamps.resize(queryCount());
        VK_CHECK(vkCreateQueryPool(device.get(), &query, nullptr, &slot.queries));
        device.setName(slot.queries, VK_OBJECT_TYPE_QUERY_POOL, "pass timestamps" + tag);
    }
    for (Part& part : parts_) {
        const CrowdModel& cm = *part.model;
        const uint32_t count = uint32_t(part.instances.size());
        const std::string name = " " + (cm.model().meshes.empty() ? std::string("model") : cm.model().meshes[0].name);
        for (uint32_t s = 0; s < settings.slots; ++s) {
            std::string tag = name + " (slot " + std::to_string(s) + ")";
            Part::PerSlot b;
            auto storage = [&](VkDeviceSize bytes, const std::string& what, VkBufferUsageFlags usage = kStorageUsage) {
                return Buffer(device, std::max<VkDeviceSize>(bytes, 16), usage, MemoryUse::Device, what + tag);
            };
            uint64_t poses = uint64_t(cm.sharedPoses()) + part.poseCapacity;
            b.counters = storage(uint64_t(part.counterCount) * 4, "crowd counters", kIndirect);
            b.entries = storage(uint64_t(part.listCount()) * count * sizeof(gpu::DrawEntry), "draw lists");
            b.sharedRequests = storage(uint64_t(part.sharedCount) * 4, "shared pose requests");
            b.sharedOffsets = storage(uint64_t(part.sharedCount) * 4, "shared pose vertex offsets");
            b.jobs = storage(uint64_t(part.listCount()) * part.jobCapacity * sizeof(gpu::SkinJob), "skin jobs");
            b.poseInstances = storage(std::max<uint64_t>(part.poseCapacity, cm.sharedPoses()) * 4, "pose instances");
            b.dispatches = storage(uint64_t(2 + part.listCount()) * sizeof(VkDispatchIndirectCommand), "dispatch sizes", kIndirect);
            const uint64_t commands = uint64_t(part.materialCount()) * cm.commandsPerMesh();
            b.draws = storage(commands * kCommandBytes, "draw commands", kIndirect);
            b.drawInfo = storage(commands * sizeof(gpu::DrawInfo), "draw info");
            b.locals = storage(poses * cm.tables().rest.size() * sizeof(gpu::Affine), "local transforms");
            b.palette = storage(poses * cm.tables().joints.size() * sizeof(gpu::Affine), "palettes");
            b.positions = storage(part.vertexCapacity * sizeof(glm::vec3), "skinned positions");
            b.normals = storage(part.vertexCapacity * sizeof(glm::vec3), "skinned normals");
            b.worlds = storage(uint64_t(count) * sizeof(gpu::Affine), "instance transforms");

            gpu::CrowdFrame f{};
            f.globals = slots_[s].globals.address();
            f.instances = part.instanceBuffer.address();
            f.clips = cm.buffers().clips.address();
            f.clipSpeed = cm.buffers().clipSpeed.address();
            f.meshes = cm.buffers().meshes.address();
            f.levels = cm.buffers().levels.address();
            f.submeshes = cm.buffers().submeshes.address();
            f.counters = b.counters.address();
            f.entries = b.entries.address();
            f.sharedRequests = b.sharedRequests.address();
            f.sharedOffsets = b.sharedOffsets.address();
            f.jobs = b.jobs.address();
            f.poseInstances = b.poseInstances.address();
            f.dispatches = b.dispatches.address();
            f.draws = b.draws.address();
            f.drawInfo = b.drawInfo.address();
            f.worlds = b.worlds.address();
            f.axes = cm.buffers().axes.address();
            f.sphere = cm.worldSphere();
            f.instanceCount = count;
            f.meshCount = part.meshCount();
            f.listCount = part.listCount();
            f.sharedCount = part.sharedCount;
            f.sharedPoses = cm.sharedPoses();
            f.bucketsPerClip = cm.bucketsPerClip();
            f.poseCapacity = part.poseCapacity;
            f.vertexCapacity = uint32_t(std::min<uint64_t>(part.vertexCapacity, 0xFFFFFFFFu));
            f.jobCapacity = part.jobCapacity;
            f.commandsPerMesh = cm.commandsPerMesh();
            f.nodeCount = uint32_t(cm.tables().rest.size());
            f.jointCount = uint32_t(cm.tables().joints.size());
            f.workgroupLimit = device.properties().limits.maxComputeWorkGroupCount[0];
            f.vertexStride = cm.levelVertexStride();
            f.chunkInstances = part.chunkInstances;
            f.materialCount = part.materialCount();
            b.frame = uploadTable(device, std::vector<gpu::CrowdFrame>{f}, "crowd frame" + tag);
            part.slots.push_back(std::move(b));
        }
    }

    cullPipeline_ = createComputePipeline(device, spirv::cull_comp(), sizeof(gpu::CullPush), "cull");
    planPipeline_ = createComputePipeline(device, spirv::plan_comp(), sizeof(gpu::PlanPush), "plan");
    samplePipeline_ = createComputePipeline(device, spirv::sample_comp(), sizeof(gpu::SamplePush), "sample");
    posePipeline_ = createComputePipeline(device, spirv::pose_comp(), sizeof(gpu::PosePush), "pose");
    skinPipeline_ = createComputePipeline(device, spirv::skin_comp(), sizeof(gpu::SkinPush), "skin");
    std::vector<const CrowdModel*> drawn;
    for (const Part& part : parts_)
        drawn.push_back(part.model);
    materials_ = std::make_unique<MaterialTable>(device, drawn, settings.textures);
    // draw.frag's specialization constants: sampling on, alpha mode.
    struct Specialization {
        VkBool32 sample;
        uint32_t alphaMode;
    };
    static constexpr VkSpecializationMapEntry entries[] = {{0, offsetof(Specialization, sample), 4},
                                                           {1, offsetof(Specialization, alphaMode), 4}};
    GraphicsPipelineInfo draw;
    draw.vertex = pool ? spirv::draw_skinned_vert() : spirv::draw_palette_vert();
    draw.fragment = spirv::draw_frag();
    draw.pushSize = sizeof(gpu::DrawPush);
    draw.colorFormat = settings.colorFormat;
    draw.depthFormat = kDepthFormat;
    draw.setLayout = materials_->layout();
    static constexpr const char* kinds[] = {"opaque", "mask", "blend"};
    for (uint32_t alpha = 0; alpha < 3; ++alpha) {
        Specialization values{settings.textures ? VK_TRUE : VK_FALSE, alpha};
        VkSpecializationInfo specialization{2, entries, sizeof(values), &values};
        draw.specialization = &specialization;
        draw.blend = alpha == HORDE_ALPHA_BLEND;
        drawPipelines_[alpha] = createGraphicsPipeline(
            device, draw, std::string(pool ? "draw skinned " : "draw palette ") + kinds[alpha]);
    }
    GraphicsPipelineInfo ground = draw;
    ground.setLayout = VK_NULL_HANDLE;
    ground.specialization = nullptr;
    ground.blend = false;
    ground.vertex = spirv::ground_vert();
    ground.fragment = spirv::ground_frag();
    ground.pushSize = sizeof(gpu::GroundPush);
    groundPipeline_ = createGraphicsPipeline(device, ground, "ground");
    computeSharedPoses();
}

CrowdSettings singleInstanceSettings(uint32_t slots, VkFormat colorFormat) {
    CrowdSettings s;
    s.cull = false;
    s.lod = false;
    s.slots = slots;
    s.colorFormat = colorFormat;
    return s;
}

namespace {
std::vector<std::vector<gpu::InstanceRecord>> gridFor(std::span<const CrowdModel* const> models, uint32_t count) {
    std::vector<const Model*> plain;
    for (const CrowdModel* m : models) plain.push_back(&m->model());
    return mixedGrid(plain, count);
}
} // namespace

CrowdScene::CrowdScene(Device& device, std::span<const CrowdModel* const> models, uint32_t count,
                       const CrowdSettings& settings)
    : CrowdScene(device, models, gridFor(models, count), settings) {}

CrowdScene::~CrowdScene() {
    for (Slot& slot : slots_)
        if (slot.queries) vkDestroyQueryPool(device_.get(), slot.queries, nullptr);
}

uint32_t CrowdScene::instanceCount() const {
    uint32_t n = 0;
    for (const Part& part : parts_) n += uint32_t(part.instances.size());
    return n;
}

uint32_t CrowdScene::chunkCount() const {
    if (!chunked_) return 1;
    uint32_t n = 0;
    for (const Part& part : parts_) n += (uint32_t(part.instances.size()) + part.chunkInstances - 1) / part.chunkInstances;
    return n;
}

// What plan.comp would write for a brute-force frame's level-0 draws, once: every instance is
// in every mesh's level-0 list, so only the chunk's first instance changes from draw to draw.
void CrowdScene::buildChunkDraws(Part& part) {
    const CrowdModel& cm = *part.model;
    const uint32_t count = uint32_t(part.instances.size());
    std::vector<gpu::DrawInfo> infos;
    for (uint32_t m = 0; m < part.meshCount(); ++m) {
        const uint32_t list = cm.cullMeshes()[m].firstLevel;
        const gpu::CullLevel& level = cm.cullLevels()[list];
        for (uint32_t s = level.firstSubmesh; s < level.firstSubmesh + level.submeshCount; ++s) {
            const gpu::LevelSubmesh& submesh = cm.levelSubmeshes()[s];
            if (submesh.indexCount == 0) continue;
            part.chunkDraws.push_back({m, submesh.material, submesh.firstIndex, submesh.indexCount, level.batch, list});
            infos.push_back({submesh.material, 0, level.batch, level.vertexCount, count, list * count});
        }
    }
    part.chunkDrawInfo = uploadTable(device_, infos, "chunk draw info");
}

uint32_t CrowdScene::flags() const {
    return (settings_.cull ? HORDE_CULL_FRUSTUM : 0u) | (settings_.lod ? HORDE_CULL_LOD : 0u) |
           (settings_.technique == Technique::Compute ? HORDE_CULL_POOL : 0u);
}

// The shared poses never change: each is a clip at the middle of one time bucket (or the bind
// pose), so every slot's palettes get them once, here, through the same sample and pose passes.
void CrowdScene::computeSharedPoses() {
    for (Part& part : parts_) {
        const CrowdModel& cm = *part.model;
        const Model& model = cm.model();
        std::vector<gpu::InstanceRecord> poses;
        for (uint32_t c = 0; c < model.clips.size(); ++c)
            for (uint32_t b = 0; b < cm.bucketsPerClip(); ++b) {
                gpu::InstanceRecord r{};
                r.clip = c;
                r.phase = model.clips[c].duration * (float(b) + 0.5f) / float(cm.bucketsPerClip());
                r.speed = 0.0f;
                r.loop = 1;
                poses.push_back(r);
            }
        gpu::InstanceRecord bind{};
        bind.clip = HORDE_NONE;
        poses.push_back(bind);
        std::vector<uint32_t> identity(poses.size());
        for (uint32_t i = 0; i < identity.size(); ++i) identity[i] = i;
        const uint32_t poseCount = uint32_t(poses.size());
        Buffer records = uploadTable(device_, poses, "shared pose records");
        Buffer order = uploadTable(device_, identity, "shared pose order");
        Buffer count = uploadTable(device_, std::vector<uint32_t>{poseCount}, "shared pose count");
        const PoseSlots slots{records.address(), order.address(), count.address(), 0, 0};
        device_.immediate([&](VkCommandBuffer cmd) {
            for (Part::PerSlot& b : part.slots)
                dispatch(cmd, samplePipeline_, samplePush(cm, slots, b.locals.address(), 0.0f),
                         uint64_t(poseCount) * cm.tables().rest.size());
            passBarrier(cmd);
            for (Part::PerSlot& b : part.slots)
                dispatch(cmd, posePipeline_, posePush(cm, slots, b.locals.address(), b.palette.address()),
                         uint64_t(poseCount) * cm.tables().joints.size());
        });
    }
}

void CrowdScene::writeGlobals(uint32_t slotIndex, const ViewCamera& view, const ViewCamera& cull) {
    gpu::FrameGlobals g{};
    g.viewProjection = view.viewProjection;
    g.lightDirection = glm::vec4(glm::normalize(glm::vec3(-0.4f, -0.8f, -0.45f)), 0.0f);
    g.cameraPosition = glm::vec4(view.eye, 1.0f);
    std::array<glm::vec4, 6> planes = frustumPlanes(cull.viewProjection);
    for (int p = 0; p < 6; ++p) g.cullPlanes[p] = planes[p];
    g.cullEye = glm::vec4(cull.eye, cull.pixelsPerUnit);
    g.tintLevels = tintLevels_ ? 1u : 0u;
    std::memcpy(slots_[slotIndex].globals.mapped(), &g, sizeof(g));
}

void CrowdScene::recordPasses(VkCommandBuffer cmd, uint32_t slotIndex, float time, bool stamps) {
    Slot& slot = slots_[slotIndex];
    auto stamp = [&](uint32_t index) {
        if (!stamps) return;
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, index);
        ++commands_;
    };
    const uint32_t flags = this->flags();
    // The previous frame in this slot may still have been reading these when it was submitted.
    barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0, VK_PIPELINE_STAGE_2_TRANSFER_BIT, 0);
    for (Part& part : parts_) {
        Part::PerSlot& b = part.slots[slotIndex];
        vkCmdFillBuffer(cmd, b.counters.get(), 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, b.sharedRequests.get(), 0, VK_WHOLE_SIZE, 0);
        commands_ += 2;
    }
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ++commands_;
    stamp(0);
    for (Part& part : parts_) {
        gpu::CullPush push{part.slots[slotIndex].frame.address(), time, settings_.lodErrorPixels, flags, 0};
        dispatch(cmd, cullPipeline_, push, part.instances.size());
        commands_ += 3;
    }
    passBarrier(cmd);
    for (Part& part : parts_) {
        gpu::PlanPush push{part.slots[slotIndex].frame.address()};
        dispatch(cmd, planPipeline_, push, HORDE_WORKGROUP);
        commands_ += 3;
    }
    passBarrier(cmd);
    commands_ += 2;
    stamp(1);

    auto indirect = [&](const Pipeline& pipeline, const auto& push, const Buffer& args, uint32_t index) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
        pushConstants(cmd, pipeline, push);
        vkCmdDispatchIndirect(cmd, args.get(), VkDeviceSize(index) * sizeof(VkDispatchIndirectCommand));
        commands_ += 3;
    };
    for (Part& part : parts_) {
        const CrowdModel& cm = *part.model;
        Part::PerSlot& b = part.slots[slotIndex];
        const PoseSlots slots{part.instanceBuffer.address(), b.poseInstances.address(), b.counters.address(),
                              HORDE_COUNT_POSES, cm.sharedPoses()};
        indirect(samplePipeline_, samplePush(cm, slots, b.locals.address(), time), b.dispatches, 0);
    }
    passBarrier(cmd);
    ++commands_;
    stamp(2);
    for (Part& part : parts_) {
        const CrowdModel& cm = *part.model;
        Part::PerSlot& b = part.slots[slotIndex];
        const PoseSlots slots{part.instanceBuffer.address(), b.poseInstances.address(), b.counters.address(),
                              HORDE_COUNT_POSES, cm.sharedPoses()};
        indirect(posePipeline_, posePush(cm, slots, b.locals.address(), b.palette.address()), b.dispatches, 1);
    }
    passBarrier(cmd);
    ++commands_;
    stamp(3);
    if (chunked_) return; // recordChunks skins each chunk before drawing it
    if (settings_.technique == Technique::Compute) {
        for (Part& part : parts_) {
            const CrowdModel& cm = *part.model;
            const Model& model = cm.model();
            Part::PerSlot& b = part.slots[slotIndex];
            for (uint32_t list = 0; list < part.listCount(); ++list) {
                const gpu::CullLevel& level = cm.cullLevels()[list];
                const Mesh& mesh = model.meshes[level.mesh];
                const auto& gpu = static_cast<const GpuMeshStorage&>(*mesh.storage);
                gpu::SkinPush push{};
                push.positions = gpu.address(gpu.offsets.positions);
                push.normals = gpu.address(gpu.offsets.normals);
                push.order = cm.buffers().lodOrder[level.mesh].address();
                push.joints = mesh.skinned() ? gpu.address(gpu.offsets.joints) : 0;
                push.weights = mesh.skinned() ? gpu.address(gpu.offsets.weights) : 0;
                push.palette = b.palette.address();
                push.jobs = b.jobs.address() + VkDeviceAddress(list) * part.jobCapacity * sizeof(gpu::SkinJob);
                push.counters = b.counters.address();
                push.outPositions = b.positions.address();
                push.outNormals = b.normals.address();
                push.vertexCount = level.vertexCount;
                push.jointBase = cm.tables().meshJointBase[level.mesh];
                push.jointCount = uint32_t(cm.tables().joints.size());
                push.countIndex = HORDE_COUNT_HEADER + part.materialCount() + part.listCount() + list;
                push.jobLimit = ~0u;
                indirect(skinPipeline_, push, b.dispatches, 2 + list);
            }
        }
    }
    passBarrier(cmd);
    ++commands_;
    stamp(4);
}

void CrowdScene::recordAnimation(VkCommandBuffer cmd, uint32_t slot, float time, const ViewCamera& view) {
    commands_ = 0;
    writeGlobals(slot, view, view);
    recordPasses(cmd, slot, time, false);
}

void CrowdScene::recordFrame(VkCommandBuffer cmd, uint32_t slotIndex, float time, const RenderTarget& target,
                             const ViewCamera& view, const ViewCamera* cull) {
    Slot& slot = slots_[slotIndex];
    commands_ = 0;
    writeGlobals(slotIndex, view, cull ? *cull : view);
    vkCmdResetQueryPool(cmd, slot.queries, 0, queryCount());
    ++commands_;
    recordPasses(cmd, slotIndex, time, true);
    recordDraw(cmd, slotIndex, target);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, queryCount() - 1);
    VkDeviceSize offset = 0;
    for (Part& part : parts_) {
        VkBufferCopy region{0, offset, VkDeviceSize(part.counterCount) * 4};
        vkCmdCopyBuffer(cmd, part.slots[slotIndex].counters.get(), slot.countsReadback.get(), 1, &region);
        offset += region.size;
    }
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
            VK_ACCESS_2_HOST_READ_BIT);
    commands_ += 2 + uint32_t(parts_.size());
    slot.used = true;
}

void CrowdScene::beginRendering(VkCommandBuffer cmd, const RenderTarget& target, bool clear) {
    VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    color.imageView = target.colorView;
    color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    color.loadOp = clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
    color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
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
    push.area = glm::vec4(worldBounds_.min.x - margin, worldBounds_.min.z - margin, worldBounds_.max.x + margin,
                          worldBounds_.max.z + margin);
    push.height = groundHeight_;
    glm::vec4 sphere = parts_[0].model->worldSphere();
    push.cell = std::max(sphere.w, 1e-3f) * 2.0f;
    vkCmdSetCullMode(cmd, VK_CULL_MODE_NONE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, groundPipeline_.get());
    pushConstants(cmd, groundPipeline_, push);
    vkCmdDraw(cmd, 6, 1, 0, 0);
    commands_ += 4;
}

// Pipeline, texture set and cull mode for one material slot's draw, each set only when it
// changes within one rendering.
const Pipeline& CrowdScene::bindMaterial(VkCommandBuffer cmd, MaterialBinding& bound, const gpu::MaterialRecord& record) {
    const Pipeline& pipeline = drawPipelines_[record.alphaMode];
    if (bound.pipeline != &pipeline) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.get());
        ++commands_;
        bound.pipeline = &pipeline;
        bound.texture = HORDE_NONE; // rebound below: the pipelines' layouts are distinct objects
    }
    if (record.texture != bound.texture) {
        VkDescriptorSet set = materials_->set(record.texture);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout(), 0, 1, &set, 0, nullptr);
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

gpu::DrawPush CrowdScene::drawPush(const Part& part, size_t partIndex, uint32_t slotIndex, uint32_t mesh) const {
    const CrowdModel& cm = *part.model;
    const Mesh& source = cm.model().meshes[mesh];
    const auto& gpu = static_cast<const GpuMeshStorage&>(*source.storage);
    const Part::PerSlot& b = part.slots[slotIndex];
    gpu::DrawPush push{};
    push.globals = slots_[slotIndex].globals.address();
    push.instances = part.instanceBuffer.address();
    push.entries = b.entries.address();
    push.sharedOffsets = b.sharedOffsets.address();
    push.materials = materials_->records(partIndex);
    push.worlds = b.worlds.address();
    push.jointBase = cm.tables().meshJointBase[mesh];
    push.jointCount = uint32_t(cm.tables().joints.size());
    if (settings_.technique == Technique::Compute) {
        push.positions = b.positions.address();
        push.normals = b.normals.address();
    } else {
        push.positions = gpu.address(gpu.offsets.positions);
        push.normals = gpu.address(gpu.offsets.normals);
        push.joints = source.skinned() ? gpu.address(gpu.offsets.joints) : 0;
        push.weights = source.skinned() ? gpu.address(gpu.offsets.weights) : 0;
        push.palette = b.palette.address();
        push.skinned = source.skinned() ? 1u : 0u;
    }
    const bool uvs = settings_.textures && source.layout().uvSets > 0;
    if (uvs) push.uvs = gpu.address(gpu.offsets.uv0);
    if (uvs || settings_.technique == Technique::Vertex) push.order = cm.buffers().lodOrder[mesh].address();
    return push;
}

// Every material slot's commands are one indirect-count draw: opaque and masked materials of
// every model first, then the blended ones over them (in model, mesh and submesh order, not
// sorted by depth). The commands depend on the models' materials, never on the crowd's size.
void CrowdScene::recordIndirectDraws(VkCommandBuffer cmd, uint32_t slotIndex) {
    MaterialBinding bound;
    for (bool blended : {false, true}) {
        for (size_t p = 0; p < parts_.size(); ++p) {
            Part& part = parts_[p];
            const CrowdModel& cm = *part.model;
            const Model& model = cm.model();
            Part::PerSlot& b = part.slots[slotIndex];
            const std::span<const gpu::MaterialRecord> records = materials_->modelRecords(p, part.materialCount());
            bool faced = false;
            for (uint32_t m = 0; m < part.meshCount(); ++m) {
                const uint32_t first = cm.meshMaterials()[m], end = first + uint32_t(model.meshes[m].submeshes.size());
                bool any = false;
                for (uint32_t material = first; material < end; ++material)
                    any |= (records[material].alphaMode == HORDE_ALPHA_BLEND) == blended;
                if (!any) continue;
                if (!faced) {
                    vkCmdSetFrontFace(cmd, cm.clockwise() ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE);
                    ++commands_;
                    faced = true;
                }
                gpu::DrawPush push = drawPush(part, p, slotIndex, m);
                vkCmdBindIndexBuffer(cmd, cm.buffers().lodIndices[m].get(), 0, VK_INDEX_TYPE_UINT32);
                ++commands_;
                for (uint32_t material = first; material < end; ++material) {
                    const gpu::MaterialRecord& record = records[material];
                    if ((record.alphaMode == HORDE_ALPHA_BLEND) != blended) continue;
                    const Pipeline& pipeline = bindMaterial(cmd, bound, record);
                    const uint64_t command = uint64_t(material) * cm.commandsPerMesh();
                    push.drawInfo = b.drawInfo.address() + command * sizeof(gpu::DrawInfo);
                    pushConstants(cmd, pipeline, push);
                    vkCmdDrawIndexedIndirectCount(cmd, b.draws.get(), command * kCommandBytes, b.counters.get(),
                                                  (HORDE_COUNT_HEADER + uint64_t(material)) * 4, cm.commandsPerMesh(),
                                                  kCommandBytes);
                    commands_ += 2;
                }
            }
        }
    }
}

// Brute force through a pool smaller than the crowd: per chunk of instances, every mesh's
// level 0 skinned into the pool, then drawn, before the next chunk overwrites it. Every instance
// is still sampled, posed, skinned and drawn in full each frame. The commands grow with the
// crowd here (about 20 per chunk of vertexBudget vertices), the one place they do: it is the
// baseline, not the path that scales.
void CrowdScene::recordChunks(VkCommandBuffer cmd, uint32_t slotIndex, const RenderTarget& target) {
    const Slot& slot = slots_[slotIndex];
    const uint32_t limit = device_.properties().limits.maxComputeWorkGroupCount[0];
    uint32_t query = 4;
    bool first = true;
    for (size_t p = 0; p < parts_.size(); ++p) {
        Part& part = parts_[p];
        const CrowdModel& cm = *part.model;
        const Model& model = cm.model();
        Part::PerSlot& b = part.slots[slotIndex];
        const uint32_t count = uint32_t(part.instances.size());
        for (uint32_t start = 0; start < count; start += part.chunkInstances) {
            const uint32_t n = std::min(part.chunkInstances, count - start);
            if (!first) {
                // The previous chunk's draw has read the pool and written the attachments.
                barrier(cmd,
                        VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                        VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT |
                            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                        VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT |
                            VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                            VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
                ++commands_;
            }
            for (uint32_t m = 0; m < part.meshCount(); ++m) {
                const uint32_t list = cm.cullMeshes()[m].firstLevel;
                const gpu::CullLevel& level = cm.cullLevels()[list];
                const Mesh& mesh = model.meshes[m];
                const auto& gpu = static_cast<const GpuMeshStorage&>(*mesh.storage);
                gpu::SkinPush push{};
                push.positions = gpu.address(gpu.offsets.positions);
                push.normals = gpu.address(gpu.offsets.normals);
                push.order = cm.buffers().lodOrder[m].address();
                push.joints = mesh.skinned() ? gpu.address(gpu.offsets.joints) : 0;
                push.weights = mesh.skinned() ? gpu.address(gpu.offsets.weights) : 0;
                push.palette = b.palette.address();
                push.jobs = b.jobs.address() + (VkDeviceAddress(list) * part.jobCapacity + start) * sizeof(gpu::SkinJob);
                push.counters = b.counters.address();
                push.outPositions = b.positions.address();
                push.outNormals = b.normals.address();
                push.vertexCount = level.vertexCount;
                push.jointBase = cm.tables().meshJointBase[m];
                push.jointCount = uint32_t(cm.tables().joints.size());
                push.countIndex = HORDE_COUNT_HEADER + part.materialCount() + part.listCount() + list;
                push.jobLimit = n;
                dispatchRows(cmd, skinPipeline_, push, uint64_t(n) * level.vertexCount, limit);
                commands_ += 3;
            }
            passBarrier(cmd);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, query++);
            beginRendering(cmd, target, first);
            if (first) recordGround(cmd, slotIndex);
            vkCmdSetFrontFace(cmd, cm.clockwise() ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE);
            ++commands_;
            // Blended materials after the chunk's opaque ones (not across chunks: this is the baseline).
            const std::span<const gpu::MaterialRecord> records = materials_->modelRecords(p, part.materialCount());
            MaterialBinding bound;
            for (bool blended : {false, true})
                for (size_t d = 0; d < part.chunkDraws.size(); ++d) {
                    const Part::ChunkDraw& draw = part.chunkDraws[d];
                    const gpu::MaterialRecord& record = records[draw.material];
                    if ((record.alphaMode == HORDE_ALPHA_BLEND) != blended) continue;
                    const Pipeline& pipeline = bindMaterial(cmd, bound, record);
                    gpu::DrawPush push = drawPush(part, p, slotIndex, draw.mesh);
                    push.drawInfo = part.chunkDrawInfo.address() + VkDeviceAddress(d) * sizeof(gpu::DrawInfo);
                    vkCmdBindIndexBuffer(cmd, cm.buffers().lodIndices[draw.mesh].get(), 0, VK_INDEX_TYPE_UINT32);
                    pushConstants(cmd, pipeline, push);
                    vkCmdDrawIndexed(cmd, draw.indexCount * draw.batch, (n + draw.batch - 1) / draw.batch, draw.firstIndex,
                                     0, draw.list * count + start);
                    commands_ += 3;
                }
            vkCmdEndRendering(cmd);
            ++commands_;
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

void CrowdScene::recordDraw(VkCommandBuffer cmd, uint32_t slotIndex, const RenderTarget& target) {
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                 VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
    imageBarrier(cmd, target.depth, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                 VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT);
    commands_ += 2;
    if (chunked_) {
        recordChunks(cmd, slotIndex, target);
    } else {
        beginRendering(cmd, target, true);
        recordGround(cmd, slotIndex);
        recordIndirectDraws(cmd, slotIndex);
        vkCmdEndRendering(cmd);
        ++commands_;
    }
    if (target.colorLayoutAfter == VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL) return;
    bool present = target.colorLayoutAfter == VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
    imageBarrier(cmd, target.color, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                 target.colorLayoutAfter, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                 VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, present ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                 present ? VK_ACCESS_2_NONE : VK_ACCESS_2_TRANSFER_READ_BIT);
    ++commands_;
}

std::optional<PassTimes> CrowdScene::passTimes(uint32_t slotIndex) const {
    const Slot& slot = slots_[slotIndex];
    if (!slot.used) return std::nullopt;
    std::vector<uint64_t>& stamps = slot.stamps;
    VkResult r = vkGetQueryPoolResults(device_.get(), slot.queries, 0, queryCount(), stamps.size() * sizeof(uint64_t),
                                       stamps.data(), sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
    if (r != VK_SUCCESS) return std::nullopt;
    double period = device_.properties().limits.timestampPeriod * 1e-6;
    PassTimes t;
    t.cullMs = double(stamps[1] - stamps[0]) * period;
    t.sampleMs = double(stamps[2] - stamps[1]) * period;
    t.poseMs = double(stamps[3] - stamps[2]) * period;
    // Brute force in chunks alternates skin and draw: each is the sum over the chunks.
    for (uint32_t q = 3; q + 2 < queryCount(); q += 2) {
        t.skinMs += double(stamps[q + 1] - stamps[q]) * period;
        t.drawMs += double(stamps[q + 2] - stamps[q + 1]) * period;
    }
    return t;
}

std::optional<FrameCounts> CrowdScene::counts(uint32_t slotIndex) const {
    const Slot& slot = slots_[slotIndex];
    if (!slot.used) return std::nullopt;
    FrameCounts out;
    const uint32_t* all = as<uint32_t>(slot.countsReadback);
    for (const Part& part : parts_) {
        const CrowdModel& cm = *part.model;
        const uint32_t* c = all;
        all += part.counterCount;
        out.instances += uint32_t(part.instances.size());
        out.visible += c[HORDE_COUNT_VISIBLE];
        out.ownPoses += c[HORDE_COUNT_POSES];
        out.sharedPoses += c[HORDE_COUNT_SHARED];
        out.dropped += c[HORDE_COUNT_DROPPED];
        std::vector<uint32_t> lists;
        for (uint32_t list = 0; list < part.listCount(); ++list) {
            const gpu::CullLevel& level = cm.cullLevels()[list];
            uint32_t drawn = c[HORDE_COUNT_HEADER + part.materialCount() + list];
            uint32_t jobs = c[HORDE_COUNT_HEADER + part.materialCount() + part.listCount() + list];
            lists.push_back(drawn);
            uint32_t levelIndex = list - cm.cullMeshes()[level.mesh].firstLevel;
            out.perLevel[std::min(levelIndex, uint32_t(HORDE_MAX_LEVELS - 1))] += drawn;
            uint64_t indices = 0;
            for (uint32_t s = 0; s < level.submeshCount; ++s) indices += cm.levelSubmeshes()[level.firstSubmesh + s].indexCount;
            out.triangles += uint64_t(drawn) * indices / 3;
            out.skinnedVertices += uint64_t(settings_.technique == Technique::Compute ? jobs : drawn) * level.vertexCount;
        }
        out.listCounts.push_back(std::move(lists));
    }
    return out;
}

std::vector<uint8_t> CrowdScene::readBuffer(const Buffer& buffer, VkDeviceSize offset, VkDeviceSize size) {
    Buffer readback(device_, std::max<VkDeviceSize>(size, 16), VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Readback, "readback");
    device_.immediate([&](VkCommandBuffer cmd) {
        VkBufferCopy region{offset, 0, size};
        vkCmdCopyBuffer(cmd, buffer.get(), readback.get(), 1, &region);
        barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT,
                VK_ACCESS_2_HOST_READ_BIT);
    });
    std::vector<uint8_t> bytes(size);
    std::memcpy(bytes.data(), readback.mapped(), size);
    return bytes;
}

std::vector<gpu::Affine> CrowdScene::readPalette(uint32_t slot, uint32_t partIndex) {
    const Part& part = parts_.at(partIndex);
    if (settings_.cull || settings_.lod) throw std::logic_error("readPalette needs culling and LOD off");
    const CrowdModel& cm = *part.model;
    const VkDeviceSize joint = sizeof(gpu::Affine) * cm.tables().joints.size();
    std::vector<uint8_t> bytes = readBuffer(part.slots[slot].palette, cm.sharedPoses() * joint, part.instances.size() * joint);
    std::vector<gpu::Affine> out(bytes.size() / sizeof(gpu::Affine));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(gpu::Affine));
    return out;
}

std::vector<glm::vec3> CrowdScene::readSkinned(uint32_t slot, uint32_t partIndex, uint32_t meshIndex, bool normals) {
    const Part& part = parts_.at(partIndex);
    if (settings_.cull || settings_.lod || settings_.technique != Technique::Compute)
        throw std::logic_error("readSkinned needs the compute technique with culling and LOD off");
    if (chunked_) throw std::logic_error("readSkinned needs a crowd the vertex budget holds whole");
    const CrowdModel& cm = *part.model;
    const uint32_t stride = cm.levelVertexStride();
    const Buffer& pool = normals ? part.slots[slot].normals : part.slots[slot].positions;
    std::vector<uint8_t> bytes = readBuffer(pool, 0, uint64_t(part.instances.size()) * stride * sizeof(glm::vec3));
    const std::vector<uint32_t>& order = cm.lods()[meshIndex].order;
    const uint32_t base = cm.cullMeshes()[meshIndex].vertexBase;
    std::vector<glm::vec3> out(part.instances.size() * order.size());
    const auto* pooled = reinterpret_cast<const glm::vec3*>(bytes.data());
    for (size_t i = 0; i < part.instances.size(); ++i)
        for (size_t v = 0; v < order.size(); ++v)
            out[i * order.size() + order[v]] = pooled[i * stride + base + v];
    return out;
}

} // namespace horde
