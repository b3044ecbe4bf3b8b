#pragma once
// The built-in creature: a deterministic many-legged monster with a real hierarchy, smooth
// four-influence skinning, several materials and two clips (walk, attack) keyed in translation,
// rotation and scale, some keys uniform and some at arbitrary times, one channel stepped. It is
// the default model of the CLI, the tests and the benchmarks; its size scales by parameters.
#include <cstdint>
#include <memory>

#include "model/model.h"

namespace horde {

// What a command's model argument names to mean this creature rather than a file.
inline constexpr const char* kMonsterName = "monster";

struct MonsterParams {
    uint32_t legPairs = 8;     // one pair per spine segment
    uint32_t sides = 16;       // vertices around each tube ring
    uint32_t ringsPerBone = 6; // rings along each bone
    // 4: each ring blends its bone, its neighbours and an anchor; 8: a wider blend over up to
    // six bones of its tube and the anchor, kept whole (the mesh's influences five to eight) to
    // exercise eight-influence skinning.
    uint32_t influences = 4;
    // Morph targets before skinning: target t swells the body along its normals in a band that
    // travels along it, and `walk` keys the weights so the swelling runs down the body each step
    // (a morphing mesh of the skinned one's vertex count, to measure what morphing costs).
    uint32_t morphTargets = 0;
};

// Vertex and index counts without building it (e.g. to size a benchmark).
MeshLayout monsterLayout(const MonsterParams& params);

// Writes the mesh through `allocator`, exactly as a loader does.
Model buildMonster(MeshAllocator& allocator, const MonsterParams& params = {});

// A generated skin: `size` x `size` RGBA8 (sRGB) rows of overlapping scales, every mip level down
// to 1x1. The built-in monster is drawn untextured; the frame benchmark gives it this skin to
// measure what texture sampling costs a crowd.
std::shared_ptr<const Texture> monsterSkin(uint32_t size = 256);
// Every material of `model` takes `skin` as its base texture, tinted per material so the parts
// still read apart.
void skinMonster(Model& model, std::shared_ptr<const Texture> skin);

} // namespace horde
