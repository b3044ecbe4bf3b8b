#pragma once
// A geometry's node tree, walked through the child pointer arrays in pre-order (the order the
// skin's bone table counts in). The geometry header's node count is not used: it includes the
// supermodel's nodes.
#include <cstdint>
#include <string>
#include <vector>

#include "nwn/nwn.h"

namespace horde::nwn {

struct RawNode {
    uint32_t offset = 0; // model-data offset of the node header
    int32_t parent = -1;
    std::string name;
    uint32_t flags = 0;
    Array controllerKeys, controllerData;
};

constexpr uint32_t kMaxDepth = 1024;

// Fails on a child pointer that reaches a node twice (a cycle or a shared child), on nesting
// deeper than kMaxDepth, and on more nodes than the model data can hold.
bool walkTree(File& file, uint32_t root, std::vector<RawNode>& nodes);

// Size of the node structure its flags describe (header plus every extension).
size_t nodeSize(uint32_t flags);

} // namespace horde::nwn
