// TGA, PNG and JPEG through stb_image (Debian's libstb). stb_image parses the header first
// (stbi_info), so the decoded size is checked before anything is allocated for it.
#include <cstring>
#include <memory>

#include <stb/stb_image.h>

#include "core/text.h"
#include "format.h"
#include "reader.h"
#include "texture/jpeg_segments.h"
#include "texture/texture.h"

namespace horde {

namespace {
bool startsWith(std::span<const std::byte> bytes, std::string_view magic) {
    return bytes.size() >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
}

bool endsWith(std::string_view file, std::string_view ext) {
    if (file.size() < ext.size()) return false;
    return asciiLower(file.substr(file.size() - ext.size())) == ext;
}
// stb_image reads zeros past the end of a TGA, so a cut file would decode as black texels: the
// header and every texel, raw or in run-length packets, must lie inside the file.
Status checkTga(const std::string& name, std::span<const std::byte> bytes) {
    Reader r(bytes, name);
    const uint8_t idLength = r.u8("header.idLength");
    r.u8("header.colorMapType");
    const uint8_t type = r.u8("header.imageType");
    r.u16("header.colorMapFirst");
    const uint16_t mapLength = r.u16("header.colorMapLength");
    const uint8_t mapBits = r.u8("header.colorMapEntrySize");
    r.skip(4, "header.origin");
    const uint16_t width = r.u16("header.width"), height = r.u16("header.height");
    const uint8_t bits = r.u8("header.pixelDepth");
    r.u8("header.descriptor");
    r.skip(idLength, "image id");
    r.skip(size_t(mapLength) * ((mapBits + 7u) / 8u), "color map");
    if (!r.ok()) return r.error();
    const uint64_t texels = uint64_t(width) * height, pixel = (bits + 7u) / 8u;
    if (type == 1 || type == 2 || type == 3) {
        r.fits(texels, pixel, "texels");
    } else if (type == 9 || type == 10 || type == 11) {
        for (uint64_t done = 0; done < texels && r.ok();) {
            const uint8_t packet = r.u8("run-length packet");
            const uint64_t count = (packet & 0x7Fu) + 1u;
            r.skip(size_t(packet & 0x80u ? pixel : count * pixel), "run-length packet");
            done += count;
        }
    } else {
        r.failAt(2, "header.imageType", std::to_string(type) + " is not a TGA image type (1-3, 9-11)");
    }
    if (!r.ok()) return r.error();
    return Ok{};
}
// stb_image sizes its buffer for an IDAT chunk by the length the chunk declares, before reading
// it, so a 48-byte file claiming a 1 GiB chunk allocates 1 GiB: every chunk (length, type, data,
// CRC) must lie inside the file first.
Status checkPngChunks(const std::string& name, std::span<const std::byte> bytes) {
    Reader r(bytes, name);
    r.skip(8, "signature");
    while (r.ok() && r.remaining() > 0) {
        const size_t at = r.offset();
        const std::span<const std::byte> head = r.bytes(8, "chunk header");
        if (!r.ok()) break;
        const uint32_t length = uint32_t(head[0]) << 24 | uint32_t(head[1]) << 16 | uint32_t(head[2]) << 8 |
                                uint32_t(head[3]);
        if (uint64_t(length) + 4 > r.remaining()) {
            r.failAt(at, "chunk length",
                     std::to_string(length) + " bytes and a CRC do not fit in the " +
                         std::to_string(r.remaining()) + " bytes left");
            break;
        }
        r.skip(size_t(length) + 4, "chunk data");
        if (std::memcmp(head.data() + 4, "IEND", 4) == 0) break;
    }
    if (!r.ok()) return r.error();
    return Ok{};
}
} // namespace

Result<Texture> readImage(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator) {
    const std::string name(file);
    // stb_image reads a dozen formats; only these three are texture formats of the games horde
    // reads, and TGA has no magic, so it is taken by name.
    const bool png = startsWith(bytes, "\x89PNG\r\n\x1a\n"), jpeg = startsWith(bytes, "\xFF\xD8\xFF");
    if (!png && !jpeg && !endsWith(file, ".tga"))
        return Error{name + ": offset 0 (0x0): magic: not a DDS, PNG or JPEG file, nor named .tga"};
    if (bytes.size() > uint64_t(INT32_MAX)) return Error{name + ": larger than 2 GiB"};
    // stb_image reads the Huffman tables before the frame header even for stbi_info.
    if (jpeg)
        if (Status segments = checkJpegSegments(name, bytes); !segments) return segments.error();

    const auto* data = reinterpret_cast<const stbi_uc*>(bytes.data());
    const int size = int(bytes.size());
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, size, &width, &height, &channels))
        return Error{name + ": offset 0 (0x0): header: " + (stbi_failure_reason() ? stbi_failure_reason() : "unreadable")};
    if (width <= 0 || height <= 0 || uint32_t(width) > kMaxTextureSize || uint32_t(height) > kMaxTextureSize)
        return Error{name + ": offset 0 (0x0): header: " + std::to_string(width) + " x " + std::to_string(height) +
                     " is not between 1 and " + std::to_string(kMaxTextureSize)};
    const uint64_t decoded = uint64_t(width) * uint64_t(height) * 4;
    if (decoded > bytes.size() * kStoragePerInputByte + kStorageSlack)
        return Error{name + ": offset 0 (0x0): header: " + std::to_string(width) + " x " + std::to_string(height) +
                     " texels from " + std::to_string(bytes.size()) + " bytes is more than the " +
                     std::to_string(kStoragePerInputByte) + " bytes per input byte horde decodes"};
    if (png)
        if (Status chunks = checkPngChunks(name, bytes); !chunks) return chunks.error();
    if (!png && !jpeg)
        if (Status tga = checkTga(name, bytes); !tga) return tga.error();
    int w = 0, h = 0, c = 0;
    std::unique_ptr<stbi_uc, void (*)(void*)> texels(stbi_load_from_memory(data, size, &w, &h, &c, 4), stbi_image_free);
    if (!texels) return Error{name + ": texels: " + (stbi_failure_reason() ? stbi_failure_reason() : "undecodable")};
    Texture t;
    t.file = name;
    t.format = PixelFormat::RGBA8;
    t.width = uint32_t(w);
    t.height = uint32_t(h);
    t.levels.push_back({t.width, t.height, 0, uint64_t(w) * uint64_t(h) * 4});
    // stb_image decodes into memory of its own: one copy from there into the storage.
    std::shared_ptr<TextureStorage> storage = allocateLevels(t, allocator, t.levels[0].size);
    std::memcpy(storage->bytes.data(), texels.get(), size_t(t.levels[0].size));
    storage->commit();
    return t;
}

Result<Texture> readTexture(std::string_view file, std::span<const std::byte> bytes, TextureAllocator& allocator) {
    if (startsWith(bytes, "DDS ")) return readDds(file, bytes, allocator);
    if (endsWith(file, ".dds")) return readBiowareDds(file, bytes, allocator);
    return readImage(file, bytes, allocator);
}

} // namespace horde
