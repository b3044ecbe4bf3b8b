#include "nwn/nwn.h"

#include <algorithm>
#include <unordered_set>

namespace horde::nwn {

size_t nodeSize(uint32_t flags) {
    size_t size = kNodeHeaderSize;
    if (flags & kHasLight) size = std::max(size, kLightEnd);
    if (flags & kHasEmitter) size = std::max(size, kEmitterEnd);
    if (flags & kHasReference) size = std::max(size, kReferenceEnd);
    if (flags & kHasMesh) size = std::max(size, kMeshEnd);
    if (flags & kHasSkin) size = std::max(size, kSkinEnd);
    if (flags & kHasAnim) size = std::max(size, kAnimMeshEnd);
    if (flags & kHasDangly) size = std::max(size, kDanglyEnd);
    if (flags & kHasAABB) size = std::max(size, kAABBEnd);
    return size;
}

namespace {
struct Pending {
    uint32_t offset;
    int32_t parent;
    uint32_t depth;
};

bool readNode(File& file, const Pending& at, RawNode& node, Array& children) {
    Reader& r = file.reader();
    if (!file.seekStruct(at.offset, kNodeHeaderSize, kNodeName, "node header")) return false;
    node.offset = at.offset;
    node.parent = at.parent;
    node.name = file.name(32, "node name");
    r.seek(r.offset() + (kNodeChildren - kNodeName - 32), "node children");
    children = file.array("node children");
    node.controllerKeys = file.array("node controller keys");
    node.controllerData = file.array("node controller data");
    size_t flagsAt = r.offset();
    node.flags = r.u32("node flags");
    if (!r.ok()) return false;
    if (!(node.flags & kHasHeader) || (node.flags & ~kKnownFlags))
        return r.failAt(flagsAt, "node flags", hex(node.flags) + " is not a node type (node '" + node.name + "')");
    return file.seekStruct(at.offset, nodeSize(node.flags), 0, "node '" + node.name + "' structure");
}
} // namespace

bool walkTree(File& file, uint32_t root, std::vector<RawNode>& nodes) {
    Reader& r = file.reader();
    const size_t maxNodes = file.modelSize() / kNodeHeaderSize;
    std::unordered_set<uint32_t> seen;
    std::vector<Pending> stack{{root, -1, 0}};
    while (!stack.empty()) {
        Pending at = stack.back();
        stack.pop_back();
        if (!seen.insert(at.offset).second)
            return r.fail("node children", "the node at model offset " + std::to_string(at.offset) +
                                               " is reached twice (a cycle or a shared child)");
        if (at.depth > kMaxDepth)
            return r.fail("node children", "nodes nest deeper than " + std::to_string(kMaxDepth) + " levels");
        RawNode node;
        Array children;
        if (!readNode(file, at, node, children)) return false;
        // Every node waiting on the stack must become a node of its own, so the stack is held to
        // what the model data can hold too.
        if (nodes.size() + stack.size() + 1 + uint64_t(children.count) > maxNodes)
            return r.fail("node children", "more nodes than the " + std::to_string(file.modelSize()) +
                                               "-byte model data can hold");
        int32_t self = int32_t(nodes.size());
        nodes.push_back(std::move(node));
        if (!file.seekModelArray(children.offset, children.count, 4, "node children")) return false;
        std::vector<uint32_t> pointers(children.count);
        for (uint32_t& p : pointers) p = r.u32("node child pointer");
        // Reversed onto the stack so that children come off it in file order (pre-order).
        for (auto it = pointers.rbegin(); it != pointers.rend(); ++it) {
            if (*it == 0) return r.fail("node child pointer", "null child of node '" + nodes[self].name + "'");
            stack.push_back({*it, self, at.depth + 1});
        }
        if (!r.ok()) return false;
    }
    return true;
}

} // namespace horde::nwn
