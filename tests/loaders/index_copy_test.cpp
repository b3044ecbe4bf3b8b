// Index copies, checked against hand-written index lists: every length around the vector width,
// a bad index at every position (vector body and scalar tail), the unsigned extremes, and both
// store kinds.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "index_copy.h"

using namespace horde;

namespace {

template <class T> std::vector<std::byte> bytesOf(const std::vector<T>& values) {
    std::vector<std::byte> bytes(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    return bytes;
}

// Output with room to spare and 16-byte alignment, so streaming stores are taken.
template <class T> struct Output {
    alignas(16) T values[96];
    std::span<T> first(size_t n) { return std::span<T>(values, n); }
};

} // namespace

TEST(IndexCopy, SixteenBitIndicesAreCopiedAndCheckedAtEveryPosition) {
    for (bool stream : {false, true}) {
        for (size_t n = 0; n <= 40; ++n) {
            std::vector<uint16_t> in(n);
            for (size_t i = 0; i < n; ++i) in[i] = uint16_t(i % 2 ? 65535 - i : i * 7);
            Output<uint16_t> out;
            ASSERT_TRUE(copyIndices16(out.first(n), bytesOf(in), 65536, stream)) << n;
            for (size_t i = 0; i < n; ++i) EXPECT_EQ(out.values[i], in[i]) << n << " " << i;
            // 65535 - i for odd i: the largest is 65534, the first one past 65534 vertices.
            if (n >= 2) {
                EXPECT_FALSE(copyIndices16(out.first(n), bytesOf(in), 65534, stream)) << n;
                EXPECT_TRUE(copyIndices16(out.first(n), bytesOf(in), 65535, stream)) << n;
            }
        }
        for (size_t bad = 0; bad < 37; ++bad) {
            std::vector<uint16_t> in(37, 9);
            in[bad] = 10;
            Output<uint16_t> out;
            EXPECT_FALSE(copyIndices16(out.first(37), bytesOf(in), 10, stream)) << bad;
            EXPECT_TRUE(copyIndices16(out.first(37), bytesOf(in), 11, stream)) << bad;
        }
    }
}

TEST(IndexCopy, NoVerticesRefuseEveryIndexAndMoreThan65536AcceptEverySixteenBitOne) {
    const std::vector<uint16_t> in(19, 0);
    Output<uint16_t> out;
    EXPECT_FALSE(copyIndices16(out.first(19), bytesOf(in), 0, false));
    EXPECT_TRUE(copyIndices16(out.first(0), {}, 0, false));
    const std::vector<uint16_t> top(19, 65535);
    EXPECT_TRUE(copyIndices16(out.first(19), bytesOf(top), 70000, false));
    EXPECT_EQ(out.values[18], 65535);
}

TEST(IndexCopy, ThirtyTwoBitIndicesCompareUnsigned) {
    for (bool stream : {false, true}) {
        const std::vector<uint32_t> in = {0, 1, 2999999, 7, 2999999, 3, 4, 5, 6};
        Output<uint32_t> out;
        ASSERT_TRUE(copyIndices32(out.first(in.size()), bytesOf(in), 3000000, stream));
        for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out.values[i], in[i]);
        EXPECT_FALSE(copyIndices32(out.first(in.size()), bytesOf(in), 2999999, stream));
        // A negative int32 in the file is a huge unsigned index.
        for (size_t bad = 0; bad < in.size(); ++bad) {
            std::vector<uint32_t> negative = in;
            negative[bad] = 0xFFFFFFFFu;
            EXPECT_FALSE(copyIndices32(out.first(in.size()), bytesOf(negative), 3000000, stream)) << bad;
            negative[bad] = 0x80000000u;
            EXPECT_FALSE(copyIndices32(out.first(in.size()), bytesOf(negative), 3000000, stream)) << bad;
        }
    }
}

TEST(IndexCopy, ThirtyTwoBitIndicesNarrowToSixteenWithoutSaturating) {
    for (bool stream : {false, true}) {
        const std::vector<uint32_t> in = {0, 65535, 32768, 32767, 32769, 1, 65534, 40000, 2, 3, 65535};
        Output<uint16_t> out;
        ASSERT_TRUE(narrowIndices32(out.first(in.size()), bytesOf(in), 65536, stream));
        for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out.values[i], in[i]) << i;
        for (size_t bad = 0; bad < in.size(); ++bad) {
            std::vector<uint32_t> wide = in;
            wide[bad] = 65536;
            EXPECT_FALSE(narrowIndices32(out.first(in.size()), bytesOf(wide), 65536, stream)) << bad;
            wide[bad] = 0xFFFFFFFFu;
            EXPECT_FALSE(narrowIndices32(out.first(in.size()), bytesOf(wide), 65536, stream)) << bad;
        }
    }
}
