#pragma once
// An asset folder as the folder commands see it: every regular file under it, sorted by its path
// relative to the folder, each surveyed (loaders/survey.h): its kind, format and the names it
// points at, or the error that keeps it out.
#include <filesystem>
#include <string>
#include <vector>

#include "core/result.h"
#include "survey.h"

namespace horde {

struct FolderFile {
    std::filesystem::path path; // the folder joined with `rel`
    std::string rel;            // relative to the folder, with '/' separators
    uintmax_t bytes = 0;
    FileSurvey survey;
    std::string error; // the survey's, with file, byte offset and field
};

struct Folder {
    std::filesystem::path root;
    std::vector<FolderFile> files;
};

// Models and meshes: what convert, validate and crowd take one by one.
inline bool drawable(FileKind kind) {
    return kind == FileKind::Model || kind == FileKind::Mesh;
}

Result<Folder> scanFolder(const std::filesystem::path& root, unsigned jobs);

} // namespace horde
