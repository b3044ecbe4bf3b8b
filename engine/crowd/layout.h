#pragma once
// Where a crowd's instances stand: a deterministic grid with varied clips, phases, speeds and
// headings, shared by every model of a mixed crowd.
#include <span>
#include <vector>

#include "model/model.h"
#include "shaders/gpu_types.h"

namespace horde {

// Instance i is model i % models.size(); one list per model.
std::vector<std::vector<gpu::InstanceRecord>> mixedGrid(std::span<const Model* const> models, uint32_t count,
                                                        uint32_t seed = 1);
std::vector<gpu::InstanceRecord> gridInstances(const Model& model, uint32_t count, uint32_t seed = 1);

} // namespace horde
