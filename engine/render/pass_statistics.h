#pragma once
// Pipeline-statistics queries around one frame slot's passes: vertex, fragment and compute shader
// invocations of cull (with budget, assign and plan), sample, pose, skin and draw; a brute-force
// frame skinned in chunks has a skin and a draw query per chunk, summed. Only where the device
// has the queries (Device::pipelineStatistics); elsewhere every call does nothing.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <volk.h>

#include "crowd/frame_stats.h"

namespace horde {

class Device;

class PassStatisticsQueries {
  public:
    // Queries before the chunks' own: cull, sample, pose; then skin and draw per chunk.
    static constexpr uint32_t kCull = 0, kSample = 1, kPose = 2;
    static constexpr uint32_t skin(uint32_t chunk) { return 3 + 2 * chunk; }
    static constexpr uint32_t draw(uint32_t chunk) { return 4 + 2 * chunk; }

    PassStatisticsQueries() = default;
    PassStatisticsQueries(Device& device, uint32_t chunks, std::string_view name);
    ~PassStatisticsQueries();
    PassStatisticsQueries(PassStatisticsQueries&& other) noexcept;
    PassStatisticsQueries& operator=(PassStatisticsQueries&& other) noexcept;
    PassStatisticsQueries(const PassStatisticsQueries&) = delete;
    PassStatisticsQueries& operator=(const PassStatisticsQueries&) = delete;

    bool enabled() const { return pool_ != VK_NULL_HANDLE; }
    // Each returns the commands it recorded (0 where the device has no queries).
    uint32_t reset(VkCommandBuffer cmd);
    uint32_t begin(VkCommandBuffer cmd, uint32_t query);
    uint32_t end(VkCommandBuffer cmd, uint32_t query);
    // After the slot's frame has finished on the GPU, when every query of it was made.
    std::optional<PassInvocations> read() const;

  private:
    Device* device_ = nullptr;
    VkQueryPool pool_ = VK_NULL_HANDLE;
    uint32_t count_ = 0;
    mutable std::vector<uint64_t> results_; // read()'s scratch, sized once
};

} // namespace horde
