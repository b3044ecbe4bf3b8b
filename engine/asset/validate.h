#pragma once
// Checks the asset model's invariants, so that every consumer may rely on them: loaders call
// it last and reject a model that breaks any (their input is untrusted).
#include "asset/model.h"
#include "core/result.h"

namespace horde {

Status validateModel(const Model& model);

} // namespace horde
