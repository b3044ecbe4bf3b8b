#pragma once
// The built-in creature: a deterministic many-legged monster with a real hierarchy, smooth
// four-influence skinning, several materials and two clips (walk, attack) keyed in translation,
// rotation and scale, some keys uniform and some at arbitrary times, one channel stepped. It is
// the default model of the CLI, the tests and the benchmarks; its size scales by parameters.
#include <cstdint>

#include "asset/model.h"

namespace horde {

struct MonsterParams {
    uint32_t legPairs = 8;     // one pair per spine segment
    uint32_t sides = 16;       // vertices around each tube ring
    uint32_t ringsPerBone = 6; // rings along each bone
};

// Vertex and index counts without building it (e.g. to size a benchmark).
MeshLayout monsterLayout(const MonsterParams& params);

// Writes the mesh through `allocator`, exactly as a loader does.
Model buildMonster(MeshAllocator& allocator, const MonsterParams& params = {});

} // namespace horde
