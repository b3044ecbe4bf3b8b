#pragma once
// A model of a folder as the per-model commands take it: the file with what pairing found for it,
// and what the user gave every model of the folder.
#include <cstddef>
#include <vector>

#include "folder_pairs.h"
#include "model_input.h"

namespace horde {

// The load of model `index` with its pairs (skeleton, animations, supermodel folders), then the
// search paths and material files of `given` (the folder command's --search-path and
// --materials), then the folder itself as the last search path, as a single model's command
// takes them.
ModelInput inputFor(const Folder& folder, const std::vector<FilePairs>& pairs, size_t index,
                    const ModelInput& given);

} // namespace horde
