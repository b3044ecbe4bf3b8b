#include "render/crowd_scene.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "anim/dual_quaternion.h"
#include "render/crowd_scene_part.h"
#include "vk/check.h"
#include "vk/device.h"

namespace horde {

static_assert(kCommandBytes == 5 * sizeof(uint32_t) &&
                  sizeof(VkDispatchIndirectCommand) == 3 * sizeof(uint32_t),
              "crowd/memory_plan.cpp sizes indirect commands as Vulkan does");

namespace {

CrowdBudget budgetOf(const CrowdSettings& s) {
    return {s.lod, s.cull, s.technique == Technique::Compute, s.vertexBudget, s.poseBudget, s.skin,
            !s.behaviour.loops(), s.lod && s.impostors && s.impostorFade};
}

BehaviourTables behaviourOf(const CrowdModel& model, const CrowdSettings& settings) {
    const CrowdAsset& asset = model.asset();
    BehaviourTables tables = resolveBehaviour(settings.behaviour, model.model(), asset.clipRoles, asset.playedClips);
    if (!tables.playable()) tables = {}; // no clip for any state: the model's instances loop
    return tables;
}

std::vector<gpu::ClipMotionRecord> clipMotionOf(const CrowdModel& model) {
    std::vector<gpu::ClipMotionRecord> out;
    for (size_t c = 0; c < model.model().clips.size(); ++c) {
        const glm::vec2 v = model.asset().clipVelocity[c];
        out.push_back({v.x, v.y, model.model().clips[c].transition, 0}); // < 0: the crowd's cross-fade
    }
    return out;
}

// The crowd's extent: every placement with its model's every-pose sphere.
Bounds crowdBounds(std::span<const CrowdScene::Part> parts);

} // namespace

CrowdScene::CrowdScene(Device& device, std::span<const CrowdModel* const> models,
                       std::vector<std::vector<gpu::InstanceRecord>> instances, const CrowdSettings& settings,
                       const SceneOutput& output, std::shared_ptr<SceneResources> resources)
    : device_(device), settings_(settings), output_(output), resources_(std::move(resources)) {
    // Size every buffer before allocating any: a crowd that cannot fit is a clean error, not a
    // driver out-of-memory halfway through (or the host's OOM killer on a CPU driver).
    std::vector<const CrowdAsset*> assets;
    std::vector<uint32_t> counts;
    std::vector<std::string> names;
    for (size_t m = 0; m < models.size(); ++m) {
        if (instances[m].empty()) continue;
        Part& part = parts_.emplace_back();
        part.model = models[m];
        part.instances = std::move(instances[m]);
        part.behaviour = behaviourOf(*part.model, settings);
        part.clipMotion = clipMotionOf(*part.model);
        assets.push_back(&part.asset());
        counts.push_back(part.count());
        names.push_back(part.asset().name);
    }
    // The pools of every model may take a quarter of the device's memory, over all frame slots.
    const std::vector<PartPlan> plans =
        planCrowd(assets, counts, budgetOf(settings), device.deviceLocalHeap() / 4 / std::max(output.slots, 1u));
    for (size_t p = 0; p < parts_.size(); ++p) {
        parts_[p].plan = plans[p];
        chunked_ |= plans[p].chunked(parts_[p].count());
    }
    const std::string problem =
        planProblem(plans, names, instanceCount(), output.slots, device.deviceLocalHeap(), device.maxAllocationSize());
    if (!problem.empty()) throw VulkanError(problem, VK_ERROR_OUT_OF_DEVICE_MEMORY);
    for (const PartPlan& plan : plans)
        slotBytes_ += planBytes(plan);

    worldBounds_ = parts_.empty() ? Bounds{glm::vec3(-1.0f), glm::vec3(1.0f)} : crowdBounds(parts_);
    placementBounds_ = parts_.empty() ? Bounds{} : Bounds{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (const Part& part : parts_)
        for (const gpu::InstanceRecord& r : part.instances) {
            placementBounds_.min = glm::min(placementBounds_.min, glm::vec3(r.placement));
            placementBounds_.max = glm::max(placementBounds_.max, glm::vec3(r.placement));
        }
    groundHeight_ = parts_.empty() ? 0.0f : 1e30f;
    for (const Part& part : parts_) {
        const Bounds& bind = part.asset().worldBindBounds;
        groundHeight_ = std::min(groundHeight_, bind.min.y);
        modelHeight_ = std::max(modelHeight_, bind.max.y - bind.min.y);
    }

    slots_.resize(output.slots);
    for (uint32_t s = 0; s < output.slots; ++s) {
        std::string tag = " (slot " + std::to_string(s) + ")";
        Slot& slot = slots_[s];
        slot.globals = Buffer(device, sizeof(gpu::FrameGlobals), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                              MemoryUse::Upload, "frame globals" + tag);
        uint64_t countBytes = 16;
        for (const Part& part : parts_)
            countBytes += uint64_t(part.plan.counterCount) * 4;
        slot.countsReadback = Buffer(device, countBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                     MemoryUse::Readback, "crowd counts readback" + tag);
        VkQueryPoolCreateInfo query{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        query.queryType = VK_QUERY_TYPE_TIMESTAMP;
        query.queryCount = queryCount();
        slot.stamps.resize(queryCount());
        VK_CHECK(vkCreateQueryPool(device.get(), &query, nullptr, &slot.queries));
        device.setName(slot.queries, VK_OBJECT_TYPE_QUERY_POOL, "pass timestamps" + tag);
        slot.statistics = PassStatisticsQueries(device, chunkCount(), "pass statistics" + tag);
    }

    // Everything the GPU only reads goes up in one batch: instances, chunk draws, frame records.
    TableUpload upload(device);
    std::vector<std::vector<gpu::DrawInfo>> chunkInfos(parts_.size());
    std::vector<std::vector<gpu::CrowdFrame>> frames(parts_.size());
    std::vector<std::vector<gpu::MeshExtras>> extras(parts_.size());
    for (size_t p = 0; p < parts_.size(); ++p) {
        Part& part = parts_[p];
        part.instanceBuffer = upload.add(part.instances, "crowd instances");
        part.behaviourStates = upload.add(part.behaviour.states, "behaviour states");
        part.stateClips = upload.add(part.behaviour.stateClips, "behaviour state clips");
        part.transitions = upload.add(part.behaviour.transitions, "behaviour transitions");
        part.motion = upload.add(part.clipMotion, "clip motion");
        if (chunked_) {
            chunkInfos[p] = buildChunkDraws(part);
            part.chunkDrawInfo = upload.add(chunkInfos[p], "chunk draw info");
        }
        createSlotBuffers(part);
        for (uint32_t s = 0; s < output.slots; ++s)
            frames[p].push_back(frameRecord(part, s));
        for (uint32_t s = 0; s < output.slots; ++s)
            part.slots[s].frame = upload.add(std::as_bytes(std::span(&frames[p][s], 1)),
                                             "crowd frame (slot " + std::to_string(s) + ")");
        for (uint32_t s = 0; s < output.slots; ++s)
            for (uint32_t m = 0; m < part.meshCount(); ++m)
                extras[p].push_back(meshExtras(part, s, m));
        for (uint32_t s = 0; s < output.slots; ++s)
            part.slots[s].meshExtras =
                upload.add(std::as_bytes(std::span(extras[p]).subspan(size_t(s) * part.meshCount(), part.meshCount())),
                           "mesh extras (slot " + std::to_string(s) + ")");
    }
    upload.submit();

    std::vector<const CrowdModel*> drawn;
    for (const Part& part : parts_)
        drawn.push_back(part.model);
    if (!resources_ || resources_->models != drawn || resources_->textures != settings.textures ||
        resources_->vertexColors != settings.vertexColors) {
        resources_ = std::make_shared<SceneResources>();
        resources_->models = drawn;
        resources_->textures = settings.textures;
        resources_->vertexColors = settings.vertexColors;
        resources_->materials = std::make_unique<MaterialTable>(device, drawn, settings.textures);
    }
    if (settings.impostors && settings.lod && !parts_.empty()) {
        if (!resources_->impostors) resources_->impostors = std::make_unique<ImpostorAtlases>(device);
        impostors_ = resources_->impostors.get();
    }
    SkinVariant skin{settings.skin};
    for (const Part& part : parts_)
        skin.stretch |= jointsMayStretch(part.model->model());
    pipelines_ = createCrowdPipelines(device, {settings.technique == Technique::Compute, settings.textures,
                                               output.colorFormat, output.samples, resources_->materials->layout(),
                                               impostors_ ? impostors_->layout() : VK_NULL_HANDLE, skin});
    computeSharedPoses();
}

// An instance is an impostor, or fades into one, where its sphere spans at most fadePixels
// (cull.comp); no centre is farther from the eye than the farthest corner of the box around every
// sphere. Each model's atlas is baked from its shared poses, which computeSharedPoses put in every
// slot.
void CrowdScene::bakeImpostorsIfSeen(const ViewCamera& cull) {
    if (!impostors_ || resources_->impostorsBaked) return;
    float farthest = 0.0f;
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? worldBounds_.max.x : worldBounds_.min.x,
                          (corner & 2) ? worldBounds_.max.y : worldBounds_.min.y,
                          (corner & 4) ? worldBounds_.max.z : worldBounds_.min.z);
        farthest = std::max(farthest, glm::length(p - cull.eye));
    }
    const float fadePixels = kImpostorPixelsPerErrorPixel * settings_.lodErrorPixels *
                             (settings_.impostorFade ? kImpostorFadeBand : 1.0f);
    bool seen = false;
    for (const Part& part : parts_) {
        const float radius = part.asset().worldSphere.w;
        seen |= farthest >= radius + 2.0f * radius * cull.pixelsPerUnit / std::max(fadePixels, 1e-6f);
    }
    if (!seen) return;
    std::vector<ImpostorAtlases::Source> sources;
    for (size_t p = 0; p < parts_.size(); ++p)
        sources.push_back(
            {parts_[p].model, p, parts_[p].slots[0].palette.address(), parts_[p].slots[0].meshExtras.address()});
    impostors_->bake(sources, pipelines_.impostorBake, *resources_->materials);
    resources_->impostorsBaked = true;
}

namespace {

Bounds crowdBounds(std::span<const CrowdScene::Part> parts) {
    Bounds bounds{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (const CrowdScene::Part& part : parts) {
        const glm::vec4 s = part.asset().worldSphere;
        for (const gpu::InstanceRecord& r : part.instances) {
            glm::vec3 p(r.placement);
            float c = std::cos(r.placement.w), sn = std::sin(r.placement.w);
            glm::vec3 centre = glm::vec3(c * s.x + sn * s.z, s.y, -sn * s.x + c * s.z) + p;
            bounds.min = glm::min(bounds.min, centre - glm::vec3(s.w));
            bounds.max = glm::max(bounds.max, centre + glm::vec3(s.w));
        }
    }
    return bounds;
}

// Where the instances stand (crowd/layout.h), each started in its behaviour.
std::vector<std::vector<gpu::InstanceRecord>> layoutFor(std::span<const CrowdModel* const> models,
                                                        const CrowdSettings& settings) {
    std::vector<const CrowdAsset*> assets;
    for (const CrowdModel* m : models)
        assets.push_back(&m->asset());
    std::vector<std::vector<gpu::InstanceRecord>> out = crowdLayout(assets, settings.count, settings.layout);
    for (size_t m = 0; m < models.size(); ++m)
        startBehaviour(out[m], behaviourOf(*models[m], settings), models[m]->asset().tables.clips,
                       settings.layout.seed * 31u + uint32_t(m));
    return out;
}

} // namespace

CrowdScene::CrowdScene(Device& device, std::span<const CrowdModel* const> models,
                       const CrowdSettings& settings, const SceneOutput& output,
                       std::shared_ptr<SceneResources> resources)
    : CrowdScene(device, models, layoutFor(models, settings), settings, output, std::move(resources)) {}

CrowdScene::~CrowdScene() {
    for (Slot& slot : slots_)
        if (slot.queries) vkDestroyQueryPool(device_.get(), slot.queries, nullptr);
}

bool CrowdScene::update(const CrowdSettings& settings) {
    // What the passes read from settings_ each frame (writeGlobals, recordPasses); anything else
    // was built into the scene's buffers and pipelines.
    CrowdSettings live = settings_;
    live.lodErrorPixels = settings.lodErrorPixels;
    live.crossfadeSeconds = settings.crossfadeSeconds;
    if (!(live == settings)) return false;
    settings_ = live;
    return true;
}

// Each slot's working buffers, sized by the part's plan.
void CrowdScene::createSlotBuffers(Part& part) {
    const CrowdModel& cm = *part.model;
    const PartPlan::Bytes& bytes = part.plan.bytes;
    const std::string name =
        " " + (cm.model().meshes.empty() ? std::string("model") : cm.model().meshes[0].name);
    for (uint32_t s = 0; s < output_.slots; ++s) {
        const std::string tag = name + " (slot " + std::to_string(s) + ")";
        auto storage = [&](uint64_t size, const std::string& what, VkBufferUsageFlags usage = kStorageUsage) {
            return Buffer(device_, std::max<VkDeviceSize>(size, 16), usage, MemoryUse::Device, what + tag);
        };
        Part::PerSlot& b = part.slots.emplace_back();
        b.counters = storage(bytes.counters, "crowd counters", kIndirectUsage);
        b.entries = storage(bytes.entries, "draw lists");
        b.sharedRequests = storage(bytes.sharedRequests, "shared pose requests");
        b.sharedOffsets = storage(bytes.sharedOffsets, "shared pose vertex offsets");
        b.jobs = storage(bytes.jobs, "skin jobs");
        b.poseInstances = storage(bytes.poseInstances, "pose instances");
        b.dispatches = storage(bytes.dispatches, "dispatch sizes", kIndirectUsage);
        b.draws = storage(bytes.draws, "draw commands", kIndirectUsage);
        b.drawInfo = storage(bytes.drawInfo, "draw info");
        b.locals = storage(bytes.locals, "local transforms");
        b.palette = storage(bytes.palette, "palettes");
        b.positions = storage(bytes.positions, "skinned positions");
        b.normals = storage(bytes.normals, "skinned normals");
        b.worlds = storage(bytes.worlds, "instance transforms");
        b.visible = storage(bytes.visible, "visible list");
        b.demand = storage(bytes.demand, "pool demand by distance");
        b.listStarts = storage(bytes.listStarts, "list starts");
        b.impostorDraw = storage(bytes.impostorDraw, "impostor draw", kIndirectUsage);
        b.blendKeys = storage(bytes.blendKeys, "shared blend keys");
        b.morphWeights = storage(bytes.morphWeights, "morph weights");
    }
}

// glTF defines COLOR_0 as a factor of the base colour; the game formats' colour arrays (Grimrock's,
// NWN's) are kept for conversions but not drawn: their games' use of them is not documented
// (docs/formats/).
VkDeviceAddress CrowdScene::drawnColors(const Part& part, uint32_t mesh) const {
    const bool drawn = settings_.vertexColors && part.model->model().format == "gltf";
    return drawn ? part.model->meshes()[mesh].colors : 0;
}

// What mesh `m`'s vertices read beyond four influences in slot `s`: its eight influences, its
// colours (glTF's) and its morph targets with the slot's weights.
gpu::MeshExtras CrowdScene::meshExtras(const Part& part, uint32_t s, uint32_t m) const {
    const GpuMesh& mesh = part.model->meshes()[m];
    const AnimationTables& tables = part.asset().tables;
    gpu::MeshExtras x{};
    x.more = mesh.more;
    x.colors = drawnColors(part, m);
    x.morphPositions = mesh.morphPositions;
    x.morphNormals = mesh.morphNormals;
    x.morphWeights = part.slots[s].morphWeights.address();
    x.morphTargets = tables.morphMeshes[m].targets;
    x.vertexCount = part.model->model().meshes[m].vertexCount();
    x.firstWeight = tables.morphMeshes[m].firstWeight;
    x.weightCount = tables.morphWeightCount;
    return x;
}

// The addresses and sizes the cull and plan passes read for one part in one slot.
gpu::CrowdFrame CrowdScene::frameRecord(const Part& part, uint32_t s) const {
    const CrowdModel& cm = *part.model;
    const CrowdAsset& asset = part.asset();
    const PartPlan& plan = part.plan;
    const Part::PerSlot& b = part.slots[s];
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
    f.visible = b.visible.address();
    f.demand = b.demand.address();
    f.listStarts = b.listStarts.address();
    f.impostorDraw = b.impostorDraw.address();
    f.blendKeys = b.blendKeys.address();
    f.blendSlots = plan.blendSlots;
    f.blendError = asset.blendError;
    f.impostorPixels = kImpostorPixelsPerErrorPixel * settings_.lodErrorPixels;
    f.fadePixels = settings_.impostorFade ? kImpostorFadeBand * f.impostorPixels : f.impostorPixels;
    f.fadeCapacity = plan.fadeCapacity;
    f.largestPoint = device_.largestPoint();
    f.axes = cm.buffers().axes.address();
    f.sphere = asset.worldSphere;
    f.instanceCount = part.count();
    f.meshCount = part.meshCount();
    f.listCount = part.listCount();
    f.sharedCount = plan.sharedCount;
    f.sharedPoses = asset.sharedPoses();
    f.bucketsPerClip = asset.bucketsPerClip;
    f.poseCapacity = plan.poseCapacity;
    f.vertexCapacity = uint32_t(std::min<uint64_t>(plan.vertexCapacity, 0xFFFFFFFFu));
    f.jobCapacity = plan.jobCapacity;
    f.commandsPerMesh = asset.commandsPerMesh;
    f.nodeCount = uint32_t(asset.tables.rest.size());
    f.jointCount = uint32_t(asset.tables.joints.size());
    f.workgroupLimit = device_.properties().limits.maxComputeWorkGroupCount[0];
    f.vertexStride = asset.vertexStride;
    f.chunkInstances = plan.chunkInstances;
    f.materialCount = part.materialCount();
    for (const gpu::CullMesh& mesh : asset.cullMeshes)
        f.coarseVertices += asset.cullLevels[mesh.firstLevel + mesh.levelCount - 1].vertexCount;
    return f;
}

uint32_t CrowdScene::instanceCount() const {
    uint32_t n = 0;
    for (const Part& part : parts_)
        n += part.count();
    return n;
}

std::span<const gpu::InstanceRecord> CrowdScene::instancesOf(const CrowdModel* model) const {
    for (const Part& part : parts_)
        if (part.model == model) return part.instances;
    return {};
}

uint32_t CrowdScene::chunkCount() const {
    if (!chunked_) return 1;
    uint32_t n = 0;
    for (const Part& part : parts_)
        n += (part.count() + part.plan.chunkInstances - 1) / part.plan.chunkInstances;
    return n;
}

uint32_t CrowdScene::flags() const {
    return (settings_.cull ? HORDE_CULL_FRUSTUM : 0u) | (settings_.lod ? HORDE_CULL_LOD : 0u) |
           (settings_.technique == Technique::Compute ? HORDE_CULL_POOL : 0u) |
           (impostorsBaked() ? HORDE_CULL_IMPOSTORS : 0u);
}

void CrowdScene::writeGlobals(uint32_t slotIndex, const ViewCamera& view, const ViewCamera& cull) {
    gpu::FrameGlobals g{};
    g.viewProjection = view.viewProjection;
    g.lightDirection = glm::vec4(glm::normalize(glm::vec3(-0.4f, -0.8f, -0.45f)), 0.0f);
    g.cameraPosition = glm::vec4(view.eye, 1.0f);
    std::array<glm::vec4, 6> planes = frustumPlanes(cull.viewProjection);
    for (int p = 0; p < 6; ++p)
        g.cullPlanes[p] = planes[p];
    g.cullEye = glm::vec4(cull.eye, cull.pixelsPerUnit);
    g.tintLevels = tintLevels_ ? 1u : 0u;
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p((corner & 1) ? worldBounds_.max.x : worldBounds_.min.x,
                          (corner & 2) ? worldBounds_.max.y : worldBounds_.min.y,
                          (corner & 4) ? worldBounds_.max.z : worldBounds_.min.z);
        g.cullFar = std::max(g.cullFar, glm::length(p - cull.eye));
    }
    std::memcpy(slots_[slotIndex].globals.mapped(), &g, sizeof(g));
}

void CrowdScene::recordAnimation(VkCommandBuffer cmd, uint32_t slot, float time, const ViewCamera& view) {
    commands_ = 0;
    writeGlobals(slot, view, view);
    recordPasses(cmd, slot, time, false);
}

void CrowdScene::recordFrame(VkCommandBuffer cmd, uint32_t slotIndex, float time, const RenderTarget& target,
                             const ViewCamera& view, const ViewCamera* cull) {
    Slot& slot = slots_[slotIndex];
    bakeImpostorsIfSeen(cull ? *cull : view);
    commands_ = 0;
    writeGlobals(slotIndex, view, cull ? *cull : view);
    vkCmdResetQueryPool(cmd, slot.queries, 0, queryCount());
    commands_ += 1 + slot.statistics.reset(cmd);
    recordPasses(cmd, slotIndex, time, true);
    recordDraw(cmd, slotIndex, target);
    vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, queryCount() - 1);
    VkDeviceSize offset = 0;
    for (Part& part : parts_) {
        VkBufferCopy region{0, offset, VkDeviceSize(part.plan.counterCount) * 4};
        vkCmdCopyBuffer(cmd, part.slots[slotIndex].counters.get(), slot.countsReadback.get(), 1, &region);
        offset += region.size;
    }
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
    commands_ += 2 + uint32_t(parts_.size());
    slot.used = true;
}

