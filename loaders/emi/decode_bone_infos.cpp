// .meshb bone infos: (increment, joint, weight) entries grouped by vertex. An entry whose
// increment is 1 opens the next vertex (the first entry must); the entries up to the next
// opening are that vertex's influences (ScummVM EMIModel::prepareForRender).
//
// Walking them one entry at a time is a chain of hard-to-predict branches (a vertex has one to
// four entries). Instead a chunk of entries is split into a joint array and a weight array that
// stay in L1, plus the list of entries that open vertices; each vertex then reads its
// influences from those arrays as one window of four, and is reduced and stored once. Both
// steps run eight at a time in AVX2 where the CPU has it, and give the same bits as the plain
// path. Vertices with more than four influences take the general selection afterwards. When
// anything is wrong, a plain walk runs again from the start to name the first bad entry.
#include "emi/emi.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <utility>

#include "model/influences.h"
#include "avx2.h"

namespace horde::emi {

namespace {
constexpr size_t kEntryBytes = 12;
constexpr uint32_t kChunk = 512; // entries split at a time: a whole number of 64-bit words and of 8

struct Entry {
    uint32_t increment, joint;
    float weight;
};

Entry entryAt(std::span<const std::byte> infos, size_t i) {
    Entry e;
    std::memcpy(&e, infos.data() + kEntryBytes * i, kEntryBytes);
    return e;
}

struct Chunk {
    uint64_t opens[kChunk / 64];  // bit i: entry i opens a vertex
    uint32_t starts[kChunk + 1]; // the entries that open vertices, then the end of the last complete one
    // A window reads four entries from where its vertex opens: padded past the last one.
    alignas(32) uint16_t joints[kChunk + 8];
    alignas(32) float weights[kChunk + 8];
};

// One vertex of `n` (one to four) influences from entry `at`: the slots past them weigh
// nothing, so keepStrongestFour clears their joints. True when none has weight.
bool reduceVertex(const Chunk& c, uint32_t at, uint32_t n, glm::u16vec4& joints, glm::vec4& weights) {
    static constexpr uint32_t kSlots[5][4] = {{}, {~0u}, {~0u, ~0u}, {~0u, ~0u, ~0u}, {~0u, ~0u, ~0u, ~0u}};
    uint32_t bits[4];
    std::memcpy(bits, c.weights + at, sizeof bits);
    for (uint32_t k = 0; k < 4; ++k) bits[k] &= kSlots[n][k];
    glm::u16vec4 j;
    glm::vec4 w;
    std::memcpy(&j, c.joints + at, sizeof j);
    std::memcpy(&w, bits, sizeof w);
    keepStrongestFour(j, w);
    joints = j;
    weights = w;
    return w.x == 0.0f;
}

#if HORDE_AVX2_PATH
// Eight entries are three vectors holding their 24 fields in order. Field f of entry k is word
// 3k + f: as k runs over 0..7 those words fall in eight different lanes (3 and 8 share no
// factor), so two blends gather them and one permute puts them in entry order.
template <int kFromSecond, int kFromThird, int kField>
HORDE_AVX2 __m256i field(__m256i first, __m256i second, __m256i third) {
    const __m256i order = _mm256_setr_epi32(kField % 8, (3 + kField) % 8, (6 + kField) % 8, (9 + kField) % 8,
                                            (12 + kField) % 8, (15 + kField) % 8, (18 + kField) % 8, (21 + kField) % 8);
    return _mm256_permutevar8x32_epi32(_mm256_blend_epi32(_mm256_blend_epi32(first, second, kFromSecond), third, kFromThird), order);
}

// Entries eight at a time while eight are left; returns how many were split. `bones` >= 1.
HORDE_AVX2 uint32_t splitEights(const std::byte* in, uint32_t count, uint32_t bones, Chunk& out, bool& named) {
    const __m256i one = _mm256_set1_epi32(1), lastBone = _mm256_set1_epi32(int32_t(bones - 1));
    __m256i inRange = _mm256_set1_epi32(-1);
    uint32_t i = 0;
    for (; i + 8 <= count; i += 8, in += 8 * kEntryBytes) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32));
        const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 64));
        const __m256i increments = field<0x92, 0x24, 0>(a, b, c);
        const __m256i joints = field<0x24, 0x49, 1>(a, b, c);
        const __m256i weights = field<0x49, 0x92, 2>(a, b, c);
        const uint32_t opens = uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(increments, one))));
        out.opens[i / 64] |= uint64_t(opens) << (i % 64);
        inRange = _mm256_and_si256(inRange, _mm256_cmpeq_epi32(_mm256_min_epu32(joints, lastBone), joints));
        // Joints past 65535 saturate, and are past the bones anyway.
        const __m256i narrow = _mm256_permute4x64_epi64(_mm256_packus_epi32(joints, joints), 0x08);
        _mm_store_si128(reinterpret_cast<__m128i*>(out.joints + i), _mm256_castsi256_si128(narrow));
        _mm256_store_si256(reinterpret_cast<__m256i*>(out.weights + i), weights);
    }
    named = _mm256_movemask_epi8(inRange) == -1;
    return i;
}

