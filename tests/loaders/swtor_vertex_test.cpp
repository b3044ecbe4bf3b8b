// SWTOR vertex decode: random vertices with every field against a double-precision reading of
// the spec (docs/formats/swtor.md), and the eight-at-a-time path (AVX2 CPUs) against the
// one-vertex path, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include <glm/gtc/packing.hpp>

#include "model/mesh_storage.h"
#include "index_copy.h"
#include "swtor/swtor.h"

using namespace horde;
using namespace horde::swtor;

namespace {

constexpr uint16_t kAllFields = kPosition | kSkin | kNormalTangent | kTangentFrame | kColour | 0x20 | 0x40;
// Offsets inside a vertex of that mask.
constexpr size_t kSkinAt = 12, kNormalAt = 20, kUv0At = 32, kUv1At = 36;

MeshInfo meshOf(uint32_t vertices, size_t bones) {
    MeshInfo m;
    m.name = "random";
    m.mask = kAllFields;
    m.vertexSize = uint16_t(vertexSizeFor(kAllFields));
    m.numVertices = vertices;
    m.bones.resize(bones, "bone");
    return m;
}

// Random vertices; most weights strongest first (as exporters write them), some not, some tied,
// one vertex without weight and one with a zero-length normal.
std::vector<std::byte> randomVertices(const MeshInfo& m, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<std::byte> bytes(size_t(m.numVertices) * m.vertexSize);
    for (std::byte& b : bytes) b = std::byte(rng() & 0xFF);
    for (uint32_t v = 0; v < m.numVertices; ++v) {
        std::byte* p = bytes.data() + size_t(v) * m.vertexSize;
        const float position[3] = {float(rng() % 2001) - 1000.0f, float(v), -0.5f};
        std::memcpy(p, position, 12);
        uint8_t* w = reinterpret_cast<uint8_t*>(p + kSkinAt);
        if (v % 3 != 0) std::sort(w, w + 4, std::greater<>());
        if (v % 11 == 0) w[1] = w[2] = w[0];
    }
    std::memset(bytes.data() + kSkinAt, 0, 4);
    std::memset(bytes.data() + m.vertexSize + kNormalAt, 127, 3);
    return bytes;
}

// `large`: the vertices at the start of a file big enough for streaming stores.
std::unique_ptr<MeshStorage> decoded(const MeshInfo& m, std::span<const std::byte> bytes, bool large = false) {
    HeapMeshAllocator heap;
    auto storage = heap.allocate(layoutFor(m, true), m.name);
    std::vector<std::byte> file(bytes.begin(), bytes.end());
    if (large) file.resize(std::max(file.size(), kStreamingFileBytes));
    Reader r(file, "random.gr2");
    EXPECT_TRUE(decodeVertices(r, m, bytes, storage->arrays)) << r.error().message;
    return storage;
}

void expectUnit(const std::byte* p, glm::vec3 got, uint32_t v) {
    const double d[3] = {double(uint8_t(p[0])) - 127.0, double(uint8_t(p[1])) - 127.0, double(uint8_t(p[2])) - 127.0};
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(got[k], length > 0 ? d[k] / length : 0.0, 1e-7) << "vertex " << v;
}

template <class T> bool sameBits(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

} // namespace

TEST(SwtorVertices, DecodeMatchesADoublePrecisionReadingOfTheSpec) {
    const MeshInfo m = meshOf(1027, 256);
    const std::vector<std::byte> bytes = randomVertices(m, 1);
    const auto storage = decoded(m, bytes);
    const MeshArrays& a = storage->arrays;
    for (uint32_t v = 0; v < m.numVertices; ++v) {
        const std::byte* p = bytes.data() + size_t(v) * m.vertexSize;
        ASSERT_EQ(std::memcmp(&a.positions[v], p, 12), 0) << v;

        // Weighted slots strongest first (ties in file order), as shares of their byte sum.
        std::vector<std::pair<int, int>> slots; // weight byte, bone byte
        for (int k = 0; k < 4; ++k)
            if (uint8_t(p[kSkinAt + k]) > 0) slots.push_back({uint8_t(p[kSkinAt + k]), uint8_t(p[kSkinAt + 4 + k])});
        std::stable_sort(slots.begin(), slots.end(), [](auto x, auto y) { return x.first > y.first; });
        double sum = 0;
        for (auto [w, bone] : slots) sum += w;
        for (size_t k = 0; k < 4; ++k) {
            const bool used = k < slots.size();
            EXPECT_EQ(a.joints[v][int(k)], used ? slots[k].second : 0) << v;
            EXPECT_NEAR(a.weights[v][int(k)], used ? slots[k].first / sum : 0.0, 1e-7) << v;
        }

        expectUnit(p + kNormalAt, a.normals[v], v);
        expectUnit(p + kNormalAt + 4, glm::vec3(a.tangents[v]), v);
        EXPECT_EQ(a.tangents[v].w, uint8_t(p[kNormalAt + 7]) >= 128 ? 1.0f : -1.0f) << v;

        for (auto [uvs, at] : {std::pair{a.uv0, kUv0At}, std::pair{a.uv1, kUv1At}}) {
            for (int k = 0; k < 2; ++k) {
                uint16_t half;
                std::memcpy(&half, p + at + 2 * k, 2);
                const float expected = glm::unpackHalf1x16(half);
                if (std::isnan(expected)) EXPECT_TRUE(std::isnan(uvs[v][k])) << v;
                else EXPECT_TRUE(sameBits(uvs[v][k], expected)) << v << ": " << uvs[v][k] << " vs " << expected;
            }
        }
    }
    EXPECT_EQ(a.weights[0], glm::vec4(0.0f)); // no weight: left for finalizeMeshes to bind rigidly
    EXPECT_EQ(a.normals[1], glm::vec3(0.0f));
}

// Also with streaming stores (a file of 16 MiB or more).
TEST(SwtorVertices, EightAtATimeEqualsOneAtATimeBitForBit) {
    const MeshInfo m = meshOf(403, 256);
    const std::vector<std::byte> bytes = randomVertices(m, 2);
    const auto all = decoded(m, bytes), streamed = decoded(m, bytes, true);
    EXPECT_EQ(std::memcmp(all->bytes.data(), streamed->bytes.data(), all->bytes.size()), 0);
    for (uint32_t v = 0; v < m.numVertices; ++v) {
        const auto one = decoded(meshOf(1, 256), std::span(bytes).subspan(size_t(v) * m.vertexSize, m.vertexSize));
        const MeshArrays &x = all->arrays, &y = one->arrays;
        EXPECT_TRUE(sameBits(x.positions[v], y.positions[0]) && sameBits(x.normals[v], y.normals[0]) &&
                    sameBits(x.tangents[v], y.tangents[0]) && sameBits(x.uv0[v], y.uv0[0]) && sameBits(x.uv1[v], y.uv1[0]) &&
                    sameBits(x.joints[v], y.joints[0]) && sameBits(x.weights[v], y.weights[0]))
            << "vertex " << v;
    }
}

TEST(SwtorVertices, EveryHalfFloatConvertsExactlyEightAtATime) {
    const MeshInfo m = meshOf(32768, 256);
    std::vector<std::byte> bytes(size_t(m.numVertices) * m.vertexSize, std::byte{0});
    for (uint32_t v = 0; v < m.numVertices; ++v) {
        const uint16_t halves[2] = {uint16_t(2 * v), uint16_t(2 * v + 1)};
        std::memcpy(bytes.data() + size_t(v) * m.vertexSize + kUv0At, halves, 4);
    }
    const auto storage = decoded(m, bytes);
    for (uint32_t h = 0; h <= 0xFFFF; ++h) {
        const float got = storage->arrays.uv0[h / 2][int(h % 2)], expected = halfToFloat(uint16_t(h));
        ASSERT_TRUE(sameBits(got, expected)) << std::hex << h;
    }
}

TEST(SwtorVertices, AWeightedMissingBoneInsideAnEightIsNamed) {
    const MeshInfo m = meshOf(16, 100);
    std::vector<std::byte> bytes = randomVertices(m, 3);
    for (uint32_t v = 0; v < m.numVertices; ++v)
        for (int k = 0; k < 4; ++k) bytes[size_t(v) * m.vertexSize + kSkinAt + 4 + size_t(k)] = std::byte(k);
    bytes[5 * m.vertexSize + kSkinAt + 4 + 3] = std::byte(200); // zero weight: junk that is allowed
    bytes[5 * m.vertexSize + kSkinAt + 3] = std::byte(0);
    bytes[6 * m.vertexSize + kSkinAt + 4 + 2] = std::byte(200);
    bytes[6 * m.vertexSize + kSkinAt + 2] = std::byte(1);
    HeapMeshAllocator heap;
    auto storage = heap.allocate(layoutFor(m, true), m.name);
    Reader r(bytes, "bad.gr2");
    EXPECT_FALSE(decodeVertices(r, m, bytes, storage->arrays));
    const size_t at = 6 * m.vertexSize + kSkinAt + 4 + 2;
    EXPECT_EQ(r.error().message, "bad.gr2: offset " + std::to_string(at) + " (0x" + [&] {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%zx", at);
        return std::string(hex);
    }() + "): vertex.boneIndices: vertex 6 names bone 200 but mesh 'random' lists 100 bones");
}

// Bone bytes reach 255: with 255 bones listed only byte 255 is missing; with 256, none is.
TEST(SwtorVertices, BoneByte255IsMissingOnlyWhen255BonesAreListed) {
    for (size_t bones : {size_t(255), size_t(256)}) {
        const MeshInfo m = meshOf(16, bones);
        std::vector<std::byte> bytes = randomVertices(m, 4);
        for (uint32_t v = 0; v < m.numVertices; ++v) {
            std::byte* skin = bytes.data() + size_t(v) * m.vertexSize + kSkinAt;
            for (int k = 0; k < 4; ++k) skin[4 + k] = std::byte(254);
        }
        std::byte* skin = bytes.data() + 9 * m.vertexSize + kSkinAt;
        const uint8_t onlyBone255[8] = {7, 0, 0, 0, 255, 254, 254, 254};
        std::memcpy(skin, onlyBone255, 8);
        HeapMeshAllocator heap;
        auto storage = heap.allocate(layoutFor(m, true), m.name);
        Reader r(bytes, "edge.gr2");
        EXPECT_EQ(decodeVertices(r, m, bytes, storage->arrays), bones == 256) << bones;
        if (bones == 255) EXPECT_NE(r.error().message.find("vertex 9 names bone 255 but mesh 'random' lists 255 bones"), std::string::npos);
        else EXPECT_EQ(storage->arrays.joints[9], glm::u16vec4(255, 0, 0, 0));
    }
}
