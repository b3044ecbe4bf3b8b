// The CPU reference of the cull pass: frustum planes against clip space, sphere tests at the
// planes, level choice against distance, and when a shared pose is allowed.
#include <cmath>
#include <limits>
#include <random>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "crowd/cull_reference.h"

using namespace horde;

namespace {
glm::mat4 camera() {
    glm::mat4 proj = glm::perspectiveRH_ZO(0.8f, 1.5f, 0.5f, 200.0f);
    proj[1][1] *= -1.0f;
    return proj * glm::lookAtRH(glm::vec3(3, 4, 10), glm::vec3(0, 0, 0), glm::vec3(0, 1, 0));
}

CullModelInfo oneMesh(std::vector<float> errors) {
    CullModelInfo info;
    info.sphere = glm::vec4(0, 0, 0, 0.5f);
    info.levelErrors = {std::move(errors)};
    return info;
}
} // namespace

TEST(CullReference, PointsInsideThePlanesAreInsideClipSpace) {
    glm::mat4 m = camera();
    std::array<glm::vec4, 6> planes = frustumPlanes(m);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> coord(-60.0f, 60.0f);
    int inside = 0;
    for (int i = 0; i < 20000; ++i) {
        glm::vec3 p(coord(rng), coord(rng), coord(rng));
        glm::vec4 clip = m * glm::vec4(p, 1.0f);
        bool clipInside = clip.w > 0 && std::abs(clip.x) <= clip.w && std::abs(clip.y) <= clip.w &&
                          clip.z >= 0 && clip.z <= clip.w;
        bool planeInside = true;
        double margin = 1e30;
        for (const glm::vec4& plane : planes) {
            double d = glm::dot(glm::dvec3(plane), glm::dvec3(p)) + plane.w;
            planeInside = planeInside && d >= 0;
            margin = std::min(margin, std::abs(d));
        }
        if (margin < 1e-3) continue; // on a plane: either answer is right within rounding
        EXPECT_EQ(clipInside, planeInside) << p.x << " " << p.y << " " << p.z;
        inside += clipInside;
    }
    EXPECT_GT(inside, 100);
}

TEST(CullReference, ASphereIsCulledOnlyWhenWhollyOutsideOnePlane) {
    std::array<glm::vec4, 6> planes = frustumPlanes(camera());
    CullCamera cam{planes, glm::vec3(3, 4, 10), 500.0f};
    CullModelInfo info = oneMesh({0.0f});
    const glm::vec3 n(planes[0]); // the left plane: a point at distance d lies at d along n
    // The point of the left plane nearest the view axis at the target's depth.
    const glm::vec3 onPlane = glm::vec3(0.0f) - n * (glm::dot(n, glm::vec3(0.0f)) + planes[0].w);
    int checked = 0;
    for (double d : {-0.6, -0.51, -0.49, -0.2, 0.3}) {
        CullInstance instance{onPlane + n * float(d), 0.0f, -1, 0.0};
        bool visible = cullInstance(info, instance, cam, {.impostors = false}).visible;
        // Inside the other five planes? Only the left plane decides for points near the target.
        bool othersAgree = true;
        for (int p = 1; p < 6; ++p)
            othersAgree =
                othersAgree && glm::dot(glm::vec3(planes[p]), instance.position) + planes[p].w > 0.5f;
        if (!othersAgree) continue;
        EXPECT_EQ(visible, d >= -0.5) << "sphere of radius 0.5 at signed distance " << d;
        ++checked;
    }
    EXPECT_EQ(checked, 5);
}

TEST(CullReference, LevelsGrowCoarserWithDistanceAndStopAtTheError) {
    CullModelInfo info = oneMesh({0.0f, 0.01f, 0.04f, 0.2f});
    CullCamera cam{frustumPlanes(glm::mat4(1.0f)), glm::vec3(0.0f), 1000.0f};
    const CrowdSettings noFrustum{.cull = false, .impostors = false};
    uint32_t previous = 0;
    for (double distance = 0.6; distance < 1e5; distance *= 1.2) {
        CullDecision d =
            cullInstance(info, {glm::vec3(0, 0, -float(distance)), 0.0f, -1, 0.0}, cam, noFrustum);
        ASSERT_EQ(d.levels.size(), 1u);
        EXPECT_GE(d.levels[0], previous);
        previous = d.levels[0];
        // The chosen level's error projects within a pixel; the next one's does not.
        double pixelsPerUnit = 1000.0 / (distance - 0.5);
        EXPECT_LE(info.levelErrors[0][d.levels[0]] * pixelsPerUnit, 1.0 + 1e-9);
        if (d.levels[0] + 1 < 4) {
            EXPECT_GT(info.levelErrors[0][d.levels[0] + 1] * pixelsPerUnit, 1.0 - 1e-9);
        }
    }
    EXPECT_EQ(previous, 3u);
    CullDecision off = cullInstance(info, {glm::vec3(0, 0, -1e4f), 0.0f, -1, 0.0}, cam, {.lod = false, .cull = false, .impostors = false});
    EXPECT_EQ(off.levels[0], 0u) << "LOD off: always the source mesh";
}