// Four vectors of eight lanes, rows [v0 | v4] [v1 | v5] [v2 | v6] [v3 | v7] (a 128-bit half
// each), become one vector per slot with vertices v0..v7 in lane order; and back again.
HORDE_AVX2 void transpose(__m256& r0, __m256& r1, __m256& r2, __m256& r3) {
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1);
    const __m256 t2 = _mm256_unpacklo_ps(r2, r3), t3 = _mm256_unpackhi_ps(r2, r3);
    r0 = _mm256_shuffle_ps(t0, t2, 0x44);
    r1 = _mm256_shuffle_ps(t0, t2, 0xEE);
    r2 = _mm256_shuffle_ps(t1, t3, 0x44);
    r3 = _mm256_shuffle_ps(t1, t3, 0xEE);
}

HORDE_AVX2 __m256 windows(const Chunk& c, const uint32_t* at, int k) { return _mm256_loadu2_m128(c.weights + at[k + 4], c.weights + at[k]); }

HORDE_AVX2 __m256i jointWindows(const Chunk& c, const uint32_t* at) {
    uint64_t j[4];
    for (int k = 0; k < 4; ++k) std::memcpy(&j[k], c.joints + at[k], sizeof j[k]);
    return _mm256_setr_epi64x(int64_t(j[0]), int64_t(j[1]), int64_t(j[2]), int64_t(j[3]));
}

// keepStrongestFour's shortcut on eight vertices (slots strongest first with weight are only
// renormalized, with the same additions in the same order); the others take reduceVertex.
// Runs from vertex `i` while eight are left and none of them has more than four influences;
// returns where it stopped.
HORDE_AVX2 uint32_t reduceEights(const Chunk& c, uint32_t i, uint32_t complete, glm::u16vec4* joints, glm::vec4* weights,
                                 uint32_t& unbound) {
    const __m256 zero = _mm256_setzero_ps(), largest = _mm256_set1_ps(3.4e38f);
    for (; i + 8 <= complete; i += 8) {
        const uint32_t* at = c.starts + i;
        const __m256i n = _mm256_sub_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 1)),
                                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
        if (!_mm256_testz_si256(_mm256_cmpgt_epi32(n, _mm256_set1_epi32(4)), _mm256_set1_epi32(-1))) break;
        __m256 w0 = windows(c, at, 0), w1 = windows(c, at, 1), w2 = windows(c, at, 2), w3 = windows(c, at, 3);
        transpose(w0, w1, w2, w3);
        w1 = _mm256_and_ps(w1, _mm256_castsi256_ps(_mm256_cmpgt_epi32(n, _mm256_set1_epi32(1))));
        w2 = _mm256_and_ps(w2, _mm256_castsi256_ps(_mm256_cmpgt_epi32(n, _mm256_set1_epi32(2))));
        w3 = _mm256_and_ps(w3, _mm256_castsi256_ps(_mm256_cmpgt_epi32(n, _mm256_set1_epi32(3))));
        const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(w0, w1), w2), w3);
        const __m256 sorted = _mm256_and_ps(
            _mm256_and_ps(_mm256_and_ps(_mm256_cmp_ps(w0, w1, _CMP_GE_OQ), _mm256_cmp_ps(w1, w2, _CMP_GE_OQ)),
                          _mm256_and_ps(_mm256_cmp_ps(w2, w3, _CMP_GE_OQ), _mm256_cmp_ps(w3, zero, _CMP_GE_OQ))),
            _mm256_and_ps(_mm256_cmp_ps(w0, largest, _CMP_LE_OQ), _mm256_cmp_ps(sum, zero, _CMP_GT_OQ)));

        // Joints of slots with weight, as each vertex's four 16-bit lanes.
        const __m256i held02 = _mm256_packs_epi32(_mm256_castps_si256(_mm256_cmp_ps(w0, zero, _CMP_GT_OQ)),
                                                  _mm256_castps_si256(_mm256_cmp_ps(w2, zero, _CMP_GT_OQ)));
        const __m256i held13 = _mm256_packs_epi32(_mm256_castps_si256(_mm256_cmp_ps(w1, zero, _CMP_GT_OQ)),
                                                  _mm256_castps_si256(_mm256_cmp_ps(w3, zero, _CMP_GT_OQ)));
        const __m256i low = _mm256_unpacklo_epi16(held02, held13), high = _mm256_unpackhi_epi16(held02, held13);
        const __m256i held01 = _mm256_unpacklo_epi32(low, high), held23 = _mm256_unpackhi_epi32(low, high);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(joints + i),
                            _mm256_and_si256(jointWindows(c, at), _mm256_permute2x128_si256(held01, held23, 0x20)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(joints + i + 4),
                            _mm256_and_si256(jointWindows(c, at + 4), _mm256_permute2x128_si256(held01, held23, 0x31)));

        w0 = _mm256_add_ps(_mm256_div_ps(w0, sum), zero); // + 0 turns a -0 slot into the +0 keepStrongestFour leaves
        w1 = _mm256_add_ps(_mm256_div_ps(w1, sum), zero);
        w2 = _mm256_add_ps(_mm256_div_ps(w2, sum), zero);
        w3 = _mm256_add_ps(_mm256_div_ps(w3, sum), zero);
        transpose(w0, w1, w2, w3);
        float* out = &weights[i].x;
        _mm256_storeu_ps(out, _mm256_permute2f128_ps(w0, w1, 0x20));
        _mm256_storeu_ps(out + 8, _mm256_permute2f128_ps(w2, w3, 0x20));
        _mm256_storeu_ps(out + 16, _mm256_permute2f128_ps(w0, w1, 0x31));
        _mm256_storeu_ps(out + 24, _mm256_permute2f128_ps(w2, w3, 0x31));

        for (uint32_t lanes = ~uint32_t(_mm256_movemask_ps(sorted)) & 0xFF; lanes != 0; lanes &= lanes - 1) {
            const uint32_t k = uint32_t(std::countr_zero(lanes));
            unbound += reduceVertex(c, at[k], at[k + 1] - at[k], joints[i + k], weights[i + k]);
        }
    }
    return i;
}
#else
uint32_t splitEights(const std::byte*, uint32_t, uint32_t, Chunk&, bool& named) {
    named = true;
    return 0;
}
uint32_t reduceEights(const Chunk&, uint32_t i, uint32_t, glm::u16vec4*, glm::vec4*, uint32_t&) { return i; }
#endif

