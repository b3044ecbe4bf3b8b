#pragma once
// A model of a folder as the per-model commands take it: the file with what pairing found for it.
#include <cstddef>
#include <vector>

#include "folder_pairs.h"
#include "model_input.h"

namespace horde {

// The load of model `index` with its pairs: skeleton, animations, supermodel folders.
ModelInput inputFor(const Folder& folder, const std::vector<FilePairs>& pairs, size_t index);

} // namespace horde
