#pragma once
// The writer's plan: the file's node tree in pre-order, in the file's axes, with every mesh cut
// into the pieces the format can hold. Built first so that byte emission needs no decisions.
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "asset/model.h"
#include "core/result.h"

namespace horde::nwn {

// Source axes -> NWN axes (Z up, right-handed, counter-clockwise fronts): a signed permutation.
struct AxisChange {
    glm::mat3 axes{1.0f};
    float determinant = 1.0f;
    bool flipWinding = false;

    glm::vec3 point(glm::vec3 p) const { return axes * p; }
    // Conjugating a rotation by a (possibly improper) axis change is linear in the quaternion:
    // the vector part turns with the axes and takes the determinant's sign.
    glm::vec4 rotation(glm::vec4 q) const { return glm::vec4(determinant * (axes * glm::vec3(q)), q.w); }
};
AxisChange toNwnAxes(const Axes& source);

// One piece of a mesh: at most 65535 vertices and, when skinned, at most 17 bones.
struct MeshPiece {
    std::string material;
    std::vector<uint32_t> vertices;  // source vertex of each piece vertex
    std::vector<uint16_t> indices;   // piece-local, three per triangle, in file winding
    std::vector<uint32_t> bones;     // skinned: file node index of each bone slot
    std::vector<glm::i16vec4> boneRefs; // skinned: bone slot per influence, -1 unused
    std::vector<glm::vec4> weights;  // skinned
};

struct PlannedNode {
    std::string name;
    int32_t parent = -1;
    std::vector<uint32_t> children;
    glm::vec3 translation{0.0f};
    glm::vec4 rotation{0, 0, 0, 1}; // x, y, z, w
    float scale = 1.0f;
    int32_t source = -1;  // model node, -1 for nodes the writer adds
    int32_t mesh = -1;    // source mesh of a piece node
    int32_t piece = -1;   // index into Plan::pieces
};

struct Plan {
    AxisChange change;
    std::string name;
    std::vector<PlannedNode> nodes;      // pre-order: parents first, children in order
    std::vector<uint32_t> fileIndex;     // model node -> file node
    std::vector<MeshPiece> pieces;
    std::vector<glm::mat4> restModel;    // per file node, in file axes
};

Result<Plan> planModel(const Model& model, const std::string& name);

} // namespace horde::nwn
