// Finding the file a model names: games resolve texture names through their own resource
// systems, case-insensitively and often under another extension than the one written.
#include <algorithm>
#include <system_error>

#include "core/text.h"
#include "texture/texture.h"

namespace horde {

namespace {
// The entry of `dir` whose name equals `name` ignoring case (the exact name first).
std::filesystem::path entry(const std::filesystem::path& dir, const std::string& name, bool wantDirectory) {
    std::error_code ec;
    std::filesystem::path exact = dir / name;
    if (wantDirectory ? std::filesystem::is_directory(exact, ec) : std::filesystem::is_regular_file(exact, ec)) return exact;
    const std::string wanted = asciiLower(name);
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (asciiLower(it->path().filename().string()) != wanted) continue;
        std::error_code kind;
        if (wantDirectory ? it->is_directory(kind) : it->is_regular_file(kind)) return it->path();
    }
    return {};
}

std::filesystem::path walk(std::filesystem::path dir, const std::vector<std::string>& folders,
                           const std::vector<std::string>& candidates) {
    for (const std::string& f : folders) {
        if (f.empty() || f == ".") continue;
        if (f == "..") return {}; // names climb out of nowhere they were found
        dir = entry(dir, f, true);
        if (dir.empty()) return {};
    }
    for (const std::string& c : candidates)
        if (std::filesystem::path found = entry(dir, c, false); !found.empty()) return found;
    return {};
}
} // namespace

std::filesystem::path findTextureFile(std::string_view name, std::span<const std::string_view> substitutes,
                                      std::span<const std::filesystem::path> dirs) {
    std::string normalized(name);
    std::replace(normalized.begin(), normalized.end(), '\\', '/');
    std::vector<std::string> folders;
    for (size_t at = 0, slash; (slash = normalized.find('/', at)) != std::string::npos; at = slash + 1)
        folders.push_back(normalized.substr(at, slash - at));
    const std::string file = normalized.substr(normalized.rfind('/') + 1);
    if (file.empty() || file == "." || file == "..") return {};
    const size_t dot = file.rfind('.');
    const std::string stem = dot == std::string::npos ? file : file.substr(0, dot);
    std::vector<std::string> candidates;
    for (std::string_view ext : substitutes) candidates.push_back(stem + std::string(ext));
    candidates.push_back(file);
    // The longest suffix of the name's folders that exists under a searched folder wins: a
    // Grimrock name (`mod_assets/textures/env/x.tga`) is relative to the mod's root, and a user
    // may point a search path at the root, at `mod_assets` or at any folder on the way down.
    for (const std::filesystem::path& dir : dirs)
        for (size_t first = 0; first <= folders.size(); ++first)
            if (std::filesystem::path found =
                    walk(dir, {folders.begin() + long(first), folders.end()}, candidates);
                !found.empty())
                return found;
    return {};
}

} // namespace horde
