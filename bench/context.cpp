#include "bench_context.h"

#include <string>
#include <system_error>

#include <unistd.h>

#include "shaders/gpu_types.h"
#include "shaders/spirv.h"
#include "vk/check.h"
#include "vk/memory.h"
#include "vk/pipeline.h"

namespace horde::bench {

ScratchDir::ScratchDir()
    : path_(std::filesystem::temp_directory_path() / ("horde_bench_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
}

ScratchDir::~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

Model& Context::monster(const MonsterParams& p, bool skinned) {
    const MonsterKey key{p.legPairs, p.sides, p.ringsPerBone, p.influences, p.morphTargets, skinned};
    auto it = monsters.find(key);
    if (it == monsters.end()) {
        Model model = buildMonster(*allocator, p);
        if (skinned) skinMonster(model, monsterSkin());
        it = monsters.emplace(key, std::move(model)).first;
    }
    return it->second;
}

const CrowdModel& Context::crowdMonster(const MonsterParams& p, bool skinned) {
    const MonsterKey key{p.legPairs, p.sides, p.ringsPerBone, p.influences, p.morphTargets, skinned};
    auto it = crowdModels.find(key);
    if (it == crowdModels.end())
        it = crowdModels.emplace(key, std::make_unique<CrowdModel>(*device, monster(p, skinned))).first;
    return *it->second;
}

double measureCopyBandwidth(Device& device, uint64_t bytes) {
    constexpr VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    Buffer source(device, bytes, usage, MemoryUse::Device, "copy source");
    Buffer destination(device, bytes, usage, MemoryUse::Device, "copy destination");
    Pipeline copy = createComputePipeline(device, spirv::copy_comp(), pushBlock<gpu::CopyPush>(), "copy");
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_TIMESTAMP;
    info.queryCount = 2;
    VkQueryPool queries;
    VK_CHECK(vkCreateQueryPool(device.get(), &info, nullptr, &queries));
    gpu::CopyPush push{source.address(), destination.address(), uint32_t(bytes / 16), 0};
    double best = 0.0;
    for (int run = 0; run < 5; ++run) {
        device.immediate([&](VkCommandBuffer cmd) {
            vkCmdResetQueryPool(cmd, queries, 0, 2);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 0);
            dispatch(cmd, copy, push, push.count);
            vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, queries, 1);
        });
        uint64_t stamps[2];
        VK_CHECK(vkGetQueryPoolResults(device.get(), queries, 0, 2, sizeof stamps, stamps, 8, VK_QUERY_RESULT_64_BIT));
        double seconds = double(stamps[1] - stamps[0]) * device.properties().limits.timestampPeriod * 1e-9;
        if (seconds > 0.0) best = std::max(best, 2.0 * double(bytes) / seconds);
    }
    vkDestroyQueryPool(device.get(), queries, nullptr);
    return best;
}

} // namespace horde::bench
