#pragma once
// A heap allocator that counts its calls and the storage they ask for: tests use it to prove a
// bad file is rejected before anything is allocated, or before too much is.
#include <memory>
#include <string_view>

#include "model/mesh_storage.h"

namespace horde::test {

class CountingAllocator final : public MeshAllocator {
  public:
    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) override {
        ++calls;
        bytes += streamOffsets(layout).total;
        return heap.allocate(layout, name);
    }
    int calls = 0;
    uint64_t bytes = 0; // storage asked for, over every call

  private:
    HeapMeshAllocator heap;
};

} // namespace horde::test
