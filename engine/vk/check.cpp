#include "vk/check.h"

namespace horde {

const char* resultName(VkResult result) {
    switch (result) {
#define HORDE_RESULT(name)                                                                                   \
    case name:                                                                                               \
        return #name;
        HORDE_RESULT(VK_SUCCESS)
        HORDE_RESULT(VK_NOT_READY)
        HORDE_RESULT(VK_TIMEOUT)
        HORDE_RESULT(VK_INCOMPLETE)
        HORDE_RESULT(VK_SUBOPTIMAL_KHR)
        HORDE_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        HORDE_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        HORDE_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        HORDE_RESULT(VK_ERROR_DEVICE_LOST)
        HORDE_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        HORDE_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        HORDE_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        HORDE_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        HORDE_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        HORDE_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        HORDE_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        HORDE_RESULT(VK_ERROR_FRAGMENTED_POOL)
        HORDE_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        HORDE_RESULT(VK_ERROR_SURFACE_LOST_KHR)
        HORDE_RESULT(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        HORDE_RESULT(VK_ERROR_OUT_OF_DATE_KHR)
        HORDE_RESULT(VK_ERROR_VALIDATION_FAILED_EXT)
#undef HORDE_RESULT
    default:
        return "VK_RESULT_UNKNOWN";
    }
}

void throwVulkanError(const char* call, VkResult result, const char* file, int line) {
    throw VulkanError(std::string(call) + " failed with " + resultName(result) + " at " + file + ":" +
                          std::to_string(line),
                      result);
}

} // namespace horde
