#pragma once
// Checks the asset model's invariants, so that every consumer may rely on them: loaders call
// it last and reject a model that breaks any (their input is untrusted).
#include <cmath>

#include <glm/glm.hpp>

#include "model/model.h"
#include "core/result.h"

namespace horde {

Status validateModel(const Model& model);

// Whether every component is a number (neither NaN nor infinite): what validateModel asks of
// every value, and what decoders check as they read.
inline bool finite(glm::vec4 v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) && std::isfinite(v.w);
}
inline bool finite(const glm::mat4& m) {
    return finite(m[0]) && finite(m[1]) && finite(m[2]) && finite(m[3]);
}

} // namespace horde
