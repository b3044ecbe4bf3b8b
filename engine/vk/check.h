#pragma once
// The one error path for Vulkan calls: always on (benchmarks run release builds), it names the
// call, the result, file and line, and throws VulkanError, which the CLI maps to its
// device-trouble exit code.
#include <stdexcept>
#include <string>

#include <volk.h>

namespace horde {

struct VulkanError : std::runtime_error {
    VkResult result;
    VulkanError(const std::string& what, VkResult r) : std::runtime_error(what), result(r) {}
};

const char* resultName(VkResult result);
[[noreturn]] void throwVulkanError(const char* call, VkResult result, const char* file, int line);

} // namespace horde

#define VK_CHECK(call)                                                                                       \
    do {                                                                                                     \
        VkResult vkCheckResult_ = (call);                                                                    \
        if (vkCheckResult_ < 0) ::horde::throwVulkanError(#call, vkCheckResult_, __FILE__, __LINE__);        \
    } while (0)
