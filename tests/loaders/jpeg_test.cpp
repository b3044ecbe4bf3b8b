// JPEG files built segment by segment from ITU T.81, their entropy-coded bits worked out by hand:
// a 16 x 8 grey image of two blocks whose only coefficients are DC (each texel is 128 + DC/8),
// baseline and progressive, and the tables stb_image 2.27 must never be handed (more than 256
// codes, tables a scan uses but no segment defined).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "support/bytes.h"
#include "texture/texture.h"

using namespace horde;

namespace {

HeapTextureAllocator heap;

constexpr uint8_t kSof0 = 0xC0, kSof2 = 0xC2, kDht = 0xC4, kSos = 0xDA, kDqt = 0xDB;

class Jpeg {
  public:
    Jpeg() { raw({0xFF, 0xD8}); }
    Jpeg& raw(std::initializer_list<uint8_t> bytes) { return raw(std::vector<uint8_t>(bytes)); }
    Jpeg& raw(const std::vector<uint8_t>& bytes) {
        for (uint8_t b : bytes)
            b_.u8(b);
        return *this;
    }
    // A marker segment; its length counts the two length bytes and the body.
    Jpeg& segment(uint8_t marker, const std::vector<uint8_t>& body) {
        const size_t length = body.size() + 2;
        raw({0xFF, marker, uint8_t(length >> 8), uint8_t(length)});
        return raw(body);
    }
    Jpeg& end() { return raw({0xFF, 0xD9}); }
    size_t size() const { return b_.size(); }
    std::span<const std::byte> span() const { return b_.span(); }

  private:
    test::Bytes b_;
};

std::vector<uint8_t> quantTableOfOnes() {
    std::vector<uint8_t> body(65, 1);
    body[0] = 0x00; // 8-bit values, table 0
    return body;
}

// 16 x 8, one component (id 1, 1 x 1 sampling) using quantization table `quant`.
std::vector<uint8_t> frame(uint8_t quant) {
    return {8, 0, 8, 0, 16, 1, 1, 0x11, quant};
}

// DC table 0: the two codes of length 2, 00 -> category 7, 01 -> category 8.
std::vector<uint8_t> dcTable() {
    std::vector<uint8_t> body(19, 0); // class 0, id 0, then the counts of lengths 1-16
    body[2] = 2;
    body[17] = 7;
    body[18] = 8;
    return body;
}

// AC table 0: one code of length 1, 0 -> end of block.
std::vector<uint8_t> acTable() {
    std::vector<uint8_t> body(18, 0); // the one value: 0x00
    body[0] = 0x10;
    body[1] = 1;
    return body;
}

std::vector<uint8_t> scan(uint8_t tables, uint8_t spectralStart, uint8_t spectralEnd) {
    return {1, 1, tables, spectralStart, spectralEnd, 0};
}

// Block 0: DC 80 = category 7 (code 00, bits 1010000); block 1: difference -160 = category 8
// (code 01, bits 01011111, the ones' complement of 160); each then an end of block (0):
// 00 1010000 0 01 01011111 0, padded with ones: 00101000 00010101 11110111.
const std::vector<uint8_t> kBaselineBits{0x28, 0x15, 0xF7};
// The progressive DC scan: the same codes without end of blocks, 19 bits and five ones of
// padding: 00101000 00101011 11111111, the last byte stuffed with a zero.
const std::vector<uint8_t> kDcScanBits{0x28, 0x2B, 0xFF, 0x00};
// The AC scan (coefficients 1-63): an end of band (0) for each block, padded: 00111111.
const std::vector<uint8_t> kAcScanBits{0x3F};

Jpeg baseline() {
    Jpeg j;
    j.segment(kDqt, quantTableOfOnes())
        .segment(kSof0, frame(0))
        .segment(kDht, dcTable())
        .segment(kDht, acTable());
    j.segment(kSos, scan(0x00, 0, 63)).raw(kBaselineBits);
    return j;
}

// 128 + DC/8 with quantization 1: block 0 is 128 + 80/8, block 1 128 + (80 - 160)/8.
std::vector<uint8_t> expectedTexels() {
    std::vector<uint8_t> out;
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 16; ++x) {
            const uint8_t grey = x < 8 ? 138 : 118;
            out.insert(out.end(), {grey, grey, grey, 255});
        }
    return out;
}

std::vector<uint8_t> texels(const Texture& t) {
    std::vector<uint8_t> out(t.bytes.size());
    std::memcpy(out.data(), t.bytes.data(), out.size());
    return out;
}

// How the reader names a byte offset: "offset 84 (0x54): ".
std::string at(size_t offset) {
    char text[48];
    std::snprintf(text, sizeof text, "offset %zu (0x%zx): ", offset, offset);
    return text;
}

