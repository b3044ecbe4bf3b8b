// The NWN format entry: detection by the header's sizes, and the readers and writer behind the
// Format.
#include "nwn/nwn.h"

#include <cctype>
#include <cstring>

#include "format.h"

namespace horde {

namespace {
uint32_t word(std::span<const std::byte> bytes, size_t at) {
    uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
}

bool looksLikeText(std::span<const std::byte> bytes) {
    size_t n = std::min<size_t>(bytes.size(), 64);
    for (size_t i = 0; i < n; ++i) {
        auto c = static_cast<unsigned char>(bytes[i]);
        if (!std::isprint(c) && !std::isspace(c)) return false;
    }
    return n > 0;
}

// Binary: a zero word, then sizes that account for the file. ASCII MDL (text, .mdl) is claimed
// too, so that loading it says why it is refused rather than "unknown format".
bool detect(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    const bool mdl = nwn::lower(path.extension().string()) == ".mdl";
    if (bytes.size() >= nwn::kFileHeaderSize && word(bytes, 0) == 0) {
        uint64_t end = nwn::kFileHeaderSize + uint64_t(word(bytes, 4)) + word(bytes, 8);
        return word(bytes, 4) >= nwn::kModelHeaderSize && (end == bytes.size() || (mdl && end <= bytes.size()));
    }
    return mdl && looksLikeText(bytes);
}

Result<Model> load(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                   MeshAllocator& allocator) {
    return nwn::readModel(path, bytes, options, allocator);
}

Result<std::vector<Clip>> loadClips(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& target) {
    return nwn::readClipsFor(path, bytes, target);
}

// One file holds everything: nothing beside it.
Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    if (Status st = nwn::writeModel(model, path); !st) return st.error();
    return Companions{};
}
} // namespace

const Format& nwnFormat() {
    static const Format format{"nwn", "Neverwinter Nights binary MDL (model, skins, animations, supermodels)",
                               detect, load, loadClips, write, ".mdl"};
    return format;
}

} // namespace horde
