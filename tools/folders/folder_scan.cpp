#include "folder_scan.h"

#include <algorithm>

#include "core/file.h"
#include "thread_pool.h"

namespace horde {

Result<Folder> scanFolder(const std::filesystem::path& root, unsigned jobs) {
    Folder folder{root, {}};
    std::error_code error;
    for (auto it = std::filesystem::recursive_directory_iterator(root, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        std::error_code fileError;
        if (!it->is_regular_file(fileError)) continue;
        FolderFile file;
        file.path = it->path();
        file.rel = std::filesystem::relative(it->path(), root, fileError).generic_string();
        file.bytes = it->file_size(fileError);
        folder.files.push_back(std::move(file));
    }
    if (error) return Error{root.string() + ": " + error.message()};
    std::sort(folder.files.begin(), folder.files.end(),
              [](const FolderFile& a, const FolderFile& b) { return a.rel < b.rel; });
    parallelFor(
        folder.files.size(), jobs,
        [&](size_t i) {
            FolderFile& f = folder.files[i];
            Result<MappedFile> mapped = MappedFile::open(f.path);
            if (!mapped) {
                f.error = mapped.error().message;
                return;
            }
            Result<FileSurvey> survey = surveyFile(f.path, mapped->bytes());
            if (survey)
                f.survey = std::move(*survey);
            else {
                f.error = survey.error().message;
                f.survey.kind = claimOf(f.path).kind; // what it was meant to be, for the record
            }
        },
        [&](size_t i) { return folder.files[i].rel; });
    return folder;
}

} // namespace horde
