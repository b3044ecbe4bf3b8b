#pragma once
// Read-only memory mapping of an input file: loaders decode straight from these bytes.
#include <cstddef>
#include <filesystem>
#include <span>

#include "core/result.h"

namespace horde {

class MappedFile {
  public:
    static Result<MappedFile> open(const std::filesystem::path& path);
    MappedFile() = default;
    MappedFile(MappedFile&& other) noexcept;
    MappedFile& operator=(MappedFile&& other) noexcept;
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    ~MappedFile();

    std::span<const std::byte> bytes() const { return {data_, size_}; }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
    const std::byte* data_ = nullptr;
    size_t size_ = 0;
};

} // namespace horde
