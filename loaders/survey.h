#pragma once
// What a file of a folder is, and the names it points at, read without decoding it: enough to
// pair the files of an asset folder (app/folders) before any model is loaded. Each format
// surveys its own files (Format::survey); the rules that use these names are written per format
// in docs/formats/*.md, "Folders".
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "format.h"

namespace horde {

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

// What a file's extension claims it is, before reading it (Format::extensions, ignoring case):
// the format (the first, where several share the extension) and the kind the extension names;
// no format and a model when no format claims it. For the record of a file whose survey failed.
struct Claim {
    const Format* format = nullptr;
    FileKind kind = FileKind::Model;
};
Claim claimOf(const std::filesystem::path& path);

} // namespace horde
