#pragma once
// The folder forms of info, convert and validate (cmd_*_folder.cpp): what a command's run calls
// when its model is a directory, on the folder library (tools/folders: scan, pairs, the thread
// pool, how the user spreads the work). A crowd's folders are tools/sources' (crowd_sources.h).
#include <string>
#include <vector>

#include "folder_input.h"
#include "folder_jobs.h"
#include "model_options.h"
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

} // namespace horde