// Entries [first, first + count) into `out`; false when one names a joint past `bones`.
bool split(std::span<const std::byte> infos, size_t first, uint32_t count, uint32_t bones, bool vector, Chunk& out) {
    std::fill(std::begin(out.opens), std::end(out.opens), 0);
    const std::byte* in = infos.data() + kEntryBytes * first;
    bool named = true;
    uint64_t opens = 0; // gathered a word at a time: or-ing each bit into memory would chain every entry to the last
    for (uint32_t i = vector ? splitEights(in, count, bones, out, named) : 0; i < count; ++i) {
        const Entry e = entryAt(infos, first + i);
        opens |= uint64_t(e.increment == 1) << (i % 64);
        out.joints[i] = uint16_t(e.joint);
        out.weights[i] = e.weight;
        named &= e.joint < bones;
        if (i % 64 == 63 || i + 1 == count) out.opens[i / 64] |= std::exchange(opens, 0);
    }
    return named;
}

// Lists where the vertices open in the chunk's `n` entries (the first opens one) and returns how
// many of them are complete: all when the chunk holds the last entry, else all but the last.
uint32_t findVertices(Chunk& c, uint32_t n, bool last) {
    uint32_t found = 0;
    for (uint32_t word = 0; word * 64 < n; ++word)
        for (uint64_t bits = c.opens[word]; bits != 0; bits &= bits - 1) c.starts[found++] = word * 64 + uint32_t(std::countr_zero(bits));
    if (last) c.starts[found++] = n;
    return found - 1;
}

// Bones the skeleton lacks: their entries keep their place with no weight, which the reduction
// drops exactly as if they were absent.
void mapJoints(std::span<const int32_t> jointOf, uint32_t count, Chunk& c) {
    for (uint32_t i = 0; i < count; ++i) {
        const int32_t joint = jointOf[c.joints[i]];
        c.joints[i] = uint16_t(std::max(joint, 0));
        c.weights[i] = joint < 0 ? 0.0f : c.weights[i];
    }
}

