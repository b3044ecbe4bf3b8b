#include "model/texture_storage.h"

#include <vector>

namespace horde {

namespace {
class HeapTextureStorage final : public TextureStorage {
  public:
    explicit HeapTextureStorage(uint64_t size) : storage_(size_t(size)) { bytes = storage_; }

  private:
    std::vector<std::byte> storage_;
};
} // namespace

std::unique_ptr<TextureStorage> HeapTextureAllocator::allocate(uint64_t size, std::string_view) {
    return std::make_unique<HeapTextureStorage>(size);
}

} // namespace horde
