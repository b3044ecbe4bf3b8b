#pragma once
// The folder forms of info, convert, validate and crowd (cmd_*_folder.cpp): what a command's
// run calls when its model is a directory, and what they share: the folder library
// (app/folders: scan, pairs, the thread pool) and how the user spreads the work (folder_jobs.h).
#include <string>
#include <vector>

#include "folder_input.h"
#include "folder_jobs.h"
#include "model_input.h"
#include "thread_pool.h"

namespace horde {

// `folder.model` names the folder; its --search-path and --materials complete every model of it
// (folder_input.h).
int runInfoFolder(const ModelInput& folder, bool json, const FolderJobs& jobs);
int runConvertFolder(const ModelInput& folder, const std::string& to, const std::string& out,
                     const FolderJobs& jobs);

struct ValidateFolderArgs {
    ModelInput source; // the source folder, with the search paths and material files given
    std::string converted, report;
    std::vector<std::string> merge;       // shard report folders to join instead of validating
    std::vector<std::string> passThrough; // options every per-model validate gets (device, thresholds)
    FolderJobs jobs;
};
int runValidateFolder(const ValidateFolderArgs& args);

// The animated models of a folder, each with its pairs and `given`'s search paths and material
// files, for a crowd; empty (with the reason printed) when it has none.
std::vector<ModelInput> animatedModels(const std::string& dir, const FolderJobs& jobs,
                                       const ModelInput& given);

} // namespace horde
