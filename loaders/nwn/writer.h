#pragma once
// Writes a model as a binary MDL: a root dummy named after the file, one node per model node
// (rest TRS as static controllers), each mesh as trimesh nodes (static) or skin nodes (skinned,
// split so that no skin node uses more than the 17 bones its table holds), and every clip as an
// in-file animation with keys at the clip's own times.
#include <filesystem>

#include "asset/model.h"
#include "core/result.h"

namespace horde::nwn {

Status writeModel(const Model& model, const std::filesystem::path& path);

} // namespace horde::nwn
