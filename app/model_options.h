#pragma once
// What the commands that take a model accept on the command line: the model (a file, a folder or
// `monster`) and what completes it, the device, how folder work is spread, and the clip and time
// a single pose is taken at.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "crowd_sources.h"
#include "folder_jobs.h"
#include "model_input.h"

namespace horde {

// Exit codes users can script against.
enum ExitCode : int { kExitOk = 0, kExitUsage = 1, kExitBadInput = 2, kExitDevice = 3 };

struct DeviceChoice {
    std::string device;
    bool validation = false;
    void addOptions(CLI::App& command);
};

// The model (the positional argument, where `positional`) and --skeleton, --anim, --search-path,
// --materials.
void addModelOptions(CLI::App& command, ModelInput& input, bool positional = true);
// --verbose: every command that prints the model's warnings.
void addVerboseOption(CLI::App& command, ModelInput& input);

// A crowd's models: --model, any number of times, each completed by the --skeleton, --anim and
// --materials given after it; those given before any --model complete every model.
void addCrowdModelOptions(CLI::App& command, ModelInput& shared);
// After parsing: the --model values in the order given, each with its own companions, which are
// taken out of `shared` (what remains completes every model). No --model: the monster.
std::vector<CrowdModelArg> crowdModelArgs(const CLI::App& command, ModelInput& shared);

// --jobs and --shard.
void addFolderJobOptions(CLI::App& command, FolderJobs& jobs);

// --clip and --time of a single pose.
void addClipOptions(CLI::App& command, std::string& clip, double& time);

} // namespace horde
