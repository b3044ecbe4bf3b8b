// .sklb: uint32 joint count, then per joint name[32], parent[32] (empty: a root), position
// (vec3) and rotation (quaternion x, y, z, w). Local = T * R; a parent is named before its
// children.
#include "emi/emi.h"

#include <cmath>

#include "model/validate.h"

namespace horde::emi {

namespace {
constexpr size_t kJointBytes = 32 + 32 + 12 + 16;
} // namespace

Status readSkeleton(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& model) {
    Reader r(bytes, path.string());
    uint32_t count = r.u32("joint count");
    // Skins index joints with 16 bits.
    if (!r.fits(count, kJointBytes, "joint count") || !r.atMost(count, 65535, "joint count")) return r.error();
    if (count == 0) return Error{path.string() + ": offset 0 (0x0): joint count: the skeleton has no joints"};
    NameIndex names(model);
    for (uint32_t j = 0; j < count; ++j) {
        size_t at = r.offset();
        Node node;
        node.name = r.fixedString(32, "joint name");
        std::string parent = r.fixedString(32, "joint parent");
        node.translation = r.vec3("joint position");
        glm::vec4 q = r.vec4("joint rotation");
        if (!r.ok()) return r.error();
        if (!names.add(node.name, int32_t(model.nodes.size())))
            return failedAt(r, at, "joint name", "'" + node.name + "' names two joints (EMI finds joints by name)");
        if (!parent.empty()) {
            int32_t p = names.find(parent);
            if (p < 0 || p >= int32_t(model.nodes.size()))
                return failedAt(r, at + 32, "joint parent", "'" + parent + "' is not a joint named before '" + node.name + "'");
            node.parent = p;
        }
        if (!finite(glm::vec4(node.translation, 0.0f)))
            return failedAt(r, at + 64, "joint position", "is not finite");
        float length = std::sqrt(glm::dot(q, q));
        if (!finite(q) || !(length > 1e-6f) || !std::isfinite(length))
            return failedAt(r, at + 76, "joint rotation", "is not a rotation quaternion (zero, not finite or too large)");
        q /= length;
        node.rotation = glm::quat(q.w, q.x, q.y, q.z);
        model.nodes.push_back(std::move(node));
    }
    return Ok{};
}

} // namespace horde::emi