// Names the first bad entry, walking them as the format describes.
bool failFirstBadEntry(Reader& r, std::span<const std::byte> infos, size_t infosAt, size_t vertices, size_t bones) {
    int64_t vertex = -1;
    for (size_t i = 0; i < infos.size() / kEntryBytes; ++i) {
        const size_t at = infosAt + kEntryBytes * i;
        const Entry e = entryAt(infos, i);
        if (e.increment == 1 && ++vertex >= int64_t(vertices))
            return r.failAt(at, "bone info increment", "bone info " + std::to_string(i) + " moves past the last vertex (" +
                                                           std::to_string(vertices) + " vertices)");
        if (vertex < 0) return r.failAt(at, "bone info increment", "the first bone info does not move to vertex 0 (increment must be 1)");
        if (e.joint >= bones)
            return r.failAt(at + 4, "bone info joint", std::to_string(e.joint) + " is past the bone count " + std::to_string(bones));
    }
    return r.failAt(infosAt, "bone infos", "are inconsistent");
}

// A vertex with more than four influences, from its opening entry `at`: the general selection.
FourInfluences selectCrowded(std::span<const std::byte> infos, size_t at, std::span<const int32_t> jointOf,
                             std::vector<Influence>& influences) {
    influences.clear();
    const size_t count = infos.size() / kEntryBytes;
    for (size_t i = at; i < count && (i == at || entryAt(infos, i).increment != 1); ++i) {
        const Entry e = entryAt(infos, i);
        if (jointOf[e.joint] >= 0) influences.push_back({uint32_t(jointOf[e.joint]), e.weight});
    }
    return strongestFour(influences);
}
} // namespace

bool decodeBoneInfos(Reader& r, std::span<const std::byte> infos, size_t infosAt, std::span<const int32_t> jointOf,
                     MeshArrays& a, InfluenceReport& report) {
    const size_t count = infos.size() / kEntryBytes, vertices = a.joints.size();
    glm::u16vec4* const joints = a.joints.data();
    glm::vec4* const weights = a.weights.data();
    const uint32_t bones = uint32_t(jointOf.size());
    const bool allNamed = std::none_of(jointOf.begin(), jointOf.end(), [](int32_t j) { return j < 0; });
    const bool vector = cpuHasAvx2();
    auto fail = [&] { return failFirstBadEntry(r, infos, infosAt, vertices, bones); };
    if (count > 0 && (bones == 0 || entryAt(infos, 0).increment != 1)) return fail();

    std::vector<std::pair<size_t, size_t>> crowded; // vertices with more than four influences: (vertex, opening entry)
    Chunk chunk{};
    size_t vertex = 0;
    uint32_t unbound = 0;
    // Every chunk starts where a vertex opens; the vertex still open at its end starts the next.
    for (size_t first = 0; first < count;) {
        const uint32_t n = uint32_t(std::min<size_t>(kChunk, count - first));
        if (!split(infos, first, n, bones, vector, chunk)) return fail();
        if (!allNamed) mapJoints(jointOf, n, chunk);
        const uint32_t complete = findVertices(chunk, n, first + n == count);
        if (complete == 0) {
            // One vertex fills the whole chunk: find where the next one opens, checking its joints.
            size_t next = first + n;
            for (; next < count && entryAt(infos, next).increment != 1; ++next)
                if (entryAt(infos, next).joint >= bones) return fail();
            if (vertex == vertices) return fail();
            crowded.push_back({vertex++, first});
            first = next;
            continue;
        }
        if (complete > vertices - vertex) return fail();
        // The vector path stops short of a group holding a crowded vertex: the plain path takes
        // that group, or the last few vertices, and hands back.
        for (uint32_t i = 0; i < complete;) {
            if (vector) i = reduceEights(chunk, i, complete, joints + vertex, weights + vertex, unbound);
            for (const uint32_t end = std::min(complete, i + 8); i < end; ++i) {
                const uint32_t at = chunk.starts[i], size = chunk.starts[i + 1] - at;
                if (size <= 4)
                    unbound += reduceVertex(chunk, at, size, joints[vertex + i], weights[vertex + i]);
                else
                    crowded.push_back({vertex + i, first + at});
            }
        }
        vertex += complete;
        first += chunk.starts[complete];
    }
    report.unbound = unbound + uint32_t(vertices - vertex);
    std::fill(a.joints.begin() + ptrdiff_t(vertex), a.joints.end(), glm::u16vec4(0));
    std::fill(a.weights.begin() + ptrdiff_t(vertex), a.weights.end(), glm::vec4(0.0f));

    std::vector<Influence> influences;
    for (auto [v, at] : crowded) {
        const FourInfluences four = selectCrowded(infos, at, jointOf, influences);
        a.joints[v] = four.joints;
        a.weights[v] = four.weights;
        report.unbound += four.weights.x == 0.0f;
        report.reduced += four.dropped > 0;
        report.droppedMax = std::max(report.droppedMax, four.droppedMax);
    }
    return true;
}

} // namespace horde::emi
