// One pass over the interleaved vertices, four at a time in SSE2 registers where the CPU has
// them, each vertex otherwise (and for the last few). Both give the same values bit for bit:
// SSE2 adds, multiplies, divides and square roots round exactly like scalar floats.
//
// Both vectors and weights are scaled after decoding (to unit length, to a sum of one), so the
// bytes' own scale factors (1/127, 1/255) cancel and are never applied: the integers go
// straight into the scaling, one rounding and several divisions fewer a vertex.
#include "vertex_decode.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "asset/influences.h"
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

#if defined(__SSE2__)
// Four vertices at a time: lane i of a register holds vertex i's value. Every stream gets
// whole 16-byte stores (four vertices' vec3s are three), so that a large file's streams can be
// written around the caches.
struct Four {
    const std::byte* p; // the first of the four vertices
    size_t stride;

    __m128i word(size_t at, size_t i) const {
        uint32_t w;
        std::memcpy(&w, p + i * stride + at, 4);
        return _mm_cvtsi32_si128(int(w));
    }
    // The 32-bit word at `at` of each vertex.
    __m128i words(size_t at) const {
        return _mm_unpacklo_epi64(_mm_unpacklo_epi32(word(at, 0), word(at, 1)), _mm_unpacklo_epi32(word(at, 2), word(at, 3)));
    }
    // The words at `at` and `at + 4` of each vertex, read as one 8-byte load per vertex.
    void wordPairs(size_t at, __m128i& first, __m128i& second) const {
        __m128i v[4];
        for (size_t i = 0; i < 4; ++i) v[i] = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + i * stride + at));
        const __m128i low = _mm_unpacklo_epi32(v[0], v[1]), high = _mm_unpacklo_epi32(v[2], v[3]);
        first = _mm_unpacklo_epi64(low, high);
        second = _mm_unpackhi_epi64(low, high);
    }
    // Vertex i's position as x, y, z, 0, without reading past its 12 bytes.
    __m128 position(size_t i) const {
        const __m128i xy = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + i * stride));
        return _mm_castsi128_ps(_mm_unpacklo_epi64(xy, word(8, i)));
    }
};

// Streaming stores skip the caches: for output far larger than they are, and for GPU memory
// that the CPU only writes.
template <bool kStream> struct Store {
    static void put(void* at, __m128 v) {
        if constexpr (kStream) _mm_stream_ps(static_cast<float*>(at), v);
        else _mm_storeu_ps(static_cast<float*>(at), v);
    }
    static void put(void* at, __m128i v) {
        if constexpr (kStream) _mm_stream_si128(static_cast<__m128i*>(at), v);
        else _mm_storeu_si128(static_cast<__m128i*>(at), v);
    }
    // Four x, y, z, _ rows as the 48 bytes of four vec3s.
    static void vec3s(glm::vec3* at, __m128 r0, __m128 r1, __m128 r2, __m128 r3) {
        float* out = &at->x;
        put(out, _mm_shuffle_ps(r0, _mm_shuffle_ps(r0, r1, _MM_SHUFFLE(0, 0, 2, 2)), _MM_SHUFFLE(2, 0, 1, 0)));
        put(out + 4, _mm_shuffle_ps(r1, r2, _MM_SHUFFLE(1, 0, 2, 1)));
        put(out + 8, _mm_shuffle_ps(_mm_shuffle_ps(r2, r3, _MM_SHUFFLE(0, 0, 2, 2)), r3, _MM_SHUFFLE(2, 1, 2, 0)));
    }
    static void vec4s(glm::vec4* at, __m128 r0, __m128 r1, __m128 r2, __m128 r3) {
        put(&at[0].x, r0), put(&at[1].x, r1), put(&at[2].x, r2), put(&at[3].x, r3);
    }
};

template <int k> __m128i byteOf(__m128i words) { return _mm_and_si128(_mm_srli_epi32(words, 8 * k), _mm_set1_epi32(0xFF)); }
template <int k> __m128 byteAsFloat(__m128i words) { return _mm_cvtepi32_ps(byteOf<k>(words)); }

__m128 select(__m128 mask, __m128 yes, __m128 no) { return _mm_or_ps(_mm_and_ps(mask, yes), _mm_andnot_ps(mask, no)); }

void unitLength(__m128& x, __m128& y, __m128& z) {
    const __m128 squared = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, x), _mm_mul_ps(y, y)), _mm_mul_ps(z, z));
    const __m128 inverse = _mm_div_ps(_mm_set1_ps(1.0f), _mm_sqrt_ps(_mm_max_ps(squared, _mm_set1_ps(FLT_MIN))));
    const __m128 scale = select(_mm_cmpgt_ps(squared, _mm_setzero_ps()), inverse, _mm_set1_ps(1.0f));
    x = _mm_mul_ps(x, scale), y = _mm_mul_ps(y, scale), z = _mm_mul_ps(z, scale);
}

