// `horde crowd --model DIR`: the animated models of a folder, each with the animations paired
// with it and the crowd's --search-path and --materials.
#include <cstdio>

#include "folder_commands.h"
#include "folder_pairs.h"

namespace horde {

std::vector<ModelInput> animatedModels(const std::string& dir, const FolderJobs& jobs,
                                       const ModelInput& given) {
    Result<Folder> folder = scanFolder(dir, jobs.threads());
    if (!folder) {
        std::fprintf(stderr, "horde: %s\n", folder.error().message.c_str());
        return {};
    }
    std::vector<FilePairs> pairs = pairFolder(*folder, jobs.threads());
    std::vector<char> animated(folder->files.size(), 0);
    parallelFor(
        folder->files.size(), jobs.threads(),
        [&](size_t i) {
            if (!folder->files[i].error.empty() || !drawable(folder->files[i].survey.kind)) return;
            HeapMeshAllocator allocator;
            Result<Model> model = inputFor(*folder, pairs, i, given).load(allocator);
            animated[i] = model && !model->clips.empty() && !model->meshes.empty();
        },
        [&](size_t i) {
            if (!drawable(folder->files[i].survey.kind)) return std::string();
            return folder->files[i].rel + (animated[i] ? ": animated" : ": no clips, left out");
        },
        Lines::EachItem);
    std::vector<ModelInput> out;
    size_t drawables = 0;
    for (size_t i = 0; i < folder->files.size(); ++i) {
        drawables += drawable(folder->files[i].survey.kind);
        if (!animated[i]) continue;
        out.push_back(inputFor(*folder, pairs, i, given));
        std::printf("crowd model %s: %zu paired animation%s\n", folder->files[i].rel.c_str(),
                    pairs[i].anims.size(), pairs[i].anims.size() == 1 ? "" : "s");
    }
    if (out.empty())
        std::fprintf(stderr, "horde: %s: no animated model among its %zu models (see `horde info %s`)\n",
                     dir.c_str(), drawables, dir.c_str());
    return out;
}

} // namespace horde
