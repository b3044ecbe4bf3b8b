#pragma once
// What every benchmark of one run shares: the Vulkan device, the models at each size, and the
// device's own copy bandwidth (the yardstick for each pass), measured once in the same run.
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "crowd_sources.h"
#include "model/model.h"
#include "monster.h"
#include "render/crowd_model.h"
#include "texture/texture.h"
#include "vk/device.h"
#include "vk/gpu_mesh.h"
#include "vk/gpu_texture.h"

namespace horde::bench {

// A folder of this run's own under the system's temporary folder, removed with the run: two runs
// at once never write each other's files.
class ScratchDir {
  public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

struct Context {
    bool quick = false;
    ScratchDir scratch; // files the decode benchmarks write and read back
    std::unique_ptr<Device> device;
    std::unique_ptr<GpuMeshAllocator> allocator;
    // By size, influences and whether it wears the generated skin (monsterSkin).
    using MonsterKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, bool>;
    std::map<MonsterKey, Model> monsters;
    std::map<MonsterKey, std::unique_ptr<CrowdModel>> crowdModels;
    // --assets: the user's animated models (a folder's, or one file) with their textures, sized
    // as `horde crowd --model` sizes them; none without the flag, and then no crowd_assets rows.
    std::unique_ptr<GpuTextureAllocator> textureAllocator;
    std::unique_ptr<TextureLibrary> textures;
    CrowdSources assets;
    std::vector<std::unique_ptr<CrowdModel>> assetCrowdModels;
    // Per asset model with morph targets, the same model drawn without them (its tables' targets
    // left out): what a morphing crowd is compared with in `morph_ratio/`.
    std::vector<std::unique_ptr<CrowdModel>> unmorphedAssets;
    double copyBytesPerSecond = 0.0; // read + write, over a 64 MiB buffer
    uint32_t failures = 0;           // benchmarks that could not run: the run fails

    Model& monster(const MonsterParams& params, bool skinned = false);
    // The monster made ready for crowds (LOD chains, motion bounds), once per run.
    const CrowdModel& crowdMonster(const MonsterParams& params, bool skinned = false);
    // Loads `path`'s animated models into assetCrowdModels, as `horde crowd --model PATH` does;
    // false (with the reason printed) when it holds none or the file given fails to load.
    bool loadAssets(const std::string& path);
};

// The plain copy kernel over `bytes`, timed by timestamps: bytes read plus bytes written per
// second.
double measureCopyBandwidth(Device& device, uint64_t bytes);

void registerFrameBenchmarks(Context& context);
void registerDecodeBenchmarks(Context& context);
void registerCpuBenchmarks(Context& context);
void registerLodBenchmarks(Context& context);
void registerTextureBenchmarks(Context& context);

} // namespace horde::bench
