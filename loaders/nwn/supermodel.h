#pragma once
// Supermodels: a model names the model it inherits animations from, which may name its own.
// Clips the model does not define itself (by name, case-insensitively) are taken from the
// first model in the chain that has them, their positions multiplied by the animation scales
// of the models below it in the chain.
#include <filesystem>

#include "asset/model.h"
#include "format.h"
#include "nwn/nwn.h"

namespace horde::nwn {

constexpr int kMaxSupermodelChain = 32;

// `<name>.mdl` (any letter case) beside `model`, else in a search path; empty when absent.
std::filesystem::path findSupermodel(const std::filesystem::path& model, const std::string& name,
                                     const std::vector<std::filesystem::path>& searchPaths);

// A supermodel that cannot be found is a warning (its clips are missing); one that cannot be
// read, or a chain that loops, is an error.
Status inheritClips(const std::filesystem::path& path, const ModelHeader& header, const LoadOptions& options, Model& model);

} // namespace horde::nwn
