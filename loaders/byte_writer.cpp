#include "byte_writer.h"

#include <fstream>

namespace horde {

Status saveBytes(const std::vector<std::byte>& bytes, const std::filesystem::path& path) {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file) return Error{path.string() + ": cannot open for writing"};
    file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!file) return Error{path.string() + ": write failed"};
    return Ok{};
}

} // namespace horde
