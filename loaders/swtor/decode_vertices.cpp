// One pass over the interleaved vertices, eight at a time in AVX2 registers where the CPU has
// them, each vertex otherwise (and for the last few). Both give the same values bit for bit:
// vector adds, multiplies, divides and square roots round exactly like scalar floats, and no
// multiply is fused into an add (the vector code is not compiled for FMA).
//
// Both vectors and weights are scaled after decoding (to unit length, to a sum of one), so the
// bytes' own scale factors (1/127, 1/255) cancel and are never applied: the integers go
// straight into the scaling, one rounding and several divisions fewer a vertex.
#include "swtor/swtor.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "model/influences.h"
#include "avx2.h"
#include "index_copy.h"

namespace horde::swtor {

namespace {
// Where each field starts inside a vertex, or -1 when the mask leaves it out.
struct VertexFields {
    int skin = -1, normal = -1, uv[2] = {-1, -1};
};

VertexFields vertexFields(uint16_t mask) {
    VertexFields f;
    int at = 12;
    if (mask & kSkin) f.skin = at, at += 8;
    if (mask & kNormalTangent) f.normal = at, at += 8;
    if (mask & kColour) at += 4; // no colour stream in the engine
    int set = 0;
    for (uint16_t uv : kUvSets) {
        if (!(mask & uv)) continue;
        if (set < 2) f.uv[set] = at; // a third set is dropped (with a warning where the mesh is read)
        ++set, at += 4;
    }
    return f;
}

// What one vertex's bytes mean. The fourth normal byte is padding; the fourth tangent byte is
// the bitangent sign (255 = +1, 0 = -1). Vectors are scaled to unit length; zero stays zero.
glm::vec3 unitLength(glm::vec3 v) {
    const float squared = v.x * v.x + v.y * v.y + v.z * v.z;
    const float inverse = 1.0f / std::sqrt(std::max(squared, FLT_MIN));
    return v * (squared > 0.0f ? inverse : 1.0f);
}

// The direction of (b - 127) / 127, from its integer numerators.
glm::vec3 unitBytes(const std::byte* p) {
    return unitLength(glm::vec3(int(uint8_t(p[0])) - 127, int(uint8_t(p[1])) - 127, int(uint8_t(p[2])) - 127));
}

// Only bones that carry weight must exist; zero-weight slots often hold junk. The slot that
// names a missing bone, or 4.
size_t unnamedSlot(const std::byte* skin, size_t bones) {
    size_t k = 0;
    while (k < 4 && !(uint8_t(skin[k]) > 0 && uint8_t(skin[4 + k]) >= bones)) ++k;
    return k;
}

bool failBone(Reader& r, const MeshInfo& m, const std::byte* vertex, size_t v, size_t field) {
    const size_t slot = unnamedSlot(vertex + field, m.bones.size());
    const uint8_t bone = uint8_t(vertex[field + 4 + slot]);
    return r.failAt(m.offsetVertices + v * m.vertexSize + field + 4 + slot, "vertex.boneIndices",
                    "vertex " + std::to_string(v) + " names bone " + std::to_string(bone) + " but mesh '" + m.name + "' lists " +
                        std::to_string(m.bones.size()) + " bones");
}

// Weights b / 255 renormalized are b / (sum of b): the bytes themselves go to keepStrongestFour.
void decodeSkin(const std::byte* p, glm::u16vec4& joints, glm::vec4& weights) {
    weights = glm::vec4(uint8_t(p[0]), uint8_t(p[1]), uint8_t(p[2]), uint8_t(p[3]));
    joints = glm::u16vec4(uint8_t(p[4]), uint8_t(p[5]), uint8_t(p[6]), uint8_t(p[7]));
    keepStrongestFour(joints, weights);
}

uint16_t halfAt(const std::byte* p) {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return h;
}

bool decodeVertex(Reader& r, const MeshInfo& m, const VertexFields& f, const std::byte* in, size_t v, MeshArrays& a) {
    const std::byte* p = in + v * m.vertexSize;
    std::memcpy(&a.positions[v], p, sizeof(glm::vec3));
    if (!a.joints.empty() && f.skin >= 0) {
        if (unnamedSlot(p + f.skin, m.bones.size()) < 4) return failBone(r, m, p, v, size_t(f.skin));
        decodeSkin(p + f.skin, a.joints[v], a.weights[v]);
    }
    if (f.normal >= 0) {
        a.normals[v] = unitBytes(p + f.normal);
        a.tangents[v] = glm::vec4(unitBytes(p + f.normal + 4), uint8_t(p[f.normal + 7]) >= 128 ? 1.0f : -1.0f);
    }
    glm::vec2* uvs[2] = {a.uv0.data(), a.uv1.data()};
    for (int set = 0; set < 2; ++set)
        if (f.uv[set] >= 0) uvs[set][v] = glm::vec2(halfToFloat(halfAt(p + f.uv[set])), halfToFloat(halfAt(p + f.uv[set] + 2)));
    return true;
}

#if HORDE_AVX2_PATH
// Four consecutive vertices, gathered field by field: lane i of a 128-bit register holds
// vertex i's value. Every stream gets whole 16-byte stores (four vertices' vec3s are three), so
// that a large file's streams can be written around the caches.
struct Four {
    const std::byte* p; // the first of the four vertices
    size_t stride;

