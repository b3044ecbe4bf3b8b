#pragma once
// Texture files (the folder's one header, in reading order): the readers of untrusted texture
// bytes, the search that finds a file a model names, and the library that reads each file once
// and fills every material's texture references.
#include <cstddef>
#include <filesystem>
#include <array>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "core/result.h"

namespace horde {

struct LoadOptions;

// Larger than any GPU's 2D limit that matters here (Vulkan guarantees 4096; desktop GPUs 16384);
// a header claiming more is lying or not a texture horde can draw.
constexpr uint32_t kMaxTextureSize = 16384;

// DDS (dds.cpp): "DDS " + header (+ DX10 header); BC1-5 and BC7, 24/32-bit RGB(A)/BGR(A); a mip
// chain or one level; no cube maps, volumes or arrays. Block-compressed levels are kept as
// stored; 24-bit and alpha-less 32-bit texels are widened to 32 bits with alpha 255. Every reader
// checks the whole file before it asks `allocator` for the levels' storage, then writes each
// level once into it.
Result<Texture> readDds(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator);
// NWN's own ".dds" (dds.cpp): a 20-byte BioWare header (width, height, 3 = DXT1 or 4 = DXT5, base
// level size, mean alpha) and as many whole levels of the chain as the file holds.
Result<Texture> readBiowareDds(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator);
// TGA, PNG and JPEG through stb_image (image.cpp), as one RGBA8 level, rows top-down. The decoded
// size is checked against format.h's storage cap before stb_image allocates it; stb_image decodes
// into memory of its own, copied once into the storage.
Result<Texture> readImage(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator);
// Any of them: "DDS " magic, else BioWare's DDS by a .dds name, else stb_image.
Result<Texture> readTexture(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator);

// Level `level` of `t` as RGBA8 texels, rows top-down (decode_bc.cpp, decode_bc7.cpp): BC1-5 and
// BC7 decoded by the rules of docs/formats/dds.md, RGBA8 and BGRA8 copied.
Result<std::vector<uint8_t>> decodeRgba8(const Texture& t, size_t level = 0);
// The base level as a PNG file's bytes (encode_png.cpp, stb_image_write).
Result<std::vector<uint8_t>> encodePng(const Texture& t);

// Finds the file a model names (find.cpp): `name` may carry folders ("assets/textures/a.tga") and
// any case. Each folder in `dirs` is tried in order with the name's folders, then with each
// shorter suffix of them (`textures/a.tga`, then `a.tga`): the longest that exists there wins,
// so a search path may be a game's root or any folder inside it. In each, every extension in
// `substitutes` replaces the named one first (the file
// the game's engine would really open, e.g. Grimrock's .dds for a .tga), then the name as
// written. Names match ignoring case. Empty when nothing matches.
std::filesystem::path findTextureFile(std::string_view name, std::span<const std::string_view> substitutes,
                                      std::span<const std::filesystem::path> dirs);

// Reads each texture file once, however many materials and models name it, into storage from
// its allocator (library.cpp): GPU-visible for commands that draw, the heap for the others.
class TextureLibrary {
  public:
    explicit TextureLibrary(TextureAllocator& allocator) : allocator_(allocator) {}
    struct Entry {
        std::shared_ptr<const Texture> texture; // null when the file could not be read
        std::string error;
    };
    const Entry& load(const std::filesystem::path& file);
    size_t size() const { return files_.size(); }
    TextureAllocator& allocator() const { return allocator_; }

  private:
    TextureAllocator& allocator_;
    std::map<std::filesystem::path, Entry> files_;
};

// Finds and reads every texture `model`'s materials name: beside the model first, then on
// options.searchPaths. A texture not found, or found but unreadable, stays without data and adds
// a warning naming material and file; it never fails the load.
void resolveTextures(Model& model, const std::filesystem::path& modelPath, const LoadOptions& options,
                     std::span<const std::string_view> substitutes, TextureLibrary& library);

} // namespace horde
