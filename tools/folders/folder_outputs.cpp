#include "folder_outputs.h"

namespace horde {

std::map<size_t, std::string> outputPaths(const Folder& folder, const std::string& extension) {
    auto plain = [&](const FolderFile& f) {
        std::filesystem::path rel(f.rel);
        return (rel.parent_path() / (rel.stem().string() + extension)).generic_string();
    };
    std::map<std::string, int> uses;
    for (const FolderFile& f : folder.files)
        if (drawable(f.survey.kind)) ++uses[plain(f)];
    std::map<size_t, std::string> out;
    for (size_t i = 0; i < folder.files.size(); ++i) {
        const FolderFile& f = folder.files[i];
        if (!drawable(f.survey.kind)) continue;
        out[i] = uses[plain(f)] > 1 ? f.rel + extension : plain(f);
    }
    return out;
}

} // namespace horde
