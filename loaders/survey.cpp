#include "survey.h"

#include "core/text.h"
#include "registry.h"

namespace horde {

namespace {
const char* textureContainer(const std::string& ext) {
    if (ext == ".dds") return "dds";
    if (ext == ".tga") return "tga";
    if (ext == ".png") return "png";
    if (ext == ".jpg" || ext == ".jpeg") return "jpeg";
    return nullptr;
}

Result<FileSurvey> surveyAs(const std::filesystem::path& path, std::span<const std::byte> bytes,
                            const Format& format) {
    FileSurvey s;
    if (format.survey) {
        Result<FileSurvey> own = format.survey(path, bytes);
        if (!own) return own.error();
        s = std::move(*own);
    } else {
        s.kind = FileKind::Model;
    }
    s.format = &format;
    s.formatId = format.id;
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

Claim claimOf(const std::filesystem::path& path) {
    const std::string ext = lowerExtension(path);
    for (const Format* format : formats())
        for (const FileExtension& claimed : format->extensions)
            if (claimed.extension == ext) return Claim{format, claimed.kind};
    return Claim{};
}

Result<FileSurvey> surveyFile(const std::filesystem::path& path, std::span<const std::byte> bytes) {
    const std::string ext = lowerExtension(path);
    if (const char* container = textureContainer(ext))
        return FileSurvey{FileKind::Texture, nullptr, container, {}};
    for (const Format* format : formats())
        if (format->detect(path, bytes)) return surveyAs(path, bytes, *format);
    // A file with a format's extension that no format detects is a broken file, not someone else's.
    if (claimOf(path).format)
        return Error{path.string() + ": offset 0 (0x0): magic: not a format horde reads (a " + ext +
                     " file with no known magic or header)"};
    return FileSurvey{};
}

} // namespace horde
