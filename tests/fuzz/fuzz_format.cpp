// libFuzzer target for one format (HORDE_FUZZ_FORMAT): raw bytes through the decoder, the
// asset model's finalize and validate steps, and the animation binder where the format has one.
// Built by the `fuzz` preset with clang; run by scripts/fuzz.
#include <cstddef>
#include <cstdint>
#include <span>

#include "asset/validate.h"
#include "loader.h"
#include "monster.h"

namespace {
// Animation files bind to a model by node name: the monster's skeleton is the target.
horde::Model skeletonTarget() {
    horde::HeapMeshAllocator heap;
    horde::Model monster = horde::buildMonster(heap, horde::MonsterParams{2, 3, 1});
    horde::Model target;
    target.nodes = monster.nodes;
    return target;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const horde::Format* const format = horde::findFormat(HORDE_FUZZ_FORMAT);
    static const horde::Model target = skeletonTarget();
    std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    std::string path = std::string("fuzz") + (format->extension ? format->extension : "");
    horde::HeapMeshAllocator heap;
    horde::Result<horde::Model> model = format->load(path, bytes, horde::LoadOptions{}, heap);
    if (model) {
        horde::finalizeMeshes(*model);
        (void)horde::validateModel(*model);
    }
    if (format->loadClips) {
        horde::Model bind;
        bind.nodes = target.nodes;
        (void)format->loadClips(path, bytes, bind);
    }
    return 0;
}