void unitBytes(__m128i words, __m128& x, __m128& y, __m128& z) {
    const __m128 bias = _mm_set1_ps(127.0f);
    x = _mm_sub_ps(byteAsFloat<0>(words), bias);
    y = _mm_sub_ps(byteAsFloat<1>(words), bias);
    z = _mm_sub_ps(byteAsFloat<2>(words), bias);
    unitLength(x, y, z);
}

// Lanes with a weighted slot naming a bone the mesh does not list.
int unnamedLanes(__m128i weightWords, __m128i boneWords, size_t bones) {
    const __m128i last = _mm_set1_epi32(int(std::min<size_t>(bones, 256)) - 1), zero = _mm_setzero_si128();
    const auto slot = [&](__m128i weight, __m128i bone) { return _mm_and_si128(_mm_cmpgt_epi32(weight, zero), _mm_cmpgt_epi32(bone, last)); };
    const __m128i bad = _mm_or_si128(_mm_or_si128(slot(byteOf<0>(weightWords), byteOf<0>(boneWords)), slot(byteOf<1>(weightWords), byteOf<1>(boneWords))),
                                     _mm_or_si128(slot(byteOf<2>(weightWords), byteOf<2>(boneWords)), slot(byteOf<3>(weightWords), byteOf<3>(boneWords))));
    return _mm_movemask_ps(_mm_castsi128_ps(bad));
}

// keepStrongestFour's shortcut in four lanes: slots strongest first with weight are
// renormalized (byte weights are never negative, -0 or NaN); other lanes are redone one vertex
// at a time before anything is stored.
template <bool kStream>
void decodeSkin(const Four& four, size_t at, glm::u16vec4* joints, glm::vec4* weights, __m128i weightWords, __m128i boneWords) {
    __m128 w[4] = {byteAsFloat<0>(weightWords), byteAsFloat<1>(weightWords), byteAsFloat<2>(weightWords), byteAsFloat<3>(weightWords)};
    const __m128 sum = _mm_add_ps(_mm_add_ps(_mm_add_ps(w[0], w[1]), w[2]), w[3]);
    const __m128 shortcut = _mm_and_ps(_mm_and_ps(_mm_cmpge_ps(w[0], w[1]), _mm_cmpge_ps(w[1], w[2])),
                                       _mm_and_ps(_mm_cmpge_ps(w[2], w[3]), _mm_cmpgt_ps(sum, _mm_setzero_ps())));
    for (__m128& slot : w) slot = _mm_div_ps(slot, sum);
    _MM_TRANSPOSE4_PS(w[0], w[1], w[2], w[3]);

    const __m128i zero = _mm_setzero_si128();
    const __m128i kept = _mm_andnot_si128(_mm_cmpeq_epi8(weightWords, zero), boneWords);
    __m128i pairs[2] = {_mm_unpacklo_epi8(kept, zero), _mm_unpackhi_epi8(kept, zero)};

    if (const int redo = ~_mm_movemask_ps(shortcut) & 0xF) {
        glm::u16vec4 j[4];
        std::memcpy(j, pairs, sizeof j);
        for (int lanes = redo; lanes; lanes &= lanes - 1) {
            const int i = __builtin_ctz(unsigned(lanes));
            glm::vec4 reduced;
            decodeSkin(four.p + size_t(i) * four.stride + at, j[i], reduced);
            w[i] = _mm_loadu_ps(&reduced.x);
        }
        std::memcpy(pairs, j, sizeof j);
    }
    Store<kStream>::vec4s(weights, w[0], w[1], w[2], w[3]);
    Store<kStream>::put(&joints[0], pairs[0]);
    Store<kStream>::put(&joints[2], pairs[1]);
}

template <bool kStream> void decodeNormals(const Four& four, size_t at, glm::vec3* normals, glm::vec4* tangents) {
    __m128i normalWords, tangentWords;
    four.wordPairs(at, normalWords, tangentWords);
    __m128 nx, ny, nz, tx, ty, tz;
    unitBytes(normalWords, nx, ny, nz);
    unitBytes(tangentWords, tx, ty, tz);
    __m128 nw = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(nx, ny, nz, nw);
    Store<kStream>::vec3s(normals, nx, ny, nz, nw);

    const __m128 positive = _mm_castsi128_ps(_mm_srai_epi32(tangentWords, 31));
    __m128 sign = select(positive, _mm_set1_ps(1.0f), _mm_set1_ps(-1.0f));
    _MM_TRANSPOSE4_PS(tx, ty, tz, sign);
    Store<kStream>::vec4s(tangents, tx, ty, tz, sign);
}

