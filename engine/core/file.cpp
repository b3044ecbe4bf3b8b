#include "core/file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace horde {

Result<MappedFile> MappedFile::open(const std::filesystem::path& path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Error{path.string() + ": cannot open: " + std::strerror(errno)};
    struct stat info {};
    if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return Error{path.string() + ": not a regular file"};
    }
    MappedFile file;
    file.path_ = path;
    file.size_ = static_cast<size_t>(info.st_size);
    if (file.size_ > 0) {
        void* data = mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (data == MAP_FAILED) {
            ::close(fd);
            return Error{path.string() + ": cannot map: " + std::strerror(errno)};
        }
        file.data_ = static_cast<const std::byte*>(data);
    }
    ::close(fd);
    return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : path_(std::move(other.path_)), data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)) {}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
    if (this != &other) {
        this->~MappedFile();
        new (this) MappedFile(std::move(other));
    }
    return *this;
}

MappedFile::~MappedFile() {
    if (data_) munmap(const_cast<std::byte*>(data_), size_);
}

} // namespace horde
