#include "model_options.h"

#include <map>

#include "vk/device.h"

namespace horde {

void DeviceChoice::addOptions(CLI::App& command) {
    validation = validationByDefault();
    command.add_option("--device", device,
                       "Vulkan device: index or part of its name (default: best GPU, else CPU)");
    command.add_flag("--validation,!--no-validation", validation, "Vulkan validation layers");
}

void addModelOptions(CLI::App& command, ModelInput& input, bool positional) {
    if (positional)
        command.add_option("model", input.model, "model file, or `monster` for the built-in creature")
            ->required();
    command.add_option("--skeleton", input.skeleton,
                       "separate skeleton file (EMI .sklb, SWTOR skeleton .gr2)");
    command.add_option("--anim", input.anims, "animation file(s) bound to the model by node name");
    command.add_option("--search-path", input.searchPaths,
                       "folders to look in for referenced files (supermodels, textures)");
    command.add_option("--materials", input.materials,
                       "material definition file(s): Grimrock Lua with defineMaterial{...} blocks");
}

void addVerboseOption(CLI::App& command, ModelInput& input) {
    command.add_flag("--verbose", input.verbose,
                     "warnings in full: each clip that keys nodes the model lacks, with those nodes");
}

void addCrowdModelOptions(CLI::App& command, ModelInput& shared) {
    addModelOptions(command, shared, false);
    // The values are read in the order given (crowdModelArgs), so the option keeps none itself.
    command
        .add_option("--model",
                    "model file(s) or folder(s) (every animated model in it, with its paired animations), or "
                    "`monster` (default); several share the crowd")
        ->expected(1, -1)
        ->allow_extra_args();
    const char* companion = " given after a --model, for that model; before any --model, for every model";
    command.get_option("--skeleton")
        ->description("separate skeleton file (EMI .sklb, SWTOR skeleton .gr2):" + std::string(companion));
    command.get_option("--anim")->description("animation file(s) bound by node name:" +
                                              std::string(companion));
    command.get_option("--materials")
        ->description("Grimrock Lua material file(s) with defineMaterial{...}:" + std::string(companion));
    command.add_option("--clips", shared.clips,
                       "PATTERN[,PATTERN...]: the clips a crowd plays, by name, pattern (* and ?, case ignored) or "
                       "@role (@idle, @walk, @run, @turn, @other, @left); default every clip but T-poses, deaths "
                       "and appear/disappear:" +
                           std::string(companion));
}

std::vector<CrowdModelArg> crowdModelArgs(const CLI::App& command, ModelInput& shared) {
    const CLI::Option* model = command.get_option("--model");
    const CLI::Option* skeleton = command.get_option("--skeleton");
    const CLI::Option* anim = command.get_option("--anim");
    const CLI::Option* materials = command.get_option("--materials");
    const CLI::Option* clips = command.get_option("--clips");
    // CLI11 lists every value it parsed, in order, as the option it belongs to.
    std::map<const CLI::Option*, size_t> taken;
    std::vector<CrowdModelArg> models;
    ModelInput all = shared;
    all.skeleton.clear();
    all.anims.clear();
    all.materials.clear();
    all.clips.clear();
    for (const CLI::Option* option : command.parse_order()) {
        const std::string& value = option->results().at(taken[option]++);
        if (option == model)
            models.push_back({value, {}, {}, {}, {}});
        else if (option == skeleton)
            (models.empty() ? all.skeleton : models.back().skeleton) = value;
        else if (option == anim)
            (models.empty() ? all.anims : models.back().anims).push_back(value);
        else if (option == materials)
            (models.empty() ? all.materials : models.back().materials).push_back(value);
        else if (option == clips)
            for (std::string_view rest = value; !rest.empty();) {
                const size_t comma = std::min(rest.find(','), rest.size());
                if (comma > 0) (models.empty() ? all.clips : models.back().clips).emplace_back(rest.substr(0, comma));
                rest.remove_prefix(std::min(comma + 1, rest.size()));
            }
    }
    shared = all;
    if (models.empty()) models.push_back({kMonsterName, {}, {}, {}, {}});
    return models;
}

void addFolderJobOptions(CLI::App& command, FolderJobs& jobs) {
    command.add_option("--jobs", jobs.jobs, "with a folder: files worked on at once (default: every core)")
        ->check(CLI::Range(1u, 4096u));
    command
        .add_option_function<std::string>(
            "--shard", [&jobs](const std::string& text) { jobs.shard = *parseShard(text); },
            "with a folder: do only the I-th of N slices (1-based, e.g. 2/4); every file falls in one slice")
        ->check([](const std::string& text) -> std::string {
            return parseShard(text) ? "" : "--shard takes I/N with 1 <= I <= N, e.g. 2/4";
        });
}

void addClipOptions(CLI::App& command, std::string& clip, double& time) {
    command.add_option("--clip", clip, "clip to pose (default: bind pose, or the first --anim clip)");
    command.add_option("--time", time,
                       "seconds into the clip; the end is inclusive (its duration gives the last key) and a "
                       "loop wraps only past it");
}

} // namespace horde
