#include "survey.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "loader.h"

namespace horde {

namespace {
std::string lowerExtension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

// The extensions the formats write or read: a file with one of them that no format detects is
// a broken file, not someone else's.
bool claimedExtension(const std::string& ext) {
    static const std::array<const char*, 9> claimed{".model", ".animation", ".mdl", ".gr2", ".meshb",
                                                    ".sklb",  ".animb",     ".glb", ".gltf"};
    return std::any_of(claimed.begin(), claimed.end(), [&](const char* c) { return ext == c; });
}

const char* textureContainer(const std::string& ext) {
    if (ext == ".dds") return "dds";
    if (ext == ".tga") return "tga";
    if (ext == ".png") return "png";
    if (ext == ".jpg" || ext == ".jpeg") return "jpeg";
    return nullptr;
}

Result<FileSurvey> kindOf(const std::filesystem::path& path, std::span<const std::byte> bytes,
                          const Format& format, const std::string& ext) {
    FileSurvey s;
    s.format = &format;
    s.formatId = format.id;
    s.kind = FileKind::Model;
    const std::string id = format.id;
    if (id == "grimrock" && bytes.size() >= 4 && std::memcmp(bytes.data(), "ANIM", 4) == 0) {
        s.kind = FileKind::Animation;
        Result<std::vector<std::string>> nodes = grimrock::animationNodes(path, bytes);
        if (!nodes) return nodes.error();
        s.names = std::move(*nodes);
    } else if (id == "emi") {
        s.kind = ext == ".animb" ? FileKind::Animation : ext == ".sklb" ? FileKind::Skeleton : FileKind::Mesh;
        if (s.kind == FileKind::Animation) {
            Result<std::vector<std::string>> bones = emi::animationBones(path, bytes);
            if (!bones) return bones.error();
            s.names = std::move(*bones);
        }
    } else if (id == "swtor") {
        Result<bool> skeleton = swtor::isSkeletonFile(path, bytes);
        if (!skeleton) return skeleton.error();
        s.kind = *skeleton ? FileKind::Skeleton : FileKind::Mesh;
    } else if (id == "nwn" || id == "nwn-ascii") {
        Result<std::string> super = nwn::supermodelName(path, bytes);
        if (!super) return super.error();
        if (!super->empty()) s.names.push_back(*super);
    }
    return s;
}
} // namespace

const char* kindName(FileKind kind) {
    switch (kind) {
    case FileKind::Model:
        return "model";
    case FileKind::Mesh:
        return "mesh";
    case FileKind::Skeleton:
        return "skeleton";
    case FileKind::Animation:
        return "animation";
    case FileKind::Texture:
        return "texture";
    case FileKind::Other:
        break;
    }
    return "other";
}

Result<FileSurvey> surveyFile(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    const std::string ext = lowerExtension(path);
    if (const char* container = textureContainer(ext))
        return FileSurvey{FileKind::Texture, nullptr, container, {}};
    for (const Format* format : formats())
        if (format->detect(path, bytes)) return kindOf(path, bytes, *format, ext);
    if (claimedExtension(ext))
        return Error{path.string() + ": offset 0 (0x0): magic: not a format horde reads (a " + ext +
                     " file with no known magic or header)"};
    return FileSurvey{};
}

} // namespace horde
