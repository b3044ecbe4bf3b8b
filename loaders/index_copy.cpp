#include "index_copy.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace horde {

namespace {
// The first `count` indices one at a time, from `done` on; `bad` carries what came before.
template <class In, class Out> bool copyEach(Out* out, const std::byte* in, size_t done, size_t count, uint32_t vertexCount, bool bad) {
    for (size_t i = done; i < count; ++i) {
        In index;
        std::memcpy(&index, in + sizeof(In) * i, sizeof(In));
        out[i] = Out(index);
        bad |= uint32_t(index) >= vertexCount;
    }
    return !bad;
}

#if defined(__SSE2__)
// SSE2 compares only signed lanes: flipping the top bit of both sides orders them as unsigned.
template <class Lane> __m128i flipTop() { return sizeof(Lane) == 2 ? _mm_set1_epi16(-0x8000) : _mm_set1_epi32(int32_t(0x80000000u)); }

void put(void* at, __m128i v, bool stream) {
    if (stream) _mm_stream_si128(static_cast<__m128i*>(at), v);
    else _mm_storeu_si128(static_cast<__m128i*>(at), v);
}

// With In wider than Out, eight 32-bit indices are packed into each 16-byte store; packing
// would saturate values past 65535, but those fail the check, which runs on the 32-bit values.
template <class In, class Out> bool copyVectors(Out* out, const std::byte* in, size_t count, uint32_t vertexCount, bool stream) {
    constexpr size_t kPerStore = 16 / sizeof(Out);
    const size_t vectors = count / kPerStore;
    stream = stream && aligned16(out);
    // Any index above `last` (as unsigned) is out of range; no vertices makes every one so.
    const __m128i flip = flipTop<In>();
    const uint32_t highest = uint32_t(std::min<uint64_t>(vertexCount, uint64_t(1) << (8 * sizeof(In))) - 1);
    const __m128i last = _mm_xor_si128(sizeof(In) == 2 ? _mm_set1_epi16(int16_t(highest)) : _mm_set1_epi32(int32_t(highest)), flip);
    const bool none = vertexCount == 0 && count > 0;
    __m128i bad = _mm_setzero_si128();
    const auto above = [&](__m128i v) {
        return sizeof(In) == 2 ? _mm_cmpgt_epi16(_mm_xor_si128(v, flip), last) : _mm_cmpgt_epi32(_mm_xor_si128(v, flip), last);
    };
    for (size_t i = 0; i < vectors; ++i) {
        const __m128i* at = reinterpret_cast<const __m128i*>(in + 16 * i * (sizeof(In) / sizeof(Out)));
        __m128i v = _mm_loadu_si128(at);
        bad = _mm_or_si128(bad, above(v));
        if constexpr (sizeof(In) != sizeof(Out)) {
            const __m128i high = _mm_loadu_si128(at + 1);
            bad = _mm_or_si128(bad, above(high));
            // Biased into signed range so that packing keeps 0..65535, then unbiased.
            const __m128i bias = _mm_set1_epi32(0x8000);
            v = _mm_xor_si128(_mm_packs_epi32(_mm_sub_epi32(v, bias), _mm_sub_epi32(high, bias)), _mm_set1_epi16(-0x8000));
        }
        put(out + kPerStore * i, v, stream);
    }
    if (stream) _mm_sfence();
    return copyEach<In>(out, in, vectors * kPerStore, count, vertexCount, none || _mm_movemask_epi8(bad) != 0);
}
#endif

template <class In, class Out> bool copyIndices(std::span<Out> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream) {
#if defined(__SSE2__)
    return copyVectors<In>(out.data(), in.data(), out.size(), vertexCount, stream);
#else
    return copyEach<In>(out.data(), in.data(), 0, out.size(), vertexCount, false);
#endif
}
} // namespace

bool copyIndices16(std::span<uint16_t> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream) {
    return copyIndices<uint16_t>(out, in, vertexCount, stream);
}

bool copyIndices32(std::span<uint32_t> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream) {
    return copyIndices<uint32_t>(out, in, vertexCount, stream);
}

bool narrowIndices32(std::span<uint16_t> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream) {
    return copyIndices<uint32_t>(out, in, vertexCount, stream);
}

} // namespace horde
