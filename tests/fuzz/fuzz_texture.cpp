// libFuzzer target for one texture kind (HORDE_FUZZ_TEXTURE): raw bytes through the texture
// readers, a broken promise (fuzz/texture_input.h) counting as a crash. Built by the `fuzz`
// preset with clang; run by scripts/fuzz.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "fuzz/texture_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string broken = horde::fuzz::exerciseTexture(HORDE_FUZZ_TEXTURE, std::span(reinterpret_cast<const std::byte*>(data), size));
    if (!broken.empty()) {
        std::fprintf(stderr, "fuzz: %s\n", broken.c_str());
        std::abort();
    }
    return 0;
}
