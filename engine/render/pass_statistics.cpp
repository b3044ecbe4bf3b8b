#include "render/pass_statistics.h"

#include <string>
#include <utility>

#include "vk/check.h"
#include "vk/device.h"

namespace horde {

namespace {
// In the order Vulkan writes them: by increasing bit.
constexpr VkQueryPipelineStatisticFlags kCounted =
    VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |
    VK_QUERY_PIPELINE_STATISTIC_COMPUTE_SHADER_INVOCATIONS_BIT;
constexpr uint32_t kValues = 3;
} // namespace

PassStatisticsQueries::PassStatisticsQueries(Device& device, uint32_t chunks, std::string_view name)
    : device_(&device), count_(draw(chunks - 1) + 1) {
    if (!device.pipelineStatistics()) return;
    VkQueryPoolCreateInfo info{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    info.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
    info.queryCount = count_;
    info.pipelineStatistics = kCounted;
    VK_CHECK(vkCreateQueryPool(device.get(), &info, nullptr, &pool_));
    device.setName(pool_, VK_OBJECT_TYPE_QUERY_POOL, std::string(name));
    results_.resize(size_t(count_) * kValues);
}

PassStatisticsQueries::~PassStatisticsQueries() {
    if (pool_) vkDestroyQueryPool(device_->get(), pool_, nullptr);
}

PassStatisticsQueries::PassStatisticsQueries(PassStatisticsQueries&& other) noexcept
    : device_(other.device_), pool_(std::exchange(other.pool_, VK_NULL_HANDLE)), count_(other.count_),
      results_(std::move(other.results_)) {}

PassStatisticsQueries& PassStatisticsQueries::operator=(PassStatisticsQueries&& other) noexcept {
    if (this != &other) {
        if (pool_) vkDestroyQueryPool(device_->get(), pool_, nullptr);
        device_ = other.device_;
        pool_ = std::exchange(other.pool_, VK_NULL_HANDLE);
        count_ = other.count_;
        results_ = std::move(other.results_);
    }
    return *this;
}

uint32_t PassStatisticsQueries::reset(VkCommandBuffer cmd) {
    if (!pool_) return 0;
    vkCmdResetQueryPool(cmd, pool_, 0, count_);
    return 1;
}

uint32_t PassStatisticsQueries::begin(VkCommandBuffer cmd, uint32_t query) {
    if (!pool_) return 0;
    vkCmdBeginQuery(cmd, pool_, query, 0);
    return 1;
}

uint32_t PassStatisticsQueries::end(VkCommandBuffer cmd, uint32_t query) {
    if (!pool_) return 0;
    vkCmdEndQuery(cmd, pool_, query);
    return 1;
}

std::optional<PassInvocations> PassStatisticsQueries::read() const {
    if (!pool_) return std::nullopt;
    const VkResult r =
        vkGetQueryPoolResults(device_->get(), pool_, 0, count_, results_.size() * sizeof(uint64_t),
                              results_.data(), kValues * sizeof(uint64_t), VK_QUERY_RESULT_64_BIT);
    if (r != VK_SUCCESS) return std::nullopt;
    auto at = [&](uint32_t query) {
        const uint64_t* v = &results_[size_t(query) * kValues];
        return Invocations{v[0], v[1], v[2]};
    };
    auto add = [](Invocations& to, const Invocations& from) {
        to.vertex += from.vertex;
        to.fragment += from.fragment;
        to.compute += from.compute;
    };
    PassInvocations p;
    p.cull = at(kCull);
    p.sample = at(kSample);
    p.pose = at(kPose);
    for (uint32_t chunk = 0; draw(chunk) < count_; ++chunk) {
        add(p.skin, at(skin(chunk)));
        add(p.draw, at(draw(chunk)));
    }
    return p;
}

} // namespace horde
