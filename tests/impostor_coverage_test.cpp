// How an impostor's coverage becomes samples (impostor.frag's sample mask, mirrored by
// crowd/impostor_coverage.h), against cases worked out by hand from the 4 x 4 ordered dither
// (0 8 2 10 / 12 4 14 6 / 3 11 1 9 / 15 7 13 5, each k giving the threshold (k + 0.5) / 16).
#include <bit>
#include <vector>

#include <gtest/gtest.h>

#include "crowd/impostor_coverage.h"

namespace horde {
namespace {

// Over one 4 x 4 block of pixels: how many pixels take each number of samples.
std::vector<uint32_t> histogram(float alpha, uint32_t samples) {
    std::vector<uint32_t> out(samples + 1, 0);
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) ++out[impostorSamples(alpha, samples, {x + 8, y + 4})];
    return out;
}

TEST(ImpostorCoverage, ASharesSamplesAsWorkedOutByHand) {
    // Half coverage of four samples: 2 + a dither under 1 is two samples in every pixel.
    EXPECT_EQ(histogram(0.5f, 4), (std::vector<uint32_t>{0, 0, 16, 0, 0}));
    // 0.3 of four: 1.2 + d reaches 2 where d >= 0.8, thresholds 13.5, 14.5 and 15.5 of 16: three
    // pixels of two samples, thirteen of one; 19 of 64 samples for 0.3's 19.2.
    EXPECT_EQ(histogram(0.3f, 4), (std::vector<uint32_t>{0, 13, 3, 0, 0}));
    // Whole and none.
    EXPECT_EQ(histogram(1.0f, 4), (std::vector<uint32_t>{0, 0, 0, 0, 16}));
    EXPECT_EQ(histogram(0.0f, 8), (std::vector<uint32_t>{16, 0, 0, 0, 0, 0, 0, 0, 0}));
    // One sample: a screen door, drawn where d >= 0.5, that is k >= 8: half the pixels.
    EXPECT_EQ(histogram(0.5f, 1), (std::vector<uint32_t>{8, 8}));
    // A trace of coverage (1/255) never reaches a sample: 15.5/16 + 1/255 < 1.
    EXPECT_EQ(histogram(1.0f / 255.0f, 1), (std::vector<uint32_t>{16, 0}));
}

TEST(ImpostorCoverage, TheRunOfSamplesMovesWithThePixelAndWraps) {
    // First sample (x + 2y) mod 4.
    EXPECT_EQ(sampleRun(2, 4, {0, 0}), 0b0011u);
    EXPECT_EQ(sampleRun(2, 4, {1, 0}), 0b0110u);
    EXPECT_EQ(sampleRun(2, 4, {3, 0}), 0b1001u); // samples 3 and 0
    EXPECT_EQ(sampleRun(2, 4, {0, 1}), 0b1100u);
    EXPECT_EQ(sampleRun(4, 4, {1, 1}), 0b1111u);
    EXPECT_EQ(sampleRun(3, 8, {7, 0}), 0b1000'0011u); // samples 7, 0 and 1
    EXPECT_EQ(sampleRun(1, 1, {5, 9}), 1u);
    for (uint32_t covered = 0; covered <= 8; ++covered)
        for (uint32_t x = 0; x < 8; ++x) EXPECT_EQ(std::popcount(sampleRun(covered, 8, {x, 3})), int(covered));
}

// The dither's index k of each pixel of a 4 x 4 block, row by row.
constexpr uint32_t kDither[16] = {0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5};

// How many of a 4 x 4 block's samples a fading mesh takes.
int fadeSamples(uint32_t step, uint32_t samples) {
    int n = 0;
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) n += std::popcount(fadeMask(step, samples, {x + 4, y}));
    return n;
}

// A fading mesh takes the samples whose rank, k x samples + the sample, lies below its share of
// 16 x samples (at the rank's centre): whole pixels first. The impostor takes the rest.
TEST(ImpostorCoverage, AFadingMeshTakesItsShareOfTheSamples) {
    for (uint32_t y = 0; y < 4; ++y)
        for (uint32_t x = 0; x < 4; ++x) {
            const uint32_t k = kDither[y * 4 + x];
            // Half of four samples: ranks below 32, the pixels of k under 8 whole.
            EXPECT_EQ(fadeMask(128, 4, {x, y}), k < 8 ? 0b1111u : 0u);
            // A quarter: ranks below 16, k under 4.
            EXPECT_EQ(fadeMask(64, 4, {x, y}), k < 4 ? 0b1111u : 0u);
        }
    // 131 of 256 is 32.75 of a block's 64 samples: ranks 0 to 32, the pixels of k under 8 and
    // sample 0 of k 8's.
    EXPECT_EQ(fadeSamples(131, 4), 33);
    EXPECT_EQ(fadeMask(131, 4, {1, 0}), 0b0001u); // k 8
    EXPECT_EQ(fadeMask(131, 4, {0, 0}), 0b1111u); // k 0
    // The band's ends: a step of 1 (a 64th of a sample's share) takes nothing, 255 everything.
    EXPECT_EQ(fadeSamples(1, 4), 0);
    EXPECT_EQ(fadeSamples(255, 4), 64);
    // One sample: a screen door over the pixels whose k is under the share of 16.
    EXPECT_EQ(fadeSamples(128, 1), 8);
    EXPECT_EQ(fadeMask(128, 1, {1, 0}), 0u); // k 8
    EXPECT_EQ(fadeMask(128, 1, {2, 2}), 1u); // k 1
}

} // namespace
} // namespace horde
