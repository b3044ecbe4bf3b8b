#include "vk/device.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "vk/check.h"
#include "vk/memory.h"

namespace horde {

bool validationByDefault() {
    if (const char* env = std::getenv("HORDE_VALIDATION")) return std::strcmp(env, "0") != 0;
#ifdef HORDE_DEFAULT_VALIDATION
    return true;
#else
    return false;
#endif
}

namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    auto* counts = static_cast<MessageCounts*>(user);
    const char* label = "verbose";
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
        ++counts->error, label = "error";
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        ++counts->warning, label = "warning";
    else if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT)
        ++counts->info, label = "info";
    else
        ++counts->verbose;
    if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        std::fprintf(stderr, "vulkan %s: %s\n", label, data->pMessage);
    return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messengerInfo(MessageCounts* counts) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onMessage;
    info.pUserData = counts;
    return info;
}

bool hasInstanceExtension(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> all(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, all.data());
    return std::any_of(all.begin(), all.end(),
                       [&](auto& e) { return std::strcmp(e.extensionName, name) == 0; });
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> all(count);
    vkEnumerateInstanceLayerProperties(&count, all.data());
    return std::any_of(all.begin(), all.end(), [&](auto& l) { return std::strcmp(l.layerName, name) == 0; });
}

int typeRank(VkPhysicalDeviceType type) {
    switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
        return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
        return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
        return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
        return 3;
    default:
        return 4;
    }
}

int32_t graphicsComputeFamily(VkPhysicalDevice device) {
    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    for (uint32_t i = 0; i < count; ++i)
        if ((families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) &&
            (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
            return int32_t(i);
    return -1;
}

bool supportsHorde(VkPhysicalDevice device) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(device, &props);
    if (props.apiVersion < VK_API_VERSION_1_3 || graphicsComputeFamily(device) < 0) return false;
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f11};
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f11.pNext = &f13;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    vkGetPhysicalDeviceFeatures2(device, &features);
    // GPU-driven crowds: indirect draws whose count the GPU writes, several per call, and
    // gl_DrawID to find each command's material.
    return f12.bufferDeviceAddress && f12.scalarBlockLayout && f13.dynamicRendering && f13.synchronization2 &&
           f13.maintenance4 && f12.drawIndirectCount && features.features.multiDrawIndirect &&
           f11.shaderDrawParameters;
}

VkPhysicalDevice choosePhysical(VkInstance instance, const std::string& wanted) {
    uint32_t count = 0;
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
    std::vector<VkPhysicalDevice> devices(count);
    VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
    auto nameOf = [](VkPhysicalDevice d) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(d, &p);
        return std::string(p.deviceName);
    };
    if (!wanted.empty()) {
        bool numeric = std::all_of(wanted.begin(), wanted.end(), [](char c) { return c >= '0' && c <= '9'; });
        for (uint32_t i = 0; i < count; ++i) {
            bool match =
                numeric ? std::to_string(i) == wanted : nameOf(devices[i]).find(wanted) != std::string::npos;
            if (match) {
                if (!supportsHorde(devices[i]))
                    throw VulkanError(
                        "device '" + nameOf(devices[i]) +
                            "' lacks Vulkan 1.3 with buffer device address, "
                            "scalar layout, dynamic rendering, synchronization2, draw-indirect-count, "
                            "multi-draw-indirect and shader draw parameters",
                        VK_ERROR_FEATURE_NOT_PRESENT);
                return devices[i];
            }
        }
        std::string list;
        for (uint32_t i = 0; i < count; ++i)
            list += "\n  " + std::to_string(i) + ": " + nameOf(devices[i]);
        throw VulkanError("no Vulkan device matches '" + wanted + "'; devices:" + list,
                          VK_ERROR_INITIALIZATION_FAILED);
    }
    VkPhysicalDevice best = VK_NULL_HANDLE;
    int bestRank = 99;
    for (VkPhysicalDevice d : devices) {
        if (!supportsHorde(d)) continue;
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(d, &p);
        if (typeRank(p.deviceType) < bestRank) best = d, bestRank = typeRank(p.deviceType);
    }
    if (!best)
        throw VulkanError("no Vulkan 1.3 device with the features horde needs", VK_ERROR_INCOMPATIBLE_DRIVER);
    return best;
}

} // namespace