    const std::byte* at(size_t i, size_t field) const { return p + i * stride + field; }
    // The 32-bit word at `field` of each vertex.
    HORDE_AVX2 __m128i words(size_t field) const {
        const auto word = [&](size_t i) { return _mm_loadu_si32(at(i, field)); };
        return _mm_unpacklo_epi64(_mm_unpacklo_epi32(word(0), word(1)), _mm_unpacklo_epi32(word(2), word(3)));
    }
    // The words at `field` and `field + 4` of each vertex, read as one 8-byte load per vertex.
    HORDE_AVX2 void wordPairs(size_t field, __m128i& first, __m128i& second) const {
        const auto pair = [&](size_t i) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(at(i, field))); };
        const __m128i low = _mm_unpacklo_epi32(pair(0), pair(1)), high = _mm_unpacklo_epi32(pair(2), pair(3));
        first = _mm_unpacklo_epi64(low, high);
        second = _mm_unpackhi_epi64(low, high);
    }
    // Vertex i's position as x, y, z and whatever follows: one load when the vertex is long
    // enough, else x, y, z, 0 without reading past its 12 bytes.
    HORDE_AVX2 __m128 position(size_t i) const {
        if (stride >= 16) return _mm_loadu_ps(reinterpret_cast<const float*>(at(i, 0)));
        return _mm_castsi128_ps(_mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at(i, 0))), _mm_loadu_si32(at(i, 8))));
    }
};

HORDE_AVX2 __m128 low(__m256 v) { return _mm256_castps256_ps128(v); }
HORDE_AVX2 __m128 high(__m256 v) { return _mm256_extractf128_ps(v, 1); }

// Streaming stores skip the caches: for output far larger than they are, and for GPU memory
// that the CPU only writes.
template <bool kStream> struct Store {
    HORDE_AVX2 static void put(void* at, __m128 v) {
        if constexpr (kStream) _mm_stream_ps(static_cast<float*>(at), v);
        else _mm_storeu_ps(static_cast<float*>(at), v);
    }
    HORDE_AVX2 static void put(void* at, __m128i v) {
        if constexpr (kStream) _mm_stream_si128(static_cast<__m128i*>(at), v);
        else _mm_storeu_si128(static_cast<__m128i*>(at), v);
    }
    // Eight floats as two 16-byte stores: a 32-byte streaming store would need 32-byte alignment.
    HORDE_AVX2 static void put(void* at, __m256 v) { put(at, low(v)), put(static_cast<float*>(at) + 4, high(v)); }
    // Four x, y, z, _ rows as the 48 bytes of four vec3s.
    HORDE_AVX2 static void vec3s(glm::vec3* at, __m128 r0, __m128 r1, __m128 r2, __m128 r3) {
        float* out = &at->x;
        put(out, _mm_shuffle_ps(r0, _mm_shuffle_ps(r0, r1, _MM_SHUFFLE(0, 0, 2, 2)), _MM_SHUFFLE(2, 0, 1, 0)));
        put(out + 4, _mm_shuffle_ps(r1, r2, _MM_SHUFFLE(1, 0, 2, 1)));
        put(out + 8, _mm_shuffle_ps(_mm_shuffle_ps(r2, r3, _MM_SHUFFLE(0, 0, 2, 2)), r3, _MM_SHUFFLE(2, 1, 2, 0)));
    }
};

