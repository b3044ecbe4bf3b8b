// A mirrored node draws its triangles with the right side in front, on every draw path, with
// validation on. The model is one triangle worked out by hand: in its mesh's space (-5,-5,0),
// (5,-5,0), (0,5,0), counter-clockwise seen from +z (its front, normal +z); its node is scaled by
// (-1, 1, 1), so in the world the corners are (5,-5,0), (-5,-5,0), (0,5,0), clockwise seen from
// +z. The mirror keeps the side the normal points to, +z: seen from +z the triangle must be drawn
// (a renderer that kept counter-clockwise as the front culls it), seen from -z it must not be
// (culling is on: the material is one-sided).
#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "anim/winding.h"
#include "model/validate.h"
#include "render/headless.h"
#include "support/image.h"
#include "support/vulkan_fixture.h"
#include "vk/gpu_mesh.h"

using namespace horde;

namespace {

constexpr uint32_t kWidth = 96, kHeight = 64;
constexpr float kDistance = 40.0f, kFovY = 0.7f;

// `vertices` past the triangle's three sit unused at the origin: a mesh of 1024 or more is drawn
// one instance a batch (crowd_asset.cpp), so a pool of its vertices holds one instance a chunk.
Model mirroredTriangle(uint32_t vertices = 3) {
    Model model;
    model.nodes = {Node{.name = "root"}, Node{.name = "mirror", .parent = 0, .scale = {-1, 1, 1}}};
    HeapMeshAllocator heap;
    MeshLayout layout;
    layout.vertexCount = vertices;
    layout.indexCount = 3;
    layout.uvSets = 0;
    Mesh mesh;
    mesh.name = "triangle";
    mesh.node = 1;
    mesh.storage = heap.allocate(layout, mesh.name);
    const glm::vec3 corners[] = {{-5, -5, 0}, {5, -5, 0}, {0, 5, 0}};
    for (uint32_t v = 0; v < vertices; ++v) {
        mesh.arrays().positions[v] = v < 3 ? corners[v] : glm::vec3(0.0f);
        mesh.arrays().normals[v] = {0, 0, 1};
    }
    for (uint32_t i = 0; i < 3; ++i)
        mesh.arrays().setIndex(i, i);
    mesh.submeshes = {{"stone", 0, 3}};
    model.meshes.push_back(std::move(mesh));
    finalizeMeshes(model);
    return model;
}

// Looking at the origin from (0, 0, eyeZ).
ViewCamera lookingFrom(float eyeZ) {
    glm::mat4 projection = glm::perspectiveRH_ZO(kFovY, float(kWidth) / float(kHeight), 1.0f, 100.0f);
    projection[1][1] *= -1.0f;
    const glm::vec3 eye(0, 0, eyeZ);
    return {projection * glm::lookAtRH(eye, glm::vec3(0), glm::vec3(0, 1, 0)), eye,
            float(kHeight) / (2.0f * std::tan(kFovY / 2.0f))};
}

// Where a world point lands, in pixels.
glm::vec2 pixelOf(const ViewCamera& view, glm::vec3 p) {
    const glm::vec4 clip = view.viewProjection * glm::vec4(p, 1.0f);
    return {(clip.x / clip.w * 0.5f + 0.5f) * float(kWidth),
            (clip.y / clip.w * 0.5f + 0.5f) * float(kHeight)};
}

gpu::InstanceRecord standing(float x) {
    return {HORDE_NONE, 0.0f, 1.0f, 1, glm::vec4(x, 0.0f, 0.0f, 0.0f), glm::vec4(1.0f)};
}

class WindingTest : public test::VulkanTest {
  protected:
    HeadlessResult draw(const Model& model, std::vector<gpu::InstanceRecord> instances,
                        const CrowdSettings& settings, const ViewCamera& view) {
        CrowdModel crowdModel(device(), model, {.crowd = settings.lod});
        const CrowdModel* models[] = {&crowdModel};
        CrowdScene scene(device(), models, {std::move(instances)}, settings,
                         {.slots = kFramesInFlight, .colorFormat = kOffscreenColorFormat});
        chunked_ = throwsOnReadback(scene);
        HeadlessOptions options;
        options.width = kWidth;
        options.height = kHeight;
        options.frames = 2;
        return renderHeadless(device(), scene, view, options);
    }
    // A crowd drawn in chunks has no skinned pool to read back.
    static bool throwsOnReadback(CrowdScene& scene) {
        try {
            (void)scene.readSkinned(0, 0, 0, false);
        } catch (const std::logic_error&) {
            return true;
        }
        return false;
    }
    bool chunked_ = false;
};

} // namespace

