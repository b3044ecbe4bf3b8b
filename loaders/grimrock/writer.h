#pragma once
// Writes a model as MDL1 and each of its clips as an ANIM file beside it.
#include <filesystem>

#include "asset/model.h"
#include "conversion.h"
#include "core/result.h"

namespace horde::grimrock {

Status writeModel(const Model& model, const Conversion& conversion, const std::filesystem::path& path);
Status writeAnimation(const Model& model, const Clip& clip, const Conversion& conversion, const std::filesystem::path& path);
// `m.model` -> `m_<clip>.animation`, the clip name reduced to characters safe in file names.
std::filesystem::path animationPath(const std::filesystem::path& modelPath, const std::string& clipName);

} // namespace horde::grimrock
