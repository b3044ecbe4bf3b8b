#include "folder_input.h"

#include <algorithm>

namespace horde {

ModelInput inputFor(const Folder& folder, const std::vector<FilePairs>& pairs, size_t index,
                    const ModelInput& given) {
    const FolderFile& f = folder.files[index];
    const FilePairs& p = pairs[index];
    ModelInput input;
    input.model = f.path.string();
    if (p.skeleton >= 0) input.skeleton = folder.files[size_t(p.skeleton)].path.string();
    for (size_t a : p.anims)
        input.anims.push_back(folder.files[a].path.string());
    auto search = [&](const std::string& dir) {
        if (std::find(input.searchPaths.begin(), input.searchPaths.end(), dir) == input.searchPaths.end())
            input.searchPaths.push_back(dir);
    };
    for (size_t s : p.supermodels)
        if (folder.files[s].path.parent_path() != f.path.parent_path())
            search(folder.files[s].path.parent_path().string());
    for (const std::string& dir : given.searchPaths)
        search(dir);
    // What the folder holds is the model's own: a Grimrock mod's Lua material scripts and the
    // textures named from anywhere in it, found as if the folder were given with --search-path.
    search(folder.root.string());
    input.materials = given.materials;
    return input;
}

} // namespace horde
