// The impostor bake's views (crowd/impostor_views.h): the level each mesh is baked at, and the
// coverage each view gives back, against a card of two unit squares whose coarser level keeps one
// of them. Its halves meet on a cell boundary of the coverage grid (128 cells from either side),
// so half the area is half the cells, whatever the rounding of the view directions.
#include <cmath>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "crowd/impostor_views.h"

namespace horde {
namespace {

// The card lies in the plane of `first` and `second` (its corners 0 to 2 along the first, 0 to 1
// along the second); level 1 keeps the squares along the first axis from 0 to 1, at `error`.
struct Card {
    CrowdAsset asset;
    std::vector<std::vector<glm::vec3>> rest;
};

Card card(glm::vec3 first, glm::vec3 second, float error, const glm::mat4& axesToWorld = glm::mat4(1.0f)) {
    Card c;
    std::vector<glm::vec3>& p = c.rest.emplace_back();
    for (float along : {0.0f, 1.0f})
        for (float x : {0.0f, 1.0f, 2.0f})
            p.push_back(x * first + along * second);
    LodChain chain;
    chain.order = {0, 1, 2, 3, 4, 5};
    // Vertices 0 1 2 along the first axis, 3 4 5 one unit along the second.
    chain.indices = {0, 1, 4, 0, 4, 3, 1, 2, 5, 1, 5, 4, 0, 1, 4, 0, 4, 3};
    chain.levels.resize(2);
    chain.levels[0].submeshes = {{"", 0, 12}};
    chain.levels[1].submeshes = {{"", 12, 6}};
    chain.levels[1].error = error;
    c.asset.lods.push_back(std::move(chain));
    c.asset.cullMeshes.push_back({0, 2, 0, 0});
    c.asset.cullLevels.resize(2);
    c.asset.cullLevels[1].error = error;
    // A texel of a tile: 2 x 1.6 / 32 = 0.1.
    c.asset.worldSphere = glm::vec4(1.0f, 0.5f, 0.0f, 1.6f);
    c.asset.axesToWorld = axesToWorld;
    return c;
}

TEST(ImpostorViews, TheViewsCircleTheModelAndClimbFromTheHorizon) {
    EXPECT_NEAR(glm::length(impostorViewBack(0) - glm::vec3(0, 0, 1)), 0.0f, 1e-6f);
    // A quarter turn (3 of 12 azimuths) from +Z about +Y is +X.
    EXPECT_NEAR(glm::length(impostorViewBack(3) - glm::vec3(1, 0, 0)), 0.0f, 1e-6f);
    // The second ring, 30 degrees up.
    EXPECT_NEAR(glm::length(impostorViewBack(HORDE_IMPOSTOR_AZIMUTHS) - glm::vec3(0, 0.5f, std::sqrt(0.75f))),
                0.0f, 1e-6f);
}

TEST(ImpostorViews, AMeshIsBakedAtItsCoarsestLevelWithinATexel) {
    EXPECT_EQ(impostorBakeLevel(card({1, 0, 0}, {0, 1, 0}, 0.1f).asset, 0), 1u) << "0.1 is a texel";
    EXPECT_EQ(impostorBakeLevel(card({1, 0, 0}, {0, 1, 0}, 0.11f).asset, 0), 0u);
}

TEST(ImpostorViews, AViewGivesBackTheCoverageTheBakedLevelLost) {
    // Facing +Z: azimuths 0 and 180 degrees see the card face on from every elevation (a
    // rectangle 2 by cos(elevation), 1 by cos(elevation) kept), so exactly twice the cells.
    const Card c = card({1, 0, 0}, {0, 1, 0}, 0.05f);
    const std::vector<float> scales = impostorCoverageScales(c.asset, c.rest);
    ASSERT_EQ(scales.size(), kImpostorViews);
    for (uint32_t e = 0; e < HORDE_IMPOSTOR_ELEVATIONS; ++e)
        for (uint32_t a : {0u, HORDE_IMPOSTOR_AZIMUTHS / 2}) {
            const uint32_t view = e * HORDE_IMPOSTOR_AZIMUTHS + a;
            EXPECT_FLOAT_EQ(scales[view], 2.0f) << "view " << view;
        }
    // Turned views see the halves as two parallelograms alike but for the cells' rounding; seen
    // edge on (azimuths 90 and 270 degrees) the card covers next to nothing either way.
    for (uint32_t view = 0; view < kImpostorViews; ++view) {
        if (view % (HORDE_IMPOSTOR_AZIMUTHS / 2) == HORDE_IMPOSTOR_AZIMUTHS / 4) continue;
        EXPECT_NEAR(scales[view], 2.0f, 0.04f) << "view " << view;
    }
}

TEST(ImpostorViews, TheViewsAreTakenIntoTheModelsAxes) {
    // The card in the model's x-z plane, turned a quarter about +X into the world's x-y plane:
    // face on from azimuth 0, as above. Seen in the model's axes instead, view 0 would be edge on.
    const Card c = card({1, 0, 0}, {0, 0, -1}, 0.05f,
                        glm::rotate(glm::mat4(1.0f), float(M_PI) / 2.0f, glm::vec3(1, 0, 0)));
    EXPECT_FLOAT_EQ(impostorCoverageScales(c.asset, c.rest)[0], 2.0f);
}

TEST(ImpostorViews, NothingIsGivenBackWhereTheSourceIsBaked) {
    const Card fine = card({1, 0, 0}, {0, 1, 0}, 0.2f);
    EXPECT_EQ(impostorCoverageScales(fine.asset, fine.rest), std::vector<float>(kImpostorViews, 1.0f))
        << "level 1 is past a texel: level 0 is baked";
    const Card unknown = card({1, 0, 0}, {0, 1, 0}, 0.05f);
    EXPECT_EQ(impostorCoverageScales(unknown.asset, {}), std::vector<float>(kImpostorViews, 1.0f))
        << "no rest positions (a one-instance view's asset)";
}

} // namespace
} // namespace horde
