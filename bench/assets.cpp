#include "bench_context.h"

#include <cstdio>
#include <filesystem>

#include <unistd.h>

#include "crowd_options.h"
#include "crowd_sources.h"
#include "folder_commands.h"

namespace horde::bench {

namespace {

// What loading prints (the models found, their scales) goes to stderr for its duration, so that
// stdout holds the benchmark's report alone (`--benchmark_format=json` parses).
class StdoutToStderr {
  public:
    StdoutToStderr() : saved_(dup(STDOUT_FILENO)) {
        std::fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);
    }
    ~StdoutToStderr() {
        std::fflush(stdout);
        dup2(saved_, STDOUT_FILENO);
        close(saved_);
    }
    StdoutToStderr(const StdoutToStderr&) = delete;
    StdoutToStderr& operator=(const StdoutToStderr&) = delete;

  private:
    int saved_;
};

} // namespace

bool Context::loadAssets(const std::string& path) {
    StdoutToStderr quiet;
    std::vector<ModelInput> inputs;
    if (std::filesystem::is_directory(path)) {
        inputs = animatedModels(path, FolderJobs{}, ModelInput{});
    } else {
        inputs.push_back(ModelInput{});
        inputs.back().model = path;
    }
    if (inputs.empty()) return false;
    textureAllocator = std::make_unique<GpuTextureAllocator>(*device);
    textures = std::make_unique<TextureLibrary>(*textureAllocator);
    std::vector<Model*> models;
    for (const ModelInput& input : inputs) {
        GpuMeshAllocator meshes(*device);
        Result<Model> model = input.load(meshes, textures.get());
        if (!model) {
            std::fprintf(stderr, "horde_bench: %s\n", model.error().message.c_str());
            return false;
        }
        assetModels.push_back(std::make_unique<Model>(std::move(*model)));
        models.push_back(assetModels.back().get());
    }
    // Sized as `horde crowd --model DIR` sizes them: a mixed crowd stands at one height.
    assetCrowdModels = horde::crowdModels(*device, models, crowdScales(models, inputs, "auto"));
    return true;
}

} // namespace horde::bench
