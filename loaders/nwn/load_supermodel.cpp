#include "nwn/nwn.h"

#include <set>
#include <system_error>

#include "core/file.h"

namespace horde::nwn {

std::filesystem::path findSupermodel(const std::filesystem::path& model, const std::string& name,
                                     const std::vector<std::filesystem::path>& searchPaths) {
    const std::string wanted = asciiLower(name) + ".mdl";
    std::vector<std::filesystem::path> dirs{model.parent_path().empty() ? "." : model.parent_path()};
    dirs.insert(dirs.end(), searchPaths.begin(), searchPaths.end());
    for (const std::filesystem::path& dir : dirs) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(dir / (name + ".mdl"), ec)) return dir / (name + ".mdl");
        // Game resource names are case-insensitive; files unpacked from archives vary in case.
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            if (asciiLower(it->path().filename().string()) == wanted && it->is_regular_file(ec)) return it->path();
    }
    return {};
}

Status inheritClips(const std::filesystem::path& path, const ModelHeader& header, const LoadOptions& options, Model& model) {
    std::set<std::string> have, chain{asciiLower(header.name)};
    for (const Clip& c : model.clips) have.insert(asciiLower(c.name));
    std::string next = header.supermodel;
    float scale = header.animationScale;
    for (int depth = 0; !next.empty(); ++depth) {
        if (depth >= kMaxSupermodelChain || !chain.insert(asciiLower(next)).second)
            return Error{path.string() + ": supermodel chain loops or is longer than " + std::to_string(kMaxSupermodelChain) +
                         " models (at '" + next + "')"};
        std::filesystem::path found = findSupermodel(path, next, options.searchPaths);
        if (found.empty()) {
            model.warnings.push_back("supermodel '" + next + "' not found beside the model or on the search paths; its clips are missing");
            return Ok{};
        }
        Result<MappedFile> mapped = MappedFile::open(found);
        if (!mapped) return mapped.error();
        // A chain may mix encodings: each file is read as what it is.
        ModelHeader super;
        std::vector<Clip> clips;
        Error error;
        if (!readClipsOf(found, mapped->bytes(), scale, model, super, clips, error)) return error;
        for (Clip& clip : clips) {
            if (!have.insert(asciiLower(clip.name)).second) continue; // the nearer model's clip wins
            clip.source = found.filename().string();
            model.clips.push_back(std::move(clip));
        }
        model.extras.push_back({"supermodel", "", next + " (" + found.string() + ")"});
        next = super.supermodel;
        scale *= super.animationScale;
    }
    return Ok{};
}

} // namespace horde::nwn