void expectError(const Result<Texture>& t, const std::string& part) {
    ASSERT_FALSE(t) << "expected an error saying " << part;
    EXPECT_EQ(t.error().message.rfind("a.jpg: ", 0), 0u) << t.error().message;
    EXPECT_NE(t.error().message.find(part), std::string::npos) << t.error().message;
}

} // namespace

TEST(Jpeg, BaselineDcBlocksDecodeToTheirTexels) {
    Jpeg j = baseline();
    j.end();
    Result<Texture> t = readTexture("a.jpg", j.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(t->format, PixelFormat::RGBA8);
    EXPECT_EQ(t->width, 16u);
    EXPECT_EQ(t->height, 8u);
    EXPECT_EQ(texels(*t), expectedTexels());
}

// Each scan names both tables, but a DC scan uses only the DC one and an AC scan only the AC
// one: here the DC scan names AC table 1 and the AC scan DC table 3, neither ever defined, and
// the AC table arrives between the scans.
TEST(Jpeg, ProgressiveScansNeedOnlyTheTablesTheyUse) {
    Jpeg j;
    j.segment(kDqt, quantTableOfOnes()).segment(kSof2, frame(0)).segment(kDht, dcTable());
    j.segment(kSos, scan(0x01, 0, 0)).raw(kDcScanBits);
    j.segment(kDht, acTable()).segment(kSos, scan(0x30, 1, 63)).raw(kAcScanBits).end();
    Result<Texture> t = readTexture("a.jpg", j.span(), heap);
    ASSERT_TRUE(t) << t.error().message;
    EXPECT_EQ(texels(*t), expectedTexels());
}

// Found by fuzz_jpeg: stb_image 2.27 writes a table's symbols into a 256-byte array without
// counting them, and past it the decoding deltas, so the next code read far outside the heap.
TEST(Jpeg, AHuffmanTableOfMoreThan256CodesIsRefusedAtItsCounts) {
    std::vector<uint8_t> dht(17 + 765, 0); // DC table 0, 255 codes of each of lengths 14, 15, 16
    dht[14] = dht[15] = dht[16] = 255;
    Jpeg j;
    j.segment(kDqt, quantTableOfOnes()).segment(kSof0, frame(0));
    const size_t dhtAt = j.size(); // marker, length, class and id, then the counts
    j.segment(kDht, dht).segment(kDht, acTable()).segment(kSos, scan(0x00, 0, 63)).raw(kBaselineBits).end();
    expectError(readTexture("a.jpg", j.span(), heap),
                at(dhtAt + 5) + "DHT code counts: 765 codes, more than the 256 a table holds");
}

TEST(Jpeg, AScanUsingAnUndefinedTableIsRefusedAtTheComponent) {
    Jpeg ac;
    ac.segment(kDqt, quantTableOfOnes())
        .segment(kSof0, frame(0))
        .segment(kDht, dcTable())
        .segment(kDht, acTable());
    const size_t sosAt = ac.size(); // marker, length, count, then the component's id and tables
    ac.segment(kSos, scan(0x02, 0, 63)).raw(kBaselineBits).end();
    expectError(readTexture("a.jpg", ac.span(), heap),
                at(sosAt + 6) + "SOS tables: AC Huffman table 2 is not defined");

    Jpeg quant;
    quant.segment(kDqt, quantTableOfOnes())
        .segment(kSof0, frame(1))
        .segment(kDht, dcTable())
        .segment(kDht, acTable());
    const size_t quantAt = quant.size();
    quant.segment(kSos, scan(0x00, 0, 63)).raw(kBaselineBits).end();
    expectError(readTexture("a.jpg", quant.span(), heap),
                at(quantAt + 5) + "SOS component id: quantization table 1 is not defined");
}

// stb_image leaves a component's texels as its allocation held them unless a scan codes them.
TEST(Jpeg, AComponentWhoseDcIsNeverCodedIsRefusedAtTheEnd) {
    Jpeg j;
    j.segment(kDqt, quantTableOfOnes()).segment(kSof2, frame(0)).segment(kDht, acTable());
    j.segment(kSos, scan(0x00, 1, 63)).raw(kAcScanBits);
    const size_t eoiAt = j.size();
    j.end();
    expectError(readTexture("a.jpg", j.span(), heap),
                at(eoiAt) + "EOI: component 1 has no scan coding its DC coefficients");
}

TEST(Jpeg, EveryTruncationFailsNamingTheFile) {
    Jpeg j = baseline();
    j.end();
    for (const auto& cut : test::truncations(j.span())) {
        Result<Texture> t = readTexture("a.jpg", cut, heap);
        ASSERT_FALSE(t) << cut.size() << " bytes";
        EXPECT_EQ(t.error().message.rfind("a.jpg: ", 0), 0u) << t.error().message;
    }
}