Device::Device(const DeviceOptions& options) {
    try {
        init(options);
    } catch (...) {
        release();
        throw;
    }
}

void Device::init(const DeviceOptions& options) {
    VK_CHECK(volkInitialize());
    validation_ = options.validation;
    if (validation_ && !hasLayer("VK_LAYER_KHRONOS_validation"))
        throw VulkanError("validation requested but VK_LAYER_KHRONOS_validation is not installed",
                          VK_ERROR_LAYER_NOT_PRESENT);
    debugUtils_ = hasInstanceExtension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);

    std::vector<const char*> extensions;
    for (const std::string& e : options.instanceExtensions)
        extensions.push_back(e.c_str());
    if (debugUtils_) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    const char* layers[] = {"VK_LAYER_KHRONOS_validation"};

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "horde";
    app.pEngineName = "horde";
    app.apiVersion = VK_API_VERSION_1_3;

    // Synchronization validation finds the hazards the core checks cannot see.
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    VkDebugUtilsMessengerCreateInfoEXT messenger = messengerInfo(messages_.get());
    features.pNext = debugUtils_ ? &messenger : nullptr;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = uint32_t(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    if (validation_) {
        info.enabledLayerCount = 1;
        info.ppEnabledLayerNames = layers;
        info.pNext = &features;
    }
    VK_CHECK(vkCreateInstance(&info, nullptr, &instance_));
    volkLoadInstanceOnly(instance_);
    if (debugUtils_ && validation_)
        VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_));

    physical_ = choosePhysical(instance_, options.device);
    vkGetPhysicalDeviceProperties(physical_, &properties_);
    VkPhysicalDeviceVulkan11Properties p11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
    VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p11};
    vkGetPhysicalDeviceProperties2(physical_, &p2);
    maxAllocationSize_ = p11.maxMemoryAllocationSize;
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
    vkGetPhysicalDeviceProperties2(physical_, &props2);
    driver_ = std::string(driver.driverName) + " " + driver.driverInfo;
    unifiedMemory_ = true;
    for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
        VkMemoryPropertyFlags f = memory_.memoryTypes[i].propertyFlags;
        if ((f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && !(f & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            unifiedMemory_ = false;
    }
    queueFamily_ = uint32_t(graphicsComputeFamily(physical_));

    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.dynamicRendering = VK_TRUE;
    f13.synchronization2 = VK_TRUE;
    // Every draw's vertex shader writes the fade step (draw_common.glsl); only the fading
    // pipelines' fragment shader reads it.
    f13.maintenance4 = VK_TRUE;
    VkPhysicalDeviceVulkan11Features f11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &f13};
    f11.shaderDrawParameters = VK_TRUE;
    VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f11};
    f12.bufferDeviceAddress = VK_TRUE;
    f12.scalarBlockLayout = VK_TRUE;
    f12.hostQueryReset = VK_TRUE;
    f12.drawIndirectCount = VK_TRUE;
    VkPhysicalDeviceFeatures2 features2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f12};
    features2.features.multiDrawIndirect = VK_TRUE;
    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(physical_, &supported);
    textureCompressionBC_ = supported.textureCompressionBC;
    features2.features.textureCompressionBC = supported.textureCompressionBC;
    pipelineStatistics_ = supported.pipelineStatisticsQuery;
    features2.features.pipelineStatisticsQuery = supported.pipelineStatisticsQuery;
    // Impostors are point sprites (shaders/impostor.vert).
    features2.features.largePoints = supported.largePoints;
    if (supported.largePoints) largestPoint_ = properties_.limits.pointSizeRange[1];

    std::vector<const char*> deviceExtensions;
    if (options.swapchain) deviceExtensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    VkDeviceCreateInfo deviceInfo{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &features2};
    deviceInfo.queueCreateInfoCount = 1;
    deviceInfo.pQueueCreateInfos = &queueInfo;
    deviceInfo.enabledExtensionCount = uint32_t(deviceExtensions.size());
    deviceInfo.ppEnabledExtensionNames = deviceExtensions.data();
    VK_CHECK(vkCreateDevice(physical_, &deviceInfo, nullptr, &device_));
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);

    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pool.queueFamilyIndex = queueFamily_;
    VK_CHECK(vkCreateCommandPool(device_, &pool, nullptr, &immediatePool_));
    setName(immediatePool_, VK_OBJECT_TYPE_COMMAND_POOL, "immediate pool");
    allocator_ = std::make_unique<Allocator>(*this);

    if (!options.quiet)
        std::fprintf(stderr, "horde: device %s (%s)%s\n", properties_.deviceName, driver_.c_str(),
                     validation_ ? ", validation on" : "");
}

