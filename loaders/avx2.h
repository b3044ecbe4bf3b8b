#pragma once
// The loaders' vector paths are AVX2, chosen at run time (Intel Core since 2013, AMD since
// 2015); x86-64 CPUs without it, and other CPUs, take the plain paths, as does any CPU when
// HORDE_PLAIN_PATHS is set (the tests run both; a user can compare them). Only functions marked
// HORDE_AVX2 are compiled for it, so nothing else in the program can pick up AVX2 code. No FMA:
// every vector operation rounds as the plain path's scalar one does.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HORDE_AVX2_PATH 1
#define HORDE_AVX2 __attribute__((target("avx2")))
#include <immintrin.h>
#else
#define HORDE_AVX2_PATH 0
#endif

#include <cstdlib>

namespace horde {

inline bool cpuHasAvx2() {
#if HORDE_AVX2_PATH
    return __builtin_cpu_supports("avx2") && std::getenv("HORDE_PLAIN_PATHS") == nullptr;
#else
    return false;
#endif
}

} // namespace horde
