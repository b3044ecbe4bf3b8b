// The compute passes of a crowd frame: cull, plan, sample, pose, skin; and the shared poses,
// computed once by the same sample and pose passes.
#include <algorithm>

#include "render/crowd_scene_part.h"
#include "vk/device.h"

namespace horde {

void passBarrier(VkCommandBuffer cmd) {
    barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

namespace {

// Sample and pose over pose slots [firstSlot, firstSlot + counters[countIndex]), slot s animating
// instance poseInstances[s - firstSlot]: the shared poses once, the own poses every frame.
struct PoseSlots {
    VkDeviceAddress instances, poseInstances, counters;
    uint32_t countIndex, firstSlot;
};

gpu::SamplePush samplePush(const CrowdModel& cm, const PoseSlots& slots, const CrowdScene::Part::PerSlot& b,
                           float time) {
    gpu::SamplePush push{};
    push.instances = slots.instances;
    push.poseInstances = slots.poseInstances;
    push.clips = cm.buffers().clips.address();
    push.channelTable = cm.buffers().channelTable.address();
    push.channels = cm.buffers().channels.address();
    push.times = cm.buffers().times.address();
    push.values = cm.buffers().values.address();
    push.rest = cm.buffers().rest.address();
    push.locals = b.locals.address();
    push.counters = slots.counters;
    push.morphs = cm.buffers().morphTables.address();
    push.morphWeights = b.morphWeights.address();
    push.time = time;
    push.nodeCount = uint32_t(cm.asset().tables.rest.size());
    push.countIndex = slots.countIndex;
    push.firstSlot = slots.firstSlot;
    return push;
}

gpu::PosePush posePush(const CrowdModel& cm, const PoseSlots& slots, VkDeviceAddress locals,
                       VkDeviceAddress palette) {
    gpu::PosePush push{};
    push.rest = cm.buffers().rest.address();
    push.locals = locals;
    push.joints = cm.buffers().joints.address();
    push.palette = palette;
    push.counters = slots.counters;
    push.nodeCount = uint32_t(cm.asset().tables.rest.size());
    push.jointCount = uint32_t(cm.asset().tables.joints.size());
    push.countIndex = slots.countIndex;
    push.firstSlot = slots.firstSlot;
    return push;
}

// The pose slots of a frame: after the shared ones and the blend table, one per instance the cull
// pass gave its own.
PoseSlots ownPoses(const CrowdScene::Part& part, const CrowdScene::Part::PerSlot& b) {
    return {part.instanceBuffer.address(), b.poseInstances.address(), b.counters.address(), HORDE_COUNT_POSES,
            part.ownPoseBase()};
}

// The shared-blend table's slots: every slot, each sampled and posed only where a key claimed it.
gpu::SamplePush blendSamplePush(const CrowdScene::Part& part, const CrowdScene::Part::PerSlot& b) {
    const PoseSlots slots{part.instanceBuffer.address(), 0, b.counters.address(), part.plan.blendSlots,
                          part.asset().sharedPoses()};
    gpu::SamplePush push = samplePush(*part.model, slots, b, 0.0f);
    push.blendKeys = b.blendKeys.address();
    push.bucketsPerClip = part.asset().bucketsPerClip;
    return push;
}

gpu::PosePush blendPosePush(const CrowdScene::Part& part, const CrowdScene::Part::PerSlot& b) {
    const PoseSlots slots{part.instanceBuffer.address(), 0, b.counters.address(), part.plan.blendSlots,
                          part.asset().sharedPoses()};
    gpu::PosePush push = posePush(*part.model, slots, b.locals.address(), b.palette.address());
    push.blendKeys = b.blendKeys.address();
    return push;
}

} // namespace

// The skin pass over one (mesh, level) list's jobs; the caller sets jobs and jobLimit for a chunk.
gpu::SkinPush CrowdScene::skinPush(const Part& part, uint32_t slotIndex, uint32_t list) const {
    const CrowdModel& cm = *part.model;
    const CrowdAsset& asset = part.asset();
    const gpu::CullLevel& level = asset.cullLevels[list];
    const GpuMesh& mesh = cm.meshes()[level.mesh];
    const Part::PerSlot& b = part.slots[slotIndex];
    gpu::SkinPush push{};
    push.positions = mesh.positions;
    push.normals = mesh.normals;
    push.order = cm.buffers().lodOrder[level.mesh].address();
    push.joints = mesh.joints;
    push.weights = mesh.weights;
    push.extras = b.meshExtras.address() + VkDeviceAddress(level.mesh) * sizeof(gpu::MeshExtras);
    push.palette = b.palette.address();
    push.jobs = b.jobs.address() + VkDeviceAddress(list) * part.plan.jobCapacity * sizeof(gpu::SkinJob);
    push.counters = b.counters.address();
    push.outPositions = b.positions.address();
    push.outNormals = b.normals.address();
    push.vertexCount = level.vertexCount;
    push.jointBase = asset.tables.meshJointBase[level.mesh];
    push.jointCount = uint32_t(asset.tables.joints.size());
    push.countIndex = HORDE_COUNT_HEADER + part.materialCount() + part.listCount() + list;
    push.jobLimit = ~0u;
    return push;
}

// The shared poses never change: each is a clip at the middle of one time bucket (or the bind
// pose), so every slot's palettes get them once, here, through the same sample and pose passes.
void CrowdScene::computeSharedPoses() {
    struct SharedTables {
        std::vector<gpu::InstanceRecord> poses;
        std::vector<uint32_t> order, count;
        Buffer records, orderBuffer, countBuffer;
    };
    std::vector<SharedTables> tables(parts_.size());
    TableUpload upload(device_);
    for (size_t p = 0; p < parts_.size(); ++p) {
        const CrowdAsset& asset = parts_[p].asset();
        const Model& model = parts_[p].model->model();
        SharedTables& t = tables[p];
        for (uint32_t c = 0; c < model.clips.size(); ++c)
            for (uint32_t bucket = 0; bucket < asset.bucketsPerClip; ++bucket) {
                gpu::InstanceRecord r{};
                r.clip = c;
                r.phase = model.clips[c].duration * (float(bucket) + 0.5f) / float(asset.bucketsPerClip);
                r.speed = 0.0f;
                r.loop = 1;
                t.poses.push_back(r);
            }
        gpu::InstanceRecord bind{};
        bind.clip = HORDE_NONE;
        t.poses.push_back(bind);
        for (uint32_t i = 0; i < t.poses.size(); ++i)
            t.order.push_back(i);
        t.count = {uint32_t(t.poses.size())};
        t.records = upload.add(t.poses, "shared pose records");
        t.orderBuffer = upload.add(t.order, "shared pose order");
        t.countBuffer = upload.add(t.count, "shared pose count");
    }
    upload.submit();
    device_.immediate([&](VkCommandBuffer cmd) {
        for (size_t p = 0; p < parts_.size(); ++p) {
            const SharedTables& t = tables[p];
            const PoseSlots slots{t.records.address(), t.orderBuffer.address(), t.countBuffer.address(), 0,
                                  0};
            for (Part::PerSlot& b : parts_[p].slots)
                dispatch(cmd, pipelines_.sample,
                         samplePush(*parts_[p].model, slots, b, 0.0f),
                         uint64_t(t.poses.size()) * parts_[p].asset().tables.rest.size());
        }
        passBarrier(cmd);
        for (size_t p = 0; p < parts_.size(); ++p) {
            const SharedTables& t = tables[p];
            const PoseSlots slots{t.records.address(), t.orderBuffer.address(), t.countBuffer.address(), 0,
                                  0};
            for (Part::PerSlot& b : parts_[p].slots)
                dispatch(cmd, pipelines_.pose,
                         posePush(*parts_[p].model, slots, b.locals.address(), b.palette.address()),
                         uint64_t(t.poses.size()) * parts_[p].asset().tables.joints.size());
        }
    });
}

// Every behaving model's instances a frame on (behaviour.comp), before anything reads them.
void CrowdScene::recordBehaviour(VkCommandBuffer cmd, uint32_t slotIndex, float time) {
    const float step = started_ ? std::max(time - lastTime_, 0.0f) : 0.0f;
    lastTime_ = time;
    started_ = true;
    const glm::vec4 area(placementBounds_.min.x, placementBounds_.min.z, placementBounds_.max.x,
                         placementBounds_.max.z);
    for (Part& part : parts_) {
        gpu::BehaviourPush push{};
        push.instances = part.instanceBuffer.address();
        push.states = part.behaviourStates.address();
        push.stateClips = part.stateClips.address();
        push.transitions = part.transitions.address();
        push.motion = part.motion.address();
        push.counters = part.slots[slotIndex].counters.address();
        push.area = area;
        push.time = time;
        push.step = step;
        push.instanceCount = part.count();
        push.stateCount = uint32_t(part.behaviour.states.size());
        push.crossfade = settings_.crossfadeSeconds;
        push.clipCount = uint32_t(part.model->model().clips.size());
        push.fadeFloors = part.model->buffers().fadeFloors.address();
        dispatch(cmd, pipelines_.behaviour, push, part.count());
        commands_ += 3;
    }
    passBarrier(cmd);
    ++commands_;
}

void CrowdScene::recordPasses(VkCommandBuffer cmd, uint32_t slotIndex, float time, bool stamps) {
    Slot& slot = slots_[slotIndex];
    // Each timestamp goes right before the barrier that ends its pass. lavapipe writes a timestamp
    // when its rasterizer threads reach it, and they reach it only at the driver's next flush,
    // which its pipeline barriers cause; compute dispatches run at once on the recording thread.
    // A timestamp written after a barrier therefore waited for the next pass to run and carried
    // its time (the skin pass's showed under pose). On other drivers the order makes no difference.
    auto stamp = [&](uint32_t index) {
        if (!stamps) return;
        vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, slot.queries, index);
        ++commands_;
    };
    // Shader invocations per pass, counted with the timestamps (not by recordAnimation).
    auto beginCount = [&](uint32_t query) { commands_ += stamps ? slot.statistics.begin(cmd, query) : 0; };
    auto endCount = [&](uint32_t query) { commands_ += stamps ? slot.statistics.end(cmd, query) : 0; };
    const uint32_t flags = this->flags();
    stamp(0);
    // The previous frame in this slot may still have been reading these when it was submitted,
    // and every earlier frame the instances the behaviour pass writes.
    barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, 0,
            VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, 0);
    for (Part& part : parts_) {
        Part::PerSlot& b = part.slots[slotIndex];
        vkCmdFillBuffer(cmd, b.counters.get(), 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, b.sharedRequests.get(), 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, b.demand.get(), 0, VK_WHOLE_SIZE, 0);
        vkCmdFillBuffer(cmd, b.blendKeys.get(), 0, VK_WHOLE_SIZE, HORDE_NONE);
        commands_ += 4;
    }
    barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
            VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    ++commands_;
    recordBehaviour(cmd, slotIndex, time);
    auto indirect = [&](const Pipeline& pipeline, const auto& push, const Buffer& args, uint32_t index) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.get());
        pushConstants(cmd, pipeline, push);
        vkCmdDispatchIndirect(cmd, args.get(), VkDeviceSize(index) * sizeof(VkDispatchIndirectCommand));
        commands_ += 3;
    };
    // Cull, share the pool out, assign levels and pool ranges, then size the work.
    beginCount(PassStatisticsQueries::kCull);
    for (Part& part : parts_) {
        gpu::CullPush push{part.slots[slotIndex].frame.address(), time, settings_.lodErrorPixels, flags, 0};
        dispatch(cmd, pipelines_.cull, push, part.instances.size());
        commands_ += 3;
    }
    passBarrier(cmd);
    for (Part& part : parts_) {
        gpu::PlanPush push{part.slots[slotIndex].frame.address()};
        dispatch(cmd, pipelines_.budget, push, HORDE_WORKGROUP);
        commands_ += 3;
    }
    passBarrier(cmd);
    // Assign counts the lists, lists lays them out one after another, assign fills them.
    for (uint32_t stage : {HORDE_ASSIGN_COUNT, HORDE_ASSIGN_FILL}) {
        for (Part& part : parts_) {
            gpu::CullPush push{part.slots[slotIndex].frame.address(), time, settings_.lodErrorPixels, flags,
                               stage};
            indirect(pipelines_.assign, push, part.slots[slotIndex].dispatches, 2);
        }
        passBarrier(cmd);
        if (stage == HORDE_ASSIGN_FILL) break;
        for (Part& part : parts_) {
            gpu::PlanPush push{part.slots[slotIndex].frame.address()};
            dispatch(cmd, pipelines_.lists, push, HORDE_WORKGROUP);
            commands_ += 3;
        }
        passBarrier(cmd);
    }
    for (Part& part : parts_) {
        gpu::PlanPush push{part.slots[slotIndex].frame.address()};
        dispatch(cmd, pipelines_.plan, push, HORDE_WORKGROUP);
        commands_ += 3;
    }
    endCount(PassStatisticsQueries::kCull);
    stamp(1);
    passBarrier(cmd);
    commands_ += 6;

    beginCount(PassStatisticsQueries::kSample);
    for (Part& part : parts_) {
        Part::PerSlot& b = part.slots[slotIndex];
        indirect(pipelines_.sample, samplePush(*part.model, ownPoses(part, b), b, time),
                 b.dispatches, 0);
        dispatch(cmd, pipelines_.sample, blendSamplePush(part, b), part.plan.blendSlots);
        commands_ += 3;
    }
    endCount(PassStatisticsQueries::kSample);
    stamp(2);
    passBarrier(cmd);
    ++commands_;
    beginCount(PassStatisticsQueries::kPose);
    for (Part& part : parts_) {
        Part::PerSlot& b = part.slots[slotIndex];
        indirect(pipelines_.pose,
                 posePush(*part.model, ownPoses(part, b), b.locals.address(), b.palette.address()),
                 b.dispatches, 1);
        dispatch(cmd, pipelines_.pose, blendPosePush(part, b),
                 uint64_t(part.plan.blendSlots) * part.asset().tables.joints.size());
        commands_ += 3;
    }
    endCount(PassStatisticsQueries::kPose);
    stamp(3);
    passBarrier(cmd);
    ++commands_;
    if (chunked_) return; // recordChunks skins each chunk before drawing it
    beginCount(PassStatisticsQueries::skin(0));
    if (settings_.technique == Technique::Compute)
        for (Part& part : parts_)
            for (uint32_t list = 0; list < part.listCount(); ++list)
                indirect(pipelines_.skin, skinPush(part, slotIndex, list), part.slots[slotIndex].dispatches,
                         3 + list);
    endCount(PassStatisticsQueries::skin(0));
    stamp(4);
    passBarrier(cmd);
    ++commands_;
}

} // namespace horde
