#include <gtest/gtest.h>

#include "reader.h"
#include "support/bytes.h"

using namespace horde;
using horde::test::Bytes;

TEST(Reader, ReadsLittleEndianFields) {
    Bytes b;
    b.text("ABCD").u32(0x01020304).f32(1.5f).i16(-2).text("name").u8(0).text("junk");
    Reader r(b.span(), "t.bin");
    EXPECT_TRUE(r.expect("ABCD", "magic"));
    EXPECT_EQ(r.u32("a"), 0x01020304u);
    EXPECT_EQ(r.f32("b"), 1.5f);
    EXPECT_EQ(r.i16("c"), -2);
    EXPECT_EQ(r.fixedString(9, "name"), "name");
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.remaining(), 0u);
}

TEST(Reader, FirstFailureNamesFileOffsetAndField) {
    Bytes b;
    b.u32(7).u16(1);
    Reader r(b.span(), "model.bin");
    r.u32("count");
    EXPECT_EQ(r.u32("flags"), 0u);
    EXPECT_FALSE(r.ok());
    r.u32("later"); // sticky: the first error stays
    EXPECT_EQ(r.error().message, "model.bin: offset 4 (0x4): flags: needs 4 bytes but only 2 remain (file is 6 bytes)");
}

TEST(Reader, RejectsCountsThatCannotFit) {
    Bytes b;
    b.zeros(100);
    Reader r(b.span(), "f");
    EXPECT_TRUE(r.fits(25, 4, "vertices"));
    EXPECT_FALSE(r.fits(0xFFFFFFFFull, 12, "vertices"));
    EXPECT_NE(r.error().message.find("vertices: count 4294967295"), std::string::npos);
}

TEST(Reader, MagicMismatchShowsBoth) {
    Bytes b;
    b.text("MDL2");
    Reader r(b.span(), "f");
    EXPECT_FALSE(r.expect("MDL1", "magic"));
    EXPECT_EQ(r.error().message, "f: offset 0 (0x0): magic: expected 'MDL1', found 'MDL2'");
}

TEST(Reader, SeekPastTheEndFails) {
    Bytes b;
    b.zeros(8);
    Reader r(b.span(), "f");
    EXPECT_TRUE(r.seek(8, "end"));
    EXPECT_FALSE(r.seek(9, "pointer"));
}

TEST(Reader, ABudgetFailsAtTheFirstChargePastIt) {
    Bytes b;
    b.zeros(16);
    Reader r(b.span(), "f");
    Budget reads(10, "the structures share data so much that decoding would read more than 10 bytes");
    r.skip(4, "header");
    EXPECT_TRUE(r.charge(reads, 6, "first"));
    EXPECT_TRUE(r.chargeAt(8, reads, 4, "second"));
    EXPECT_FALSE(r.charge(reads, 1, "third"));
    EXPECT_EQ(r.error().message,
              "f: offset 4 (0x4): third: the structures share data so much that decoding would read more than 10 bytes");
    Budget storage(100, "more bytes of storage would pass the cap");
    EXPECT_TRUE(storage.take(100));
    EXPECT_FALSE(storage.take(1)) << "a spent budget takes nothing more";
}