TEST(CullReference, APoseIsSharedWhenItsBucketErrorProjectsWithinTheLimit) {
    CullModelInfo info = oneMesh({0.0f});
    info.clipDuration = {2.0f};
    info.clipSpeed = {3.0f}; // so half a bucket moves a vertex at most 3 x 2 / 128 units
    info.bucketsPerClip = 64;
    CullCamera cam{frustumPlanes(glm::mat4(1.0f)), glm::vec3(0.0f), 1000.0f};
    const double error = 3.0 * 2.0 / 128.0;
    const double limitDistance = error * 1000.0 + 0.5; // where it projects to one pixel
    CullDecision nearBy = cullInstance(info, {glm::vec3(0, 0, -float(limitDistance * 0.9)), 0.0f, 0, 1.3},
                                       cam, {.cull = false, .impostors = false});
    CullDecision far = cullInstance(info, {glm::vec3(0, 0, -float(limitDistance * 1.1)), 0.0f, 0, 1.3}, cam,
                                    {.cull = false, .impostors = false});
    EXPECT_FALSE(nearBy.sharedPose);
    EXPECT_TRUE(far.sharedPose);
    EXPECT_EQ(far.bucket, uint32_t(1.3 / 2.0 * 64)) << "the bucket holding clip time 1.3 s";
    CullDecision bind = cullInstance(info, {glm::vec3(0, 0, -1.0f), 0.0f, -1, 0.0}, cam, {.cull = false, .impostors = false});
    EXPECT_TRUE(bind.sharedPose) << "the bind pose is the same for everyone: always shared";
    EXPECT_EQ(bind.bucket, 64u);
}

// A sphere of radius 1 and 100 px a unit at distance 1 spans 200 / (d - 1) px from d units away;
// at 1 px of error impostors take it up to 16 px and it fades over 16 to 24 px (1.5 x 16), its
// meshes taking (size - 16) / 8 of the samples, in 256ths.
TEST(CullReference, AnInstanceFadesIntoItsImpostorOverABandOfSizes) {
    CullModelInfo info = oneMesh({0.0f});
    info.sphere = glm::vec4(0, 0, 0, 1.0f);
    info.clipDuration = {2.0f};
    info.clipSpeed = {100.0f}; // so fast that a mesh this near needs its own pose
    const glm::mat4 ahead = glm::perspectiveRH_ZO(0.8f, 1.0f, 0.5f, 200.0f); // looking down -z
    const CullCamera cam{frustumPlanes(ahead), glm::vec3(0.0f), 100.0f};
    const CrowdSettings fade{.cull = false};
    auto at = [&](double distance, const CrowdSettings& s) {
        return cullInstance(info, {glm::vec3(0, 0, -float(distance)), 0.0f, 0, 1.3}, cam, s);
    };
    const CullDecision half = at(11.0, fade); // 20 px: half way through the band
    EXPECT_FALSE(half.impostor);
    EXPECT_DOUBLE_EQ(half.meshShare, 0.5);
    EXPECT_EQ(half.fadeStep, 128u);
    EXPECT_TRUE(half.sharedPose) << "meshes drawn in the impostor's pose";
    EXPECT_EQ(half.bucket, uint32_t(1.3 / 2.0 * 64));
    const CullDecision early = at(13.0, fade); // 16.67 px: a twelfth of the way
    EXPECT_NEAR(early.meshShare, 1.0 / 12.0, 1e-6);
    EXPECT_EQ(early.fadeStep, 21u); // 256 / 12 = 21.3
    const CullDecision impostor = at(14.0, fade); // 15.4 px
    EXPECT_TRUE(impostor.impostor);
    EXPECT_EQ(impostor.fadeStep, 0u);
    const CullDecision mesh = at(8.0, fade); // 28.6 px
    EXPECT_FALSE(mesh.impostor);
    EXPECT_EQ(mesh.fadeStep, 0u);
    EXPECT_FALSE(mesh.sharedPose);
    CrowdSettings sharp = fade;
    sharp.impostorFade = false;
    EXPECT_EQ(at(11.0, sharp).fadeStep, 0u) << "without the fade, a mesh until the threshold";
    EXPECT_FALSE(at(11.0, sharp).impostor);
}