TEST(Winding, TheMirroredTrianglesWorldCornersAndFacingAreTheOnesWorkedOutByHand) {
    const Model model = mirroredTriangle();
    const std::vector<PosedMesh> posed = poseModel(model, Playback{}, 0.0);
    ASSERT_EQ(posed.size(), 1u);
    const glm::dvec3 expected[] = {{5, -5, 0}, {-5, -5, 0}, {0, 5, 0}};
    for (size_t v = 0; v < 3; ++v) {
        EXPECT_EQ(posed[0].positions[v], expected[v]) << "corner " << v;
        EXPECT_EQ(posed[0].normals[v], glm::dvec3(0, 0, 1)) << "corner " << v;
    }
    EXPECT_EQ(mirroredMeshes(model), std::vector<bool>{true});
}

// Brute force, one instance: the scene's indirect draws.
TEST_F(WindingTest, AMirroredTriangleShowsItsFrontAndCullsItsBack) {
    Model model = mirroredTriangle();
    uploadMeshes(device(), model);
    CrowdSettings settings = singleInstanceSettings();
    const ViewCamera front = lookingFrom(kDistance);
    const HeadlessResult seen = draw(model, {standing(0.0f)}, settings, front);
    ASSERT_FALSE(chunked_);
    const test::Coverage c = test::coverage(seen.image);
    // The corners' pixels, from the hand-worked world corners.
    const glm::vec2 a = pixelOf(front, {5, -5, 0}), b = pixelOf(front, {-5, -5, 0}),
                    top = pixelOf(front, {0, 5, 0});
    const glm::vec2 lo = glm::min(glm::min(a, b), top), hi = glm::max(glm::max(a, b), top);
    ASSERT_GT(c.pixels, 0u) << "the front of the mirrored triangle was culled";
    EXPECT_NEAR(double(c.minX), double(lo.x), 1.0);
    EXPECT_NEAR(double(c.maxX), double(hi.x), 1.0);
    EXPECT_NEAR(double(c.minY), double(lo.y), 1.0);
    EXPECT_NEAR(double(c.maxY), double(hi.y), 1.0);
    // Half the box, within the edge pixels' share.
    const double area = 0.5 * double(hi.x - lo.x) * double(hi.y - lo.y);
    EXPECT_NEAR(double(c.pixels), area, 0.1 * area);
    EXPECT_TRUE(test::isForeground(seen.image, kWidth / 2, kHeight / 2));

    const HeadlessResult behind = draw(model, {standing(0.0f)}, settings, lookingFrom(-kDistance));
    EXPECT_EQ(test::coverage(behind.image).pixels, 0u) << "the back of a one-sided triangle was drawn";
}

// Brute force through a pool of one instance's vertices: two instances, two chunks.
TEST_F(WindingTest, InChunksEachMirroredTriangleShowsItsFrontAndCullsItsBack) {
    Model model = mirroredTriangle(1024);
    uploadMeshes(device(), model);
    CrowdSettings settings = singleInstanceSettings();
    settings.vertexBudget = 1024;
    const std::vector<gpu::InstanceRecord> two = {standing(-6.0f), standing(6.0f)};
    const HeadlessResult seen = draw(model, two, settings, lookingFrom(kDistance));
    ASSERT_TRUE(chunked_);
    EXPECT_EQ(test::blobs(seen.image, 20), 2u) << "each chunk's triangle shows its front";
    const HeadlessResult behind = draw(model, two, settings, lookingFrom(-kDistance));
    EXPECT_EQ(test::coverage(behind.image).pixels, 0u);
}

// With LOD and culling, and as an impostor: the triangle a few pixels across is drawn from the
// atlas, whose bake draws the mesh from each view (from +z the front, from -z nothing).
TEST_F(WindingTest, TheCrowdPathAndTheImpostorBakeShowTheMirroredFront) {
    Model model = mirroredTriangle();
    uploadMeshes(device(), model);
    CrowdSettings settings;
    for (bool impostors : {false, true}) {
        SCOPED_TRACE(impostors ? "impostor" : "mesh");
        settings.impostors = impostors;
        // The triangle's sphere (radius 7.07) is 31 px across from here: under 16 px a pixel of
        // error it is an impostor, so an error of 8 px makes it one and 1 px keeps the mesh.
        settings.lodErrorPixels = impostors ? 8.0f : 1.0f;
        const HeadlessResult seen = draw(model, {standing(0.0f)}, settings, lookingFrom(kDistance));
        ASSERT_EQ(seen.stats.counts.back().impostors, impostors ? 1u : 0u);
        EXPECT_GT(test::coverage(seen.image).pixels, 100u);
        const HeadlessResult behind = draw(model, {standing(0.0f)}, settings, lookingFrom(-kDistance));
        EXPECT_EQ(test::coverage(behind.image).pixels, 0u);
    }
}