// Byte k (0 = lowest) of each 32-bit lane, as a float.
HORDE_AVX2 __m256 byteAsFloat(__m256i words, int k) {
    return _mm256_cvtepi32_ps(_mm256_and_si256(_mm256_srli_epi32(words, 8 * k), _mm256_set1_epi32(0xFF)));
}

// The direction of (b - 127) / 127 from bytes 0..2 of each lane; zero stays zero.
HORDE_AVX2 void unitBytes(__m256i words, __m256& x, __m256& y, __m256& z) {
    const __m256 bias = _mm256_set1_ps(127.0f);
    x = _mm256_sub_ps(byteAsFloat(words, 0), bias);
    y = _mm256_sub_ps(byteAsFloat(words, 1), bias);
    z = _mm256_sub_ps(byteAsFloat(words, 2), bias);
    const __m256 squared = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, x), _mm256_mul_ps(y, y)), _mm256_mul_ps(z, z));
    const __m256 inverse = _mm256_div_ps(_mm256_set1_ps(1.0f), _mm256_sqrt_ps(_mm256_max_ps(squared, _mm256_set1_ps(FLT_MIN))));
    const __m256 scale = _mm256_blendv_ps(_mm256_set1_ps(1.0f), inverse, _mm256_cmp_ps(squared, _mm256_setzero_ps(), _CMP_GT_OQ));
    x = _mm256_mul_ps(x, scale), y = _mm256_mul_ps(y, scale), z = _mm256_mul_ps(z, scale);
}

// Vertices (bits 0..3) with a weighted slot naming a bone the mesh does not list: byte k of a
// lane's weight word goes with byte k of its bone word.
HORDE_AVX2 int unnamedLanes(__m128i weightWords, __m128i boneWords, size_t bones) {
    if (bones > 255) return 0; // every byte names a listed bone
    const __m128i unlisted = _mm_cmpeq_epi8(_mm_max_epu8(boneWords, _mm_set1_epi8(char(bones))), boneWords);
    const __m128i unweighted = _mm_cmpeq_epi8(weightWords, _mm_setzero_si128());
    const __m128i named = _mm_cmpeq_epi32(_mm_andnot_si128(unweighted, unlisted), _mm_setzero_si128());
    return ~_mm_movemask_ps(_mm_castsi128_ps(named)) & 0xF;
}

// The weight bytes of the first two lanes of `words`, as two rows of four, over their sums.
HORDE_AVX2 __m256 weightRows(__m128i words, __m256 sums) { return _mm256_div_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(words)), sums); }

// keepStrongestFour's shortcut in four lanes: slots strongest first with weight are
// renormalized (byte weights are never negative, -0 or NaN); other vertices are redone one at a
// time before anything is stored. Weights are worked on as each vertex's row of four, two
// vertices to a register, so they need no transpose.
template <bool kStream>
HORDE_AVX2 void decodeSkin(const Four& four, size_t field, glm::u16vec4* joints, glm::vec4* weights, __m128i weightWords, __m128i boneWords) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i sums = _mm_madd_epi16(_mm_maddubs_epi16(weightWords, _mm_set1_epi8(1)), _mm_set1_epi16(1));
    const __m256 sum = _mm256_castps128_ps256(_mm_cvtepi32_ps(sums));
    __m256 w01 = weightRows(weightWords, _mm256_permutevar8x32_ps(sum, _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1)));
    __m256 w23 = weightRows(_mm_unpackhi_epi64(weightWords, weightWords), _mm256_permutevar8x32_ps(sum, _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3)));

    const __m128i descending = _mm_cmpeq_epi8(_mm_max_epu8(weightWords, _mm_srli_epi32(weightWords, 8)), weightWords);
    const __m128i sorted = _mm_cmpeq_epi32(descending, _mm_set1_epi32(-1));
    const __m128i strongestZero = _mm_cmpeq_epi32(_mm_and_si128(weightWords, _mm_set1_epi32(0xFF)), zero);
    const __m128i kept = _mm_andnot_si128(_mm_cmpeq_epi8(weightWords, zero), boneWords);
    __m128i pairs[2] = {_mm_unpacklo_epi8(kept, zero), _mm_unpackhi_epi8(kept, zero)};

    if (const int redo = (~_mm_movemask_ps(_mm_castsi128_ps(sorted)) & 0xF) | _mm_movemask_ps(_mm_castsi128_ps(strongestZero))) {
        glm::u16vec4 j[4];
        glm::vec4 w[4];
        std::memcpy(j, pairs, sizeof j);
        _mm256_storeu_ps(&w[0].x, w01), _mm256_storeu_ps(&w[2].x, w23);
        for (int lanes = redo; lanes; lanes &= lanes - 1) {
            const int i = __builtin_ctz(unsigned(lanes));
            decodeSkin(four.at(size_t(i), field), j[i], w[i]);
        }
        std::memcpy(pairs, j, sizeof j);
        w01 = _mm256_loadu_ps(&w[0].x), w23 = _mm256_loadu_ps(&w[2].x);
    }
    Store<kStream>::put(&weights[0], w01), Store<kStream>::put(&weights[2], w23);
    Store<kStream>::put(&joints[0], pairs[0]), Store<kStream>::put(&joints[2], pairs[1]);
}