Device::~Device() {
    release();
}

void Device::release() {
    if (device_) {
        vkDeviceWaitIdle(device_); // shutdown only: every GPU object below must be idle
        allocator_.reset();
        if (immediatePool_) vkDestroyCommandPool(device_, immediatePool_, nullptr);
        vkDestroyDevice(device_, nullptr);
        device_ = VK_NULL_HANDLE;
    }
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (instance_) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
}

void Device::setName(VkObjectType type, uint64_t handle, std::string_view name) const {
    if (!debugUtils_ || !vkSetDebugUtilsObjectNameEXT) return;
    std::string label(name);
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = label.c_str();
    vkSetDebugUtilsObjectNameEXT(device_, &info);
}

void Device::waitForFence(VkFence fence, std::string_view what, uint64_t timeoutNs) const {
    VkResult result = vkWaitForFences(device_, 1, &fence, VK_TRUE, timeoutNs);
    if (result == VK_TIMEOUT)
        throw VulkanError(std::string(what) + " did not finish within " +
                              std::to_string(timeoutNs / 1'000'000) + " ms: the device is hung or lost",
                          VK_ERROR_DEVICE_LOST);
    if (result != VK_SUCCESS)
        throw VulkanError(std::string(what) + ": waiting for the GPU failed with " + resultName(result),
                          result);
}

void Device::immediate(const std::function<void(VkCommandBuffer)>& record) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = immediatePool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd;
    VK_CHECK(vkAllocateCommandBuffers(device_, &alloc, &cmd));
    VkFence fence = VK_NULL_HANDLE;
    bool submitted = false;
    try {
        VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
        record(cmd);
        VK_CHECK(vkEndCommandBuffer(cmd));
        VkFenceCreateInfo fenceInfo{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VK_CHECK(vkCreateFence(device_, &fenceInfo, nullptr, &fence));
        VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
        submit.commandBufferCount = 1;
        submit.pCommandBuffers = &cmd;
        VK_CHECK(vkQueueSubmit(queue_, 1, &submit, fence));
        submitted = true;
        waitForFence(fence, "immediate commands");
    } catch (...) {
        // Commands that outlasted the wait still use the command buffer and whatever the caller
        // frees as the error unwinds (lavapipe crashed on exactly that): let them finish first. A
        // lost device returns at once.
        if (submitted) vkQueueWaitIdle(queue_);
        if (fence) vkDestroyFence(device_, fence, nullptr);
        vkFreeCommandBuffers(device_, immediatePool_, 1, &cmd);
        throw;
    }
    vkDestroyFence(device_, fence, nullptr);
    vkFreeCommandBuffers(device_, immediatePool_, 1, &cmd);
}

VkDeviceSize Device::deviceLocalHeap() const {
    VkDeviceSize heap = 0;
    for (uint32_t h = 0; h < memory_.memoryHeapCount; ++h)
        if (memory_.memoryHeaps[h].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
            heap = std::max(heap, memory_.memoryHeaps[h].size);
    return heap;
}

VkSampleCountFlagBits Device::supportedSamples(uint32_t wanted) const {
    const VkSampleCountFlags both =
        properties_.limits.framebufferColorSampleCounts & properties_.limits.framebufferDepthSampleCounts;
    for (uint32_t samples = 64; samples > 1; samples /= 2)
        if (samples <= wanted && (both & samples)) return VkSampleCountFlagBits(samples);
    return VK_SAMPLE_COUNT_1_BIT;
}

} // namespace horde
