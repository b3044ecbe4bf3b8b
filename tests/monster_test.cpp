#include <algorithm>
#include <cstring>
#include <set>

#include <gtest/gtest.h>

#include "model/validate.h"
#include "monster.h"

using namespace horde;

namespace {
int depth(const Model& m, size_t node) {
    int d = 0;
    for (int32_t p = m.nodes[node].parent; p >= 0; p = m.nodes[p].parent) ++d;
    return d;
}
} // namespace

TEST(Monster, HasTheShapeTheBriefAsksFor) {
    HeapMeshAllocator heap;
    Model m = buildMonster(heap);
    ASSERT_TRUE(validateModel(m).ok());
    EXPECT_EQ(m.format, "builtin");
    ASSERT_EQ(m.meshes.size(), 1u);
    const Mesh& mesh = m.meshes[0];
    EXPECT_GE(m.skins[mesh.skin].joints.size(), 40u);
    int maxDepth = 0;
    for (size_t n = 0; n < m.nodes.size(); ++n) maxDepth = std::max(maxDepth, depth(m, n));
    EXPECT_GE(maxDepth, 6);
    EXPECT_GT(mesh.vertexCount(), 7000u);
    EXPECT_LT(mesh.vertexCount(), 9000u);
    std::set<std::string> materials;
    for (const Submesh& s : mesh.submeshes) materials.insert(s.material);
    EXPECT_GE(materials.size(), 2u);

    size_t fourWay = 0, blended = 0;
    for (uint32_t v = 0; v < mesh.vertexCount(); ++v) {
        glm::vec4 w = mesh.arrays().weights[v];
        EXPECT_NEAR(w.x + w.y + w.z + w.w, 1.0f, 1e-5f);
        int used = (w.x > 0) + (w.y > 0) + (w.z > 0) + (w.w > 0);
        fourWay += used == 4;
        blended += used >= 2;
        EXPECT_NEAR(glm::length(mesh.arrays().normals[v]), 1.0f, 1e-4f);
    }
    EXPECT_GT(fourWay, 0u);
    EXPECT_GT(blended, mesh.vertexCount() / 4);
}

TEST(Monster, ClipsKeyTranslationRotationAndScale) {
    HeapMeshAllocator heap;
    Model m = buildMonster(heap);
    ASSERT_GE(m.clips.size(), 2u);
    EXPECT_GE(findClip(m, "walk"), 0);
    EXPECT_GE(findClip(m, "attack"), 0);
    std::set<ChannelPath> paths;
    bool step = false, uneven = false;
    for (const Clip& c : m.clips)
        for (const Channel& ch : c.channels) {
            paths.insert(ch.path);
            step |= ch.interpolation == Interpolation::Step;
            for (size_t k = 2; k < ch.times.size(); ++k)
                uneven |= std::abs((ch.times[k] - ch.times[k - 1]) - (ch.times[1] - ch.times[0])) > 1e-4f;
        }
    EXPECT_EQ(paths.size(), 3u);
    EXPECT_TRUE(step);
    EXPECT_TRUE(uneven);
}

TEST(Monster, IsDeterministicAndScales) {
    HeapMeshAllocator heap;
    Model a = buildMonster(heap), b = buildMonster(heap);
    ASSERT_EQ(a.meshes[0].storage->bytes.size(), b.meshes[0].storage->bytes.size());
    EXPECT_EQ(std::memcmp(a.meshes[0].storage->bytes.data(), b.meshes[0].storage->bytes.data(), a.meshes[0].storage->bytes.size()), 0);
    MonsterParams big{16, 32, 12};
    MeshLayout layout = monsterLayout(big);
    Model c = buildMonster(heap, big);
    EXPECT_EQ(c.meshes[0].vertexCount(), layout.vertexCount);
    EXPECT_EQ(c.meshes[0].indexCount(), layout.indexCount);
    EXPECT_GT(layout.vertexCount, 4 * a.meshes[0].vertexCount());
    EXPECT_TRUE(validateModel(c).ok());
}