// Eight vertices' x, y and z columns as the 96 bytes of eight vec3s: each 32 bytes picks its
// x, y and z lanes from the columns permuted alike.
template <int kFromY, int kFromZ> HORDE_AVX2 __m256 interleave(__m256 x, __m256 y, __m256 z, __m256i lanes) {
    const __m256 xy = _mm256_blend_ps(_mm256_permutevar8x32_ps(x, lanes), _mm256_permutevar8x32_ps(y, lanes), kFromY);
    return _mm256_blend_ps(xy, _mm256_permutevar8x32_ps(z, lanes), kFromZ);
}

template <bool kStream> HORDE_AVX2 void storeVec3s(glm::vec3* at, __m256 x, __m256 y, __m256 z) {
    float* out = &at->x;
    Store<kStream>::put(out, interleave<0x92, 0x24>(x, y, z, _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2)));
    Store<kStream>::put(out + 8, interleave<0x24, 0x49>(x, y, z, _mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5)));
    Store<kStream>::put(out + 16, interleave<0x49, 0x92>(x, y, z, _mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7)));
}

// Eight vertices' x, y, z and w columns as eight vec4s: a transpose within each 128-bit half.
template <bool kStream> HORDE_AVX2 void storeVec4s(glm::vec4* at, __m256 x, __m256 y, __m256 z, __m256 w) {
    const __m256 xy01 = _mm256_unpacklo_ps(x, y), xy23 = _mm256_unpackhi_ps(x, y);
    const __m256 zw01 = _mm256_unpacklo_ps(z, w), zw23 = _mm256_unpackhi_ps(z, w);
    const __m256 rows[4] = {_mm256_shuffle_ps(xy01, zw01, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(xy01, zw01, _MM_SHUFFLE(3, 2, 3, 2)),
                            _mm256_shuffle_ps(xy23, zw23, _MM_SHUFFLE(1, 0, 1, 0)), _mm256_shuffle_ps(xy23, zw23, _MM_SHUFFLE(3, 2, 3, 2))};
    for (int i = 0; i < 4; ++i) Store<kStream>::put(&at[i], low(rows[i])), Store<kStream>::put(&at[4 + i], high(rows[i]));
}

// Eight vertices, four in `first` and four in `second`: a register holds vertex i in lane i.
template <bool kStream>
HORDE_AVX2 void decodeNormals(const Four& first, const Four& second, size_t field, glm::vec3* normals, glm::vec4* tangents) {
    __m128i normalWords[2], tangentWords[2];
    first.wordPairs(field, normalWords[0], tangentWords[0]);
    second.wordPairs(field, normalWords[1], tangentWords[1]);
    __m256 x, y, z;
    unitBytes(_mm256_set_m128i(normalWords[1], normalWords[0]), x, y, z);
    storeVec3s<kStream>(normals, x, y, z);

    const __m256i tangentBytes = _mm256_set_m128i(tangentWords[1], tangentWords[0]);
    const __m256 positive = _mm256_castsi256_ps(_mm256_srai_epi32(tangentBytes, 31));
    unitBytes(tangentBytes, x, y, z);
    storeVec4s<kStream>(tangents, x, y, z, _mm256_blendv_ps(_mm256_set1_ps(-1.0f), _mm256_set1_ps(1.0f), positive));
}

// halfToFloat on eight halves held in the low 16 bits of each lane.
HORDE_AVX2 __m256 halvesToFloats(__m256i h) {
    const __m256i magnitude = _mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(0x7FFF)), 13);
    const __m256i scaled = _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(magnitude), _mm256_set1_ps(0x1p112f)));
    const __m256i exponent = _mm256_set1_epi32(0x7C00);
    const __m256i special = _mm256_cmpeq_epi32(_mm256_and_si256(h, exponent), exponent);
    const __m256i bits = _mm256_blendv_epi8(scaled, _mm256_or_si256(magnitude, _mm256_set1_epi32(0x7F800000)), special);
    return _mm256_castsi256_ps(_mm256_or_si256(bits, _mm256_slli_epi32(_mm256_and_si256(h, _mm256_set1_epi32(0x8000)), 16)));
}