std::optional<PassTimes> CrowdScene::passTimes(uint32_t slotIndex) const {
    const Slot& slot = slots_[slotIndex];
    if (!slot.used) return std::nullopt;
    std::vector<uint64_t>& stamps = slot.stamps;
    VkResult r =
        vkGetQueryPoolResults(device_.get(), slot.queries, 0, queryCount(), stamps.size() * sizeof(uint64_t),
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
    const uint32_t* all = static_cast<const uint32_t*>(slot.countsReadback.mapped());
    for (const Part& part : parts_) {
        const CrowdAsset& asset = part.asset();
        const uint32_t* c = all;
        all += part.plan.counterCount;
        FrameCounts::Model& model = out.models.emplace_back();
        model.instances = part.count();
        model.visible = c[HORDE_COUNT_VISIBLE];
        model.dropped = c[HORDE_COUNT_DROPPED];
        out.ownPoses += c[HORDE_COUNT_POSES];
        out.impostors += c[HORDE_COUNT_IMPOSTORS];
        out.fading += c[HORDE_COUNT_FADING];
        out.sharedPoses += c[HORDE_COUNT_SHARED];
        out.sharedBlends += c[HORDE_COUNT_BLENDS];
        BehaviourCounts& b = out.behaviour;
        b.transitions += c[HORDE_COUNT_TRANSITIONS];
        b.blending += c[HORDE_COUNT_BLENDING];
        b.moved += c[HORDE_COUNT_MOVED];
        for (uint32_t s = 0; s < HORDE_BEHAVIOUR_MAX_STATES; ++s) b.states[s] += c[HORDE_COUNT_STATES + s];
        std::vector<uint32_t>& lists = out.listCounts.emplace_back();
        for (uint32_t list = 0; list < part.listCount(); ++list) {
            const gpu::CullLevel& level = asset.cullLevels[list];
            const uint32_t drawn = c[HORDE_COUNT_HEADER + part.materialCount() + list];
            const uint32_t jobs = c[HORDE_COUNT_HEADER + part.materialCount() + part.listCount() + list];
            lists.push_back(drawn);
            const uint32_t levelIndex = list - asset.cullMeshes[level.mesh].firstLevel;
            model.perLevel[std::min(levelIndex, uint32_t(HORDE_MAX_LEVELS - 1))] += drawn;
            uint64_t indices = 0;
            for (uint32_t s = 0; s < level.submeshCount; ++s)
                indices += asset.levelSubmeshes[level.firstSubmesh + s].indexCount;
            out.triangles += uint64_t(drawn) * indices / 3;
            out.skinnedVertices +=
                uint64_t(settings_.technique == Technique::Compute ? jobs : drawn) * level.vertexCount;
        }
        out.instances += model.instances;
        out.visible += model.visible;
        out.dropped += model.dropped;
        for (size_t l = 0; l < model.perLevel.size(); ++l)
            out.perLevel[l] += model.perLevel[l];
    }
    return out;
}

std::optional<PassInvocations> CrowdScene::invocations(uint32_t slotIndex) const {
    const Slot& slot = slots_[slotIndex];
    return slot.used ? slot.statistics.read() : std::nullopt;
}

void CrowdScene::collectStats(uint32_t slot, FrameStats& stats) const {
    if (stats.states.empty())
        for (const BehaviourState& s : settings_.behaviour.states) stats.states.push_back(s.name);
    std::optional<PassTimes> times = passTimes(slot);
    std::optional<FrameCounts> frameCounts = counts(slot);
    if (times && frameCounts) stats.add(*times, std::move(*frameCounts), invocations(slot));
}

} // namespace horde
