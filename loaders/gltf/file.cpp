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

Result<File> parse(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    if (bytes.size() > 0xffffffffu) return Error{path.string() + ": larger than glTF's 4 GiB limit"};
    std::error_code ec;
    std::filesystem::path folder =
        std::filesystem::weakly_canonical(std::filesystem::absolute(path, ec).parent_path(), ec);
    tinygltf::TinyGLTF reader;
    reader.SetImageLoader(keepImage, nullptr);
    reader.SetFsCallbacks({exists, expand, readWithin, refuseWrite, &folder});
    const std::string extension = lowerExtension(path);
    // A .glb is binary whatever its first bytes are: one that lacks the magic is refused for it.
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    const bool binary = (bytes.size() >= 4 && std::memcmp(data, "glTF", 4) == 0) || extension == ".glb";
    Result<Prepared> prepared = prepare(path, bytes, binary);
    if (!prepared) return prepared.error();
    std::span<const unsigned char> handed(data, bytes.size());
    if (!prepared->handed.empty()) handed = prepared->handed;
    if (handed.size() > 0xffffffffu) return Error{path.string() + ": larger than glTF's 4 GiB limit"};
    File file{tinygltf::Model{}, std::move(prepared->extensions)};
    std::string err, warn;
    bool ok = false;
    const auto size = static_cast<unsigned int>(handed.size());
    try {
        ok = binary
                 ? reader.LoadBinaryFromMemory(&file.gltf, &err, &warn, handed.data(), size, folder.string())
                 : reader.LoadASCIIFromString(&file.gltf, &err, &warn,
                                              reinterpret_cast<const char*>(handed.data()), size,
                                              folder.string());
    } catch (const std::exception&) {
        // The checks above leave tinygltf nothing its JSON library would throw on; should it
        // throw anyway, its text names neither a byte nor a field.
        err = "JSON: not a glTF document horde can read";
    }
    if (!ok) {
        std::string first = err.substr(0, err.find('\n'));
        return Error{path.string() + ": " + (first.empty() ? "not a valid glTF file" : "glTF: " + first)};
    }
    prepared->handed = {};
    // The parse as the file wrote it (handedDocument): placeholders hold nothing, and Draco
    // primitives keep their indices accessor.
    const Extensions& e = file.extensions;
    for (size_t b = 0; b < file.gltf.buffers.size() && b < e.placeholder.size(); ++b)
        if (e.placeholder[b]) file.gltf.buffers[b].data = {};
    for (size_t m = 0; m < file.gltf.meshes.size() && m < e.draco.size(); ++m)
        for (size_t p = 0; p < file.gltf.meshes[m].primitives.size() && p < e.draco[m].size(); ++p)
            if (e.draco[m][p]) file.gltf.meshes[m].primitives[p].indices = e.draco[m][p]->indices;
    if (file.gltf.bufferViews.size() != e.meshopt.size() ||
        file.gltf.buffers.size() != e.placeholder.size() || file.gltf.meshes.size() != e.draco.size())
        return Error{path.string() + ": glTF: tinygltf read other arrays than the JSON holds"};
    return file;
}

} // namespace horde::gltf