// Always inlined: GCC otherwise keeps it out of line, paying a call and a vzeroupper per four
// vertices.
template <bool kStream> HORDE_AVX2 __attribute__((always_inline)) inline void decodeUvs(const Four& four, size_t field, glm::vec2* uvs) {
    Store<kStream>::put(uvs, halvesToFloats(_mm256_cvtepu16_epi32(four.words(field))));
}

// Eight vertices a step: positions, weights and UVs four at a time, normals and tangents (the
// most arithmetic) eight at a time.
template <bool kStream>
HORDE_AVX2 bool decodeEights(Reader& r, const MeshInfo& m, const VertexFields& f, const std::byte* in, MeshArrays& a, size_t n) {
    const size_t stride = m.vertexSize;
    const bool skinned = !a.joints.empty() && f.skin >= 0;
    for (size_t v = 0; v < n; v += 8) {
        const Four fours[2] = {{in + v * stride, stride}, {in + (v + 4) * stride, stride}};
        for (size_t half = 0; half < 2; ++half) {
            const Four& four = fours[half];
            const size_t first = v + 4 * half;
            Store<kStream>::vec3s(&a.positions[first], four.position(0), four.position(1), four.position(2), four.position(3));
            if (skinned) {
                __m128i weightWords, boneWords;
                four.wordPairs(size_t(f.skin), weightWords, boneWords);
                if (const int bad = unnamedLanes(weightWords, boneWords, m.bones.size())) {
                    const size_t i = size_t(__builtin_ctz(unsigned(bad)));
                    return failBone(r, m, four.at(i, 0), first + i, size_t(f.skin));
                }
                decodeSkin<kStream>(four, size_t(f.skin), &a.joints[first], &a.weights[first], weightWords, boneWords);
            }
            if (f.uv[0] >= 0) decodeUvs<kStream>(four, size_t(f.uv[0]), &a.uv0[first]);
            if (f.uv[1] >= 0) decodeUvs<kStream>(four, size_t(f.uv[1]), &a.uv1[first]);
        }
        if (f.normal >= 0) decodeNormals<kStream>(fours[0], fours[1], size_t(f.normal), &a.normals[v], &a.tangents[v]);
    }
    return true;
}

// Vertices [0, n rounded down to eight) eight at a time on CPUs with AVX2, their count left in
// `decoded`; false through `r` when one names a missing bone.
bool decodeEights(Reader& r, const MeshInfo& m, const VertexFields& f, const std::byte* in, MeshArrays& a, size_t& decoded) {
    decoded = 0;
    if (!cpuHasAvx2()) return true;
    decoded = m.numVertices / 8 * 8;
    const bool stream = r.size() >= kStreamingFileBytes && aligned16(a.positions.data()) && aligned16(a.normals.data()) &&
                        aligned16(a.tangents.data()) && aligned16(a.uv0.data()) && aligned16(a.uv1.data()) &&
                        aligned16(a.joints.data()) && aligned16(a.weights.data());
    if (!stream) return decodeEights<false>(r, m, f, in, a, decoded);
    const bool ok = decodeEights<true>(r, m, f, in, a, decoded);
    _mm_sfence(); // streaming stores are weakly ordered: drained before anything else sees the streams
    return ok;
}
#else
bool decodeEights(Reader&, const MeshInfo&, const VertexFields&, const std::byte*, MeshArrays&, size_t& decoded) {
    decoded = 0;
    return true;
}
#endif
} // namespace

bool decodeVertices(Reader& r, const MeshInfo& m, std::span<const std::byte> vertices, MeshArrays& a) {
    const VertexFields f = vertexFields(m.mask);
    size_t v = 0;
    if (!decodeEights(r, m, f, vertices.data(), a, v)) return false;
    for (; v < m.numVertices; ++v)
        if (!decodeVertex(r, m, f, vertices.data(), v, a)) return false;
    return true;
}

} // namespace horde::swtor
