// Where Grimrock materials come from: the game reads every defineMaterial in its scripts, so a
// model file names materials and a mod's Lua (mod_assets/scripts/materials.lua, a plug-in's own
// .lua) defines them.
#include <algorithm>
#include <system_error>

#include "core/file.h"
#include "core/text.h"
#include "grimrock/grimrock.h"

namespace horde::grimrock {

namespace {
// A mod folder holds tens of scripts; the bounds keep a search path pointed at a whole disk finite.
constexpr size_t kMaxScannedEntries = 20000;
constexpr uintmax_t kMaxScriptBytes = 8u << 20;

std::vector<std::filesystem::path> scriptsUnder(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> found;
    std::error_code ec;
    size_t seen = 0;
    for (auto it = std::filesystem::recursive_directory_iterator(dir, std::filesystem::directory_options::skip_permission_denied, ec);
         !ec && it != std::filesystem::recursive_directory_iterator() && ++seen <= kMaxScannedEntries; it.increment(ec)) {
        const std::string ext = lowerExtension(it->path());
        std::error_code kind;
        if (ext == ".lua" && it->is_regular_file(kind) && it->file_size(kind) <= kMaxScriptBytes) found.push_back(it->path());
    }
    std::sort(found.begin(), found.end());
    return found;
}

void merge(std::vector<Material>& into, MaterialDefinitions&& more) {
    for (Material& m : more.materials) {
        auto same = std::find_if(into.begin(), into.end(), [&](const Material& have) { return have.name == m.name; });
        if (same != into.end()) *same = std::move(m);
        else into.push_back(std::move(m));
    }
}
} // namespace

Status applyMaterials(Model& model, const LoadOptions& options) {
    std::vector<Material> defined;
    size_t files = 0;
    auto read = [&](const std::filesystem::path& file, bool named) -> Status {
        Result<MappedFile> mapped = MappedFile::open(file);
        if (!mapped) {
            if (named) return mapped.error();
            model.warnings.push_back(mapped.error().message);
            return Ok{};
        }
        std::string_view text(reinterpret_cast<const char*>(mapped->bytes().data()), mapped->bytes().size());
        MaterialDefinitions d = readMaterialDefinitions(file.string(), text);
        if (!d.materials.empty()) ++files;
        for (std::string& w : d.warnings) model.warnings.push_back(std::move(w));
        merge(defined, std::move(d));
        return Ok{};
    };
    if (!options.materials.empty()) {
        for (const std::filesystem::path& file : options.materials)
            if (Status st = read(file, true); !st) return st;
    } else {
        for (const std::filesystem::path& dir : options.searchPaths)
            for (const std::filesystem::path& file : scriptsUnder(dir))
                if (Status st = read(file, false); !st) return st;
    }
    // A name no file defines is left to finalizeMeshes, which gives it an undefined Material: the
    // load warns of it and the renderer draws the missing-texture checker (loader.h).
    bool undefined = false;
    for (const Mesh& mesh : model.meshes)
        for (const Submesh& s : mesh.submeshes) {
            if (s.material.empty() || findMaterial(model, s.material) >= 0) continue;
            auto def = std::find_if(defined.begin(), defined.end(), [&](const Material& m) { return m.name == s.material; });
            if (def != defined.end()) model.materials.push_back(*def);
            else
                undefined = true;
        }
    if (undefined && files == 0)
        model.warnings.push_back(
            options.materials.empty()
                ? "no Grimrock material definitions were read: give --materials FILE, or a "
                  "--search-path holding the mod's .lua scripts (its root or mod_assets)"
                : "none of the --materials files holds a defineMaterial block");
    return Ok{};
}

} // namespace horde::grimrock
