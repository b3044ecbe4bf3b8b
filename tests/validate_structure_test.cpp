// validate's structure checks and the format changes they recognise: a file may list only the
// joints its vertices weigh (SWTOR meshes do), which skins the same, while a weighted joint
// missing is still a difference; the EMI reader gives each mesh a root node of its own.
#include <algorithm>

#include <gtest/gtest.h>

#include "model/mesh_storage.h"
#include "monster.h"
#include "validate_compare.h"

namespace horde {
namespace {

// Removes skin joint `index` from the monster, renumbering the vertices' joint references above it.
void dropJoint(Model& m, uint32_t index) {
    Skin& skin = m.skins[0];
    skin.joints.erase(skin.joints.begin() + index);
    skin.inverseBind.erase(skin.inverseBind.begin() + index);
    for (glm::u16vec4& j : m.meshes[0].arrays().joints)
        for (int k = 0; k < 4; ++k)
            if (j[k] > index) --j[k];
}

bool weighs(const Model& m, uint32_t joint) {
    const MeshArrays& v = m.meshes[0].arrays();
    for (size_t i = 0; i < v.weights.size(); ++i)
        for (int k = 0; k < 4; ++k)
            if (v.joints[i][k] == joint && v.weights[i][k] > 0.0f) return true;
    return false;
}

TEST(ValidateJoints, AnUnweightedJointMissingFromOneSideIsAMapping) {
    HeapMeshAllocator allocator;
    Model a = buildMonster(allocator), b = buildMonster(allocator);
    ASSERT_EQ(a.nodes[a.skins[0].joints[0]].name, "root");
    ASSERT_FALSE(weighs(a, 0));
    dropJoint(b, 0);
    Check joints = compareStructure(a, b, "monster", "m.gr2")[1];
    EXPECT_TRUE(joints.passed) << joints.detail;
    EXPECT_EQ(
        joints.detail,
        "79 joints in 1 skins, same names in order; 1 joint(s) no vertex weighs only in monster: 'root'");
    // The other way round it is reported by the other name.
    Check reversed = compareStructure(b, a, "m.gr2", "monster")[1];
    EXPECT_TRUE(reversed.passed);
    EXPECT_NE(reversed.detail.find("only in monster: 'root'"), std::string::npos) << reversed.detail;
}

TEST(ValidateJoints, AWeightedJointMissingFails) {
    HeapMeshAllocator allocator;
    Model a = buildMonster(allocator), b = buildMonster(allocator);
    const uint32_t hips = 1;
    ASSERT_EQ(a.nodes[a.skins[0].joints[hips]].name, "hips");
    ASSERT_TRUE(weighs(a, hips));
    dropJoint(b, hips);
    Check joints = compareStructure(a, b, "monster", "broken.glb")[1];
    EXPECT_FALSE(joints.passed);
    EXPECT_NE(joints.detail.find("skin 0: 80 joints vs 79"), std::string::npos) << joints.detail;
    EXPECT_NE(joints.detail.find("joint 1: 'hips' vs 'spine0'"), std::string::npos) << joints.detail;
}

// The monster as the EMI reader returns it: an identity root named after the mesh, holding it.
void addMeshRoot(Model& m, const std::string& format, glm::vec3 translation = glm::vec3(0.0f)) {
    m.format = format;
    Node root;
    root.name = m.meshes[0].name;
    root.translation = translation;
    m.meshes[0].node = uint32_t(m.nodes.size());
    m.nodes.push_back(root);
}

TEST(ValidateHierarchy, TheEmiReadersMeshRootIsAMapping) {
    HeapMeshAllocator allocator;
    Model a = buildMonster(allocator), emi = buildMonster(allocator);
    ASSERT_EQ(a.meshes[0].name, "monster");
    addMeshRoot(emi, "emi");
    Check hierarchy = compareStructure(a, emi, "monster", "m.meshb")[0];
    EXPECT_TRUE(hierarchy.passed) << hierarchy.detail;
    EXPECT_EQ(hierarchy.detail,
              "80 nodes, same names and parents; EMI mapping: root 'monster' (the node the reader gives "
              "the mesh) added");
}

TEST(ValidateHierarchy, AnAddedRootIsADifferenceAnywhereElse) {
    HeapMeshAllocator allocator;
    Model a = buildMonster(allocator), gltf = buildMonster(allocator), moved = buildMonster(allocator);
    addMeshRoot(gltf, "gltf");
    addMeshRoot(moved, "emi", glm::vec3(0.0f, 1.0f, 0.0f)); // not the reader's identity root
    for (const Model* b : {&gltf, &moved}) {
        Check hierarchy = compareStructure(a, *b, "monster", "b")[0];
        EXPECT_FALSE(hierarchy.passed);
        EXPECT_EQ(hierarchy.detail, "80 nodes vs 81");
    }
}

// Names may repeat (NWN's c_mindflayer hangs a skin mesh named 'head' from a dummy named 'head'):
// nodes pair by where they hang, so the same tree passes whatever order B lists it in, and a
// node of a repeated name hung elsewhere fails, named with both parents.
TEST(ValidateHierarchy, RepeatedNamesPairByTheirPlaceInTheTree) {
    auto tree = [](std::vector<std::pair<std::string, int32_t>> nodes) {
        Model m;
        for (auto& [name, parent] : nodes)
            m.nodes.push_back({.name = name, .parent = parent});
        return m;
    };
    const Model a = tree({{"root", -1}, {"head", 0}, {"head", 1}, {"jaw", 2}});
    // B holds the same tree with a sibling listed between (parents still first).
    const Model same = tree({{"root", -1}, {"head", 0}, {"tail", 0}, {"head", 1}, {"jaw", 3}});
    const Model withTail = tree({{"root", -1}, {"head", 0}, {"head", 1}, {"jaw", 2}, {"tail", 0}});
    Check pass = compareStructure(withTail, same, "a", "b")[0];
    EXPECT_TRUE(pass.passed) << pass.detail;
    EXPECT_EQ(pass.detail,
              "5 nodes, same names and parents (2 nodes share a name with another: told apart by where "
              "they hang)");

    const Model moved = tree({{"root", -1}, {"head", 0}, {"head", 0}, {"jaw", 2}});
    Check wrong = compareStructure(a, moved, "a", "b")[0];
    EXPECT_FALSE(wrong.passed);
    EXPECT_EQ(wrong.detail, "node 'head' has parent 'head' vs 'root'");
}

} // namespace
} // namespace horde

// Which poses are drawn as pictures: the bind pose, then the middle of each of budget - 1 equal
// runs of the rest. 11 poses, budget 4: runs of 10/3 poses after the first, their middles
// 1 + floor(10/6, 30/6, 50/6) = 2, 6, 9.
TEST(ValidatePoses, PicturesAreSpreadEvenlyAfterTheBindPose) {
    using horde::PoseSpec;
    auto pictured = [](size_t count, size_t budget) {
        std::vector<PoseSpec> poses(count);
        horde::choosePictured(poses, budget);
        std::vector<size_t> out;
        for (size_t i = 0; i < poses.size(); ++i)
            if (poses[i].pictured) out.push_back(i);
        return out;
    };
    EXPECT_EQ(pictured(11, 4), (std::vector<size_t>{0, 2, 6, 9}));
    EXPECT_EQ(pictured(11, 1), (std::vector<size_t>{0}));
    EXPECT_EQ(pictured(11, 11), (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    EXPECT_EQ(pictured(3, 8), (std::vector<size_t>{0, 1, 2}));
    EXPECT_EQ(pictured(771, 8).size(), 8u);
}
