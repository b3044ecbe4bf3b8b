#pragma once
// What a file of a folder is, and the names it points at, read without decoding it: enough to
// pair the files of an asset folder (app/folder_pairs.*) before any model is loaded. The rules
// that use these names are written per format in docs/formats/*.md, "Folders".
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "format.h"

namespace horde {

// model: draws on its own (Grimrock .model, NWN .mdl, glTF). mesh: geometry whose skeleton is
// another file (EMI .meshb, SWTOR mesh .gr2). skeleton: EMI .sklb, SWTOR skeleton .gr2.
// animation: Grimrock .animation, EMI .animb. texture: .dds .tga .png .jpg (counted; read by
// the materials work). other: anything else (scripts, sounds, glTF's .bin), skipped.
enum class FileKind { Model, Mesh, Skeleton, Animation, Texture, Other };
const char* kindName(FileKind kind);

struct FileSurvey {
    FileKind kind = FileKind::Other;
    const Format* format = nullptr; // null for textures and other files
    std::string formatId;           // the format's id, or the texture's container ("dds", "png", ...)
    // animation: the nodes its keyed channels drive; NWN model: its supermodel (one name, or none).
    std::vector<std::string> names;
};

// `bytes` may be the whole file or any prefix of it holding at least the parts named above.
// A file whose extension or magic claims a format but whose bytes do not hold the parts this
// needs fails with the reader's error (file, byte offset, field).
Result<FileSurvey> surveyFile(const std::filesystem::path& path, std::span<const std::byte> bytes);

// The names behind surveyFile, one reader per format (loaders/<id>/survey.cpp).
namespace grimrock {
Result<std::vector<std::string>> animationNodes(const std::filesystem::path& path,
                                                std::span<const std::byte> bytes);
}
namespace emi {
Result<std::vector<std::string>> animationBones(const std::filesystem::path& path,
                                                std::span<const std::byte> bytes);
}
namespace nwn {
Result<std::string> supermodelName(const std::filesystem::path& path, std::span<const std::byte> bytes);
}
namespace swtor {
Result<bool> isSkeletonFile(const std::filesystem::path& path, std::span<const std::byte> bytes);
}

} // namespace horde