// halfToFloat on four halves held in the low 16 bits of each lane.
__m128 halvesToFloats(__m128i h) {
    const __m128i magnitude = _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x7FFF)), 13);
    const __m128i scaled = _mm_castps_si128(_mm_mul_ps(_mm_castsi128_ps(magnitude), _mm_set1_ps(0x1p112f)));
    const __m128i exponent = _mm_set1_epi32(0x7C00);
    const __m128i special = _mm_cmpeq_epi32(_mm_and_si128(h, exponent), exponent);
    const __m128i bits = _mm_or_si128(_mm_and_si128(special, _mm_or_si128(magnitude, _mm_set1_epi32(0x7F800000))), _mm_andnot_si128(special, scaled));
    return _mm_castsi128_ps(_mm_or_si128(bits, _mm_slli_epi32(_mm_and_si128(h, _mm_set1_epi32(0x8000)), 16)));
}

template <bool kStream> void decodeUvs(const Four& four, size_t at, glm::vec2* uvs) {
    const __m128i halves = four.words(at), zero = _mm_setzero_si128();
    Store<kStream>::put(&uvs[0], halvesToFloats(_mm_unpacklo_epi16(halves, zero)));
    Store<kStream>::put(&uvs[2], halvesToFloats(_mm_unpackhi_epi16(halves, zero)));
}

template <bool kStream>
bool decodeFours(Reader& r, const MeshInfo& m, const VertexFields& f, const std::byte* in, MeshArrays& a, size_t n) {
    const size_t stride = m.vertexSize;
    const bool skinned = !a.joints.empty() && f.skin >= 0;
    for (size_t v = 0; v < n; v += 4) {
        const Four four{in + v * stride, stride};
        Store<kStream>::vec3s(&a.positions[v], four.position(0), four.position(1), four.position(2), four.position(3));
        if (skinned) {
            __m128i weightWords, boneWords;
            four.wordPairs(size_t(f.skin), weightWords, boneWords);
            if (const int bad = unnamedLanes(weightWords, boneWords, m.bones.size())) {
                const size_t i = size_t(__builtin_ctz(unsigned(bad)));
                return failBone(r, m, four.p + i * stride, v + i, size_t(f.skin));
            }
            decodeSkin<kStream>(four, size_t(f.skin), &a.joints[v], &a.weights[v], weightWords, boneWords);
        }
        if (f.normal >= 0) decodeNormals<kStream>(four, size_t(f.normal), &a.normals[v], &a.tangents[v]);
        if (f.uv[0] >= 0) decodeUvs<kStream>(four, size_t(f.uv[0]), &a.uv0[v]);
        if (f.uv[1] >= 0) decodeUvs<kStream>(four, size_t(f.uv[1]), &a.uv1[v]);
    }
    return true;
}

bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

// Vertices [0, n rounded down to four) four at a time, their count left in `decoded`; false
// through `r` when one names a missing bone.
bool decodeFours(Reader& r, const MeshInfo& m, const VertexFields& f, const std::byte* in, MeshArrays& a, size_t& decoded) {
    decoded = m.numVertices / 4 * 4;
    const bool stream = r.size() >= kStreamingFileBytes && aligned16(a.positions.data()) && aligned16(a.normals.data()) &&
                        aligned16(a.tangents.data()) && aligned16(a.uv0.data()) && aligned16(a.uv1.data()) &&
                        aligned16(a.joints.data()) && aligned16(a.weights.data());
    if (!stream) return decodeFours<false>(r, m, f, in, a, decoded);
    const bool ok = decodeFours<true>(r, m, f, in, a, decoded);
    _mm_sfence(); // streaming stores are weakly ordered: drained before anything else sees the streams
    return ok;
}
#else
bool decodeFours(Reader&, const MeshInfo&, const VertexFields&, const std::byte*, MeshArrays&, size_t& decoded) {
    decoded = 0;
    return true;
}
#endif
} // namespace

bool decodeVertices(Reader& r, const MeshInfo& m, std::span<const std::byte> vertices, MeshArrays& a) {
    const VertexFields f = vertexFields(m.mask);
    size_t v = 0;
    if (!decodeFours(r, m, f, vertices.data(), a, v)) return false;
    for (; v < m.numVertices; ++v)
        if (!decodeVertex(r, m, f, vertices.data(), v, a)) return false;
    return true;
}

} // namespace horde::swtor
