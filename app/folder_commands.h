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

int runInfoFolder(const std::string& dir, bool json, const FolderJobs& jobs);
int runConvertFolder(const std::string& dir, const std::string& to, const std::string& out,
                     const FolderJobs& jobs);

struct ValidateFolderArgs {
    std::string source, converted, report;
    std::vector<std::string> merge;       // shard report folders to join instead of validating
    std::vector<std::string> passThrough; // options every per-model validate gets (device, thresholds)
    FolderJobs jobs;
};
int runValidateFolder(const ValidateFolderArgs& args);

// The animated models of a folder, each with its pairs, for a crowd; empty (with the reason
// printed) when it has none.
std::vector<ModelInput> animatedModels(const std::string& dir, const FolderJobs& jobs);

} // namespace horde
