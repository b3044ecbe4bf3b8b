// The Vulkan record the other tests rely on: the layers really check object lifetimes and
// synchronization, a load that fails after it has allocated GPU memory leaves none behind (and
// the device closes without a message), and a wait on a GPU that never finishes ends in a
// device error instead of a hang.
#include <cstring>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "loader.h"
#include "monster.h"
#include "support/temp_dir.h"
#include "support/vulkan_fixture.h"
#include "vk/check.h"
#include "vk/gpu_mesh.h"
#include "vk/memory.h"

using namespace horde;

namespace {
// Counts what a load asked the GPU allocator for, so a test knows the failure came after it.
class CountingGpuAllocator final : public MeshAllocator {
  public:
    explicit CountingGpuAllocator(Device& device) : gpu_(device) {}
    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) override {
        ++calls;
        return gpu_.allocate(layout, name);
    }
    int calls = 0;

  private:
    GpuMeshAllocator gpu_;
};

struct TempDir : horde::test::TempDir {
    TempDir() : horde::test::TempDir("horde_vulkan_record") {}
};

std::vector<char> readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const std::filesystem::path& path, const std::vector<char>& bytes) {
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
}
} // namespace

TEST(ValidationLayers, ReportUseOfAnObjectThatDoesNotExist) {
    auto device = std::make_unique<Device>(test::testDeviceOptions());
    auto log = device->messageLog();
    // The object tracker rejects the handle before the call reaches the driver.
    vkDestroyBuffer(device->get(), reinterpret_cast<VkBuffer>(uintptr_t(0xdead0000)), nullptr);
    device.reset();
    EXPECT_GT(log->error, 0u) << "object lifetime validation is off";
}

TEST(ValidationLayers, ReportASynchronizationHazard) {
    auto device = std::make_unique<Device>(test::testDeviceOptions());
    auto log = device->messageLog();
    {
        Buffer buffer(*device, 256, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryUse::Device, "hazard");
        // Two writes of the same bytes with no barrier between them: write after write.
        device->immediate([&](VkCommandBuffer cmd) {
            vkCmdFillBuffer(cmd, buffer.get(), 0, 256, 1);
            vkCmdFillBuffer(cmd, buffer.get(), 0, 256, 2);
        });
    }
    device.reset();
    EXPECT_GT(log->error, 0u) << "synchronization validation is off";
}

class VulkanRecord : public test::VulkanTest {};

TEST_F(VulkanRecord, LoadsThatFailAfterAllocatingLeaveNoGpuMemoryBehind) {
    TempDir dir;
    HeapMeshAllocator heap;
    Model monster = buildMonster(heap, MonsterParams{2, 3, 1});
    // A Grimrock animation cut short: every format binds it after decoding its meshes, and an
    // animation that cannot be read costs its clip, not the model (loader.h): the model holds its
    // GPU memory, with a warning naming the file, and gives all of it back.
    ASSERT_TRUE(findFormat("grimrock")->write(monster, dir.path / "cut.model"));
    std::vector<char> walk = readFile(dir.path / "cut_walk.animation");
    walk.resize(walk.size() / 2);
    writeFile(dir.path / "cut_walk.animation", walk);
    for (const Format* format : formats()) {
        SCOPED_TRACE(format->id);
        std::filesystem::path file = dir.path / (std::string("m_") + format->id + format->extension);
        Result<Companions> written = format->write(monster, file);
        ASSERT_TRUE(written) << written.error().message;
        LoadOptions options;
        options.anims = {dir.path / "cut_walk.animation"};
        options.skeleton = written->skeleton;
        CountingGpuAllocator allocator(device());
        {
            Result<Model> model = loadModel(file, options, allocator);
            ASSERT_TRUE(model) << model.error().message;
            bool said = false;
            for (const std::string& w : model->warnings)
                said = said || w.find("cut_walk.animation: offset") != std::string::npos;
            EXPECT_TRUE(said) << "no warning names the animation cut short";
            for (const Clip& clip : model->clips) EXPECT_NE(clip.source, "cut_walk.animation");
            EXPECT_GT(device().allocator().liveAllocations(), 0u);
        }
        EXPECT_GT(allocator.calls, 0);
        EXPECT_EQ(device().allocator().liveAllocations(), 0u);
    }

    // A SWTOR mesh whose first index is past its vertices fails inside the decoder, after its
    // storage was allocated.
    std::filesystem::path swtor = dir.path / "m_swtor.gr2";
    std::vector<char> bytes = readFile(swtor);
    uint32_t headers = 0, indices = 0;
    std::memcpy(&headers, bytes.data() + 0x54, 4);
    std::memcpy(&indices, bytes.data() + headers + 32, 4);
    bytes[indices] = bytes[indices + 1] = char(0xFF);
    writeFile(swtor, bytes);
    LoadOptions options;
    options.skeleton = dir.path / "m_swtor_skeleton.gr2";
    CountingGpuAllocator allocator(device());
    Result<Model> model = loadModel(swtor, options, allocator);
    ASSERT_FALSE(model);
    EXPECT_NE(model.error().message.find("indices: index 65535"), std::string::npos) << model.error().message;
    EXPECT_EQ(allocator.calls, 1);
    EXPECT_EQ(device().allocator().liveAllocations(), 0u);
}

TEST_F(VulkanRecord, AWaitThatOutlastsItsBoundIsADeviceError) {
    VkFenceCreateInfo info{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence = VK_NULL_HANDLE;
    VK_CHECK(vkCreateFence(device().get(), &info, nullptr, &fence));
    // Never submitted: from the host it looks exactly like a GPU that never finishes.
    try {
        device().waitForFence(fence, "the test fence", 1'000'000);
        ADD_FAILURE() << "the wait returned";
    } catch (const VulkanError& e) {
        EXPECT_EQ(e.result, VK_ERROR_DEVICE_LOST);
        EXPECT_STREQ(e.what(), "the test fence did not finish within 1 ms: the device is hung or lost");
    }
    vkDestroyFence(device().get(), fence, nullptr);
}
