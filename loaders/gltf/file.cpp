#include "gltf/gltf.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "core/text.h"

namespace horde::gltf {

namespace {
// horde draws no textures: images are neither decoded nor required to exist.
// Keeps an image's encoded bytes for decodeMaterials, which decodes them with horde's own checks.
bool keepImage(tinygltf::Image* image, const int, std::string*, std::string*, int, int, const unsigned char* bytes, int size,
               void*) {
    if (bytes && size > 0) image->image.assign(bytes, bytes + size);
    return true;
}

bool exists(const std::string& path, void*) {
    std::error_code ec;
    return std::filesystem::is_regular_file(path, ec);
}

std::string expand(const std::string& path, void*) {
    return path;
}

// External buffers (a .gltf's .bin) are read only when they are regular files in the model's
// folder or below it: a URI must not reach /dev/zero or a file elsewhere on the machine.
bool readWithin(std::vector<unsigned char>* out, std::string* err, const std::string& path, void* user) {
    const auto& folder = *static_cast<const std::filesystem::path*>(user);
    std::error_code ec;
    std::filesystem::path real = std::filesystem::weakly_canonical(path, ec);
    auto [stop, rest] = std::mismatch(folder.begin(), folder.end(), real.begin(), real.end());
    if (ec || stop != folder.end() || !std::filesystem::is_regular_file(real, ec)) {
        if (err) *err += "external file '" + path + "' is not a regular file beside the model\n";
        return false;
    }
    std::ifstream file(real, std::ios::binary);
    out->assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
    return bool(file) || file.eof();
}

bool refuseWrite(std::string*, const std::string&, const std::vector<unsigned char>&, void*) {
    return false;
}
} // namespace

Axes fileAxes() {
    return Axes{};
}

Result<tinygltf::Model> parse(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    if (bytes.size() > 0xffffffffu) return Error{path.string() + ": larger than glTF's 4 GiB limit"};
    std::error_code ec;
    std::filesystem::path folder =
        std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec).parent_path(), ec);
    tinygltf::TinyGLTF reader;
    reader.SetImageLoader(keepImage, nullptr);
    reader.SetFsCallbacks({exists, expand, readWithin, refuseWrite, &folder});
    tinygltf::Model model;
    std::string err, warn;
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    auto size = static_cast<unsigned int>(bytes.size());
    const std::string extension = lowerExtension(path);
    // A .glb is binary whatever its first bytes are: one that lacks the magic is refused for it.
    const bool binary = (bytes.size() >= 4 && std::memcmp(data, "glTF", 4) == 0) || extension == ".glb";
    if (binary) {
        if (Result<std::span<const std::byte>> json = glbJson(path, bytes); !json) return json.error();
    } else if (Status st = checkJson(path, bytes); !st) {
        return st.error();
    }
    bool ok = false;
    try {
        ok = binary ? reader.LoadBinaryFromMemory(&model, &err, &warn, data, size, folder.string())
                    : reader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(data),
                                                 size, folder.string());
    } catch (const std::exception&) {
        // The checks above leave tinygltf nothing its JSON library would throw on; should it
        // throw anyway, its text names neither a byte nor a field.
        err = "JSON: not a glTF document horde can read";
    }
    if (!ok) {
        std::string first = err.substr(0, err.find('\n'));
        return Error{path.string() + ": " + (first.empty() ? "not a valid glTF file" : "glTF: " + first)};
    }
    for (const std::string& ext : model.extensionsRequired)
        return Error{path.string() + ": extensionsRequired: '" + ext + "' is not supported"};
    return model;
}

} // namespace horde::gltf
