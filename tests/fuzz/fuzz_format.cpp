// libFuzzer target for one format (HORDE_FUZZ_FORMAT): raw bytes through the decoder in every
// role (fuzz/exercise.h), each model then through the finish step every load ends with (format.h). A decode that asks
// for more mesh storage than the input can justify counts as a crash. Built by the `fuzz` preset
// with clang; run by scripts/fuzz.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "fuzz/exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const horde::fuzz::Exercise exercise(*horde::findFormat(HORDE_FUZZ_FORMAT));
    horde::fuzz::Outcome outcome = exercise.run(std::span(reinterpret_cast<const std::byte*>(data), size));
    if (!horde::fuzz::withinStorageBound(size, outcome.storageBytes)) {
        std::fprintf(stderr, "fuzz: a %zu-byte input asked for %llu bytes of mesh storage\n", size,
                     static_cast<unsigned long long>(outcome.storageBytes));
        std::abort();
    }
    return 0;
}
