#pragma once
// A heap allocator that counts its calls: tests use it to prove a bad file is rejected before
// anything is allocated.
#include <memory>
#include <string_view>

#include "asset/mesh_storage.h"

namespace horde::test {

class CountingAllocator final : public MeshAllocator {
  public:
    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view name) override {
        ++calls;
        return heap.allocate(layout, name);
    }
    int calls = 0;

  private:
    HeapMeshAllocator heap;
};

} // namespace horde::test