// An impostor is one point sprite as wide as its rectangle's picture, which lies in the sphere of
// sqrt(2) times the radius: at an angle a off the view's axis that spans at most 2 f sin(b) /
// (cos(a)^2 - sin(b)^2) px, sin(b) = sqrt(2) r / d, and a pixel is added for rounding. With r =
// 1 / sqrt(2) and f = 1000: on the axis 100 away, sin(b) = 0.01 and the span 20 / 0.9999 + 1 =
// 21.002 px; 45 degrees off, 141.42 away, sin(b)^2 = 1 / 20000 and the span 2000 / sqrt(20000) /
// (0.5 - 0.00005) + 1 = 29.2871 px. A device whose points reach 25 px draws the first as an impostor
// (14.2 px across, under 16) and the second, 10.05 px across, as its meshes.
TEST(CullReference, AnImpostorWiderThanTheDevicesLargestPointIsItsMeshes) {
    CullModelInfo info = oneMesh({0.0f});
    const double r = 1.0 / std::sqrt(2.0);
    info.sphere = glm::vec4(0, 0, 0, float(r));
    CullCamera cam{frustumPlanes(glm::perspectiveRH_ZO(1.8f, 1.0f, 0.5f, 500.0f)), glm::vec3(0.0f), 1000.0f};
    const glm::vec3 ahead(0, 0, -100), aside(100, 0, -100);
    EXPECT_NEAR(impostorSpan(cam, glm::dvec3(ahead), r), 21.002, 1e-3);
    EXPECT_NEAR(impostorSpan(cam, glm::dvec3(aside), r), 29.2871, 1e-4);
    EXPECT_EQ(impostorSpan(cam, glm::dvec3(0, 0, 0.5), r), std::numeric_limits<double>::infinity())
        << "the sphere reaches past the eye's side";
    const CrowdSettings settings{.cull = false};
    EXPECT_TRUE(cullInstance(info, {ahead}, cam, settings).impostor);
    EXPECT_TRUE(cullInstance(info, {aside}, cam, settings).impostor) << "any point size by default";
    cam.largestPoint = 25.0f;
    EXPECT_TRUE(cullInstance(info, {ahead}, cam, settings).impostor);
    const CullDecision wide = cullInstance(info, {aside}, cam, settings);
    EXPECT_FALSE(wide.impostor);
    EXPECT_EQ(wide.fadeStep, 0u);
    EXPECT_NEAR(2.0 * r * wide.pixelsPerUnit, 10.05, 0.01) << "small enough to be one";
}

// Four distance buckets, near to far, each wanting 100 vertices and 10 at the coarsest levels.
TEST(CullReference, ThePoolKeepsTheNearestLevelsAndCoarsensTheFarthestBeforeDroppingAny) {
    const uint64_t wanted[] = {100, 100, 100, 100}, coarsest[] = {10, 10, 10, 10};
    auto budget = [&](uint64_t left) { return poolBudget(wanted, coarsest, left); };
    EXPECT_EQ(budget(400).coarseFrom, 4u); // everything fits as wanted
    EXPECT_EQ(budget(400).dropFrom, 4u);
    EXPECT_EQ(budget(399).coarseFrom, 3u); // 300 wanted + 10 coarsest
    // 250: the two nearest as wanted (200) and the rest coarsest (20) fit; a third as wanted
    // would make 310.
    EXPECT_EQ(budget(250).coarseFrom, 2u);
    EXPECT_EQ(budget(250).dropFrom, 4u);
    // 40: everything at its coarsest, nothing dropped.
    EXPECT_EQ(budget(40).coarseFrom, 0u);
    EXPECT_EQ(budget(40).dropFrom, 4u);
    // 25: only two buckets fit even at their coarsest; the farthest two are dropped.
    EXPECT_EQ(budget(25).coarseFrom, 0u);
    EXPECT_EQ(budget(25).dropFrom, 2u);
    EXPECT_EQ(budget(0).dropFrom, 0u);
    EXPECT_EQ(distanceBucket(0.0, 10.0, 256), 0u);
    EXPECT_EQ(distanceBucket(5.0, 10.0, 256), 128u);
    EXPECT_EQ(distanceBucket(25.0, 10.0, 256), 255u); // beyond the far distance: the last bucket
    EXPECT_EQ(distanceBucket(3.0, 0.0, 256), 0u);
}
