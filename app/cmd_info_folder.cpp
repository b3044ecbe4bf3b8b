// horde info DIR [--json]: every file of a folder, each model with the files paired with it, its
// counts, the textures it names that were not found and the materials it names that nothing
// defines, as lines or as an array of records.
#include <cstdio>
#include <iostream>
#include <set>

#include <nlohmann/json.hpp>

#include "folder_commands.h"
#include "folder_pairs.h"

namespace horde {

namespace {
struct MissingTexture {
    std::string path, material, slot;
};

struct Loaded {
    bool tried = false;
    std::string error;
    size_t nodes = 0, meshes = 0, vertices = 0, clips = 0;
    std::vector<std::string> warnings;
    std::vector<MissingTexture> missing; // referenced by a material, found neither beside nor on the search path
    std::vector<std::string> undefined;  // materials its submeshes name that nothing horde read defines
};

void load(const Folder& folder, const std::vector<FilePairs>& pairs, size_t i, const ModelInput& given,
          Loaded& out) {
    out.tried = true;
    HeapMeshAllocator allocator;
    Result<Model> model = inputFor(folder, pairs, i, given).load(allocator);
    if (!model) {
        out.error = model.error().message;
        return;
    }
    out.nodes = model->nodes.size();
    out.meshes = model->meshes.size();
    for (const Mesh& m : model->meshes)
        out.vertices += m.vertexCount();
    out.clips = model->clips.size();
    out.warnings = std::move(model->warnings);
    for (const Material& m : model->materials) {
        if (!m.defined) out.undefined.push_back(m.name);
        for (const TextureRef& t : m.textures)
            if (t.file.empty() && !t.path.empty()) out.missing.push_back({t.path, m.name, textureSlotName(t.slot)});
    }
}

nlohmann::json pairsJson(const Folder& folder, const FilePairs& p) {
    nlohmann::json out = nlohmann::json::array();
    auto add = [&](size_t i, const char* role) {
        out.push_back({{"path", folder.files[i].rel}, {"kind", role}});
    };
    if (p.skeleton >= 0) add(size_t(p.skeleton), "skeleton");
    for (size_t s : p.supermodels)
        add(s, "supermodel");
    for (size_t a : p.anims)
        add(a, "animation");
    for (size_t u : p.users)
        add(u, kindName(folder.files[u].survey.kind));
    return out;
}

nlohmann::json record(const Folder& folder, const std::vector<FilePairs>& pairs, size_t i,
                      const Loaded& loaded) {
    const FolderFile& f = folder.files[i];
    nlohmann::json counts{{"bytes", f.bytes}};
    if (loaded.tried && loaded.error.empty())
        counts.update({{"nodes", loaded.nodes},
                       {"meshes", loaded.meshes},
                       {"vertices", loaded.vertices},
                       {"clips", loaded.clips}});
    if (f.survey.kind == FileKind::Animation && f.error.empty())
        counts["keyed_nodes"] = f.survey.names.size();
    nlohmann::json warnings = pairs[i].notes;
    for (const std::string& w : loaded.warnings)
        warnings.push_back(w);
    nlohmann::json missing = nlohmann::json::array();
    for (const MissingTexture& m : loaded.missing)
        missing.push_back({{"path", m.path}, {"material", m.material}, {"slot", m.slot}});
    std::string error = !f.error.empty() ? f.error : loaded.error;
    return {
        {"path", f.rel},
        {"kind", kindName(f.survey.kind)},
        {"format", f.survey.formatId.empty() ? nlohmann::json(nullptr) : nlohmann::json(f.survey.formatId)},
        {"pairs", pairsJson(folder, pairs[i])},
        {"counts", counts},
        {"warnings", warnings},
        {"missing_textures", missing},
        {"undefined_materials", loaded.undefined},
        {"error", error.empty() ? nlohmann::json(nullptr) : nlohmann::json(error)}};
}

struct Tally {
    size_t files = 0, models = 0, meshes = 0, skeletons = 0, animations = 0, pairedAnimations = 0,
           textures = 0, other = 0, errors = 0, warnings = 0;
};

void printText(const Folder& folder, const std::vector<FilePairs>& pairs, const std::vector<size_t>& mine,
               const std::vector<Loaded>& loaded, Tally& t) {
    for (size_t i : mine) {
        const FolderFile& f = folder.files[i];
        const FilePairs& p = pairs[i];
        const std::string error = !f.error.empty() ? f.error : loaded[i].error;
        if (!error.empty()) {
            std::printf("error      %s\n", error.c_str());
            ++t.errors;
            continue;
        }
        if (drawable(f.survey.kind)) {
            const Loaded& l = loaded[i];
            std::printf("%-10s %s  %s: %zu nodes, %zu mesh%s, %zu vertices, %zu clips",
                        kindName(f.survey.kind), f.rel.c_str(), f.survey.formatId.c_str(), l.nodes, l.meshes,
                        l.meshes == 1 ? "" : "es", l.vertices, l.clips);
            if (!l.warnings.empty())
                std::printf(", %zu load warning%s (--json lists them)", l.warnings.size(),
                            l.warnings.size() == 1 ? "" : "s");
            std::printf("\n");
            t.warnings += l.warnings.size();
            if (p.skeleton >= 0)
                std::printf("  skeleton   %s\n", folder.files[size_t(p.skeleton)].rel.c_str());
            for (size_t s : p.supermodels)
                std::printf("  supermodel %s\n", folder.files[s].rel.c_str());
            for (size_t a : p.anims)
                std::printf("  animation  %s\n", folder.files[a].rel.c_str());
            for (const MissingTexture& m : l.missing)
                std::printf("  missing    texture '%s' (material '%s', %s)\n", m.path.c_str(), m.material.c_str(),
                            m.slot.c_str());
            for (const std::string& m : l.undefined)
                std::printf("  undefined  material '%s' (drawn as the missing-texture checker)\n", m.c_str());
            for (const std::string& n : p.notes)
                std::printf("  warning    %s\n", n.c_str());
            t.warnings += p.notes.size();
        } else {
            for (const std::string& n : p.notes)
                std::printf("warning    %s: %s\n", f.rel.c_str(), n.c_str());
            t.warnings += p.notes.size();
        }
    }
}

void tally(const Folder& folder, const std::vector<FilePairs>& pairs, const std::vector<size_t>& mine,
           Tally& t) {
    for (size_t i : mine) {
        const FolderFile& f = folder.files[i];
        ++t.files;
        switch (f.survey.kind) {
        case FileKind::Model:
            ++t.models;
            break;
        case FileKind::Mesh:
            ++t.meshes;
            break;
        case FileKind::Skeleton:
            ++t.skeletons;
            break;
        case FileKind::Animation:
            ++t.animations;
            if (!pairs[i].users.empty()) ++t.pairedAnimations;
            break;
        case FileKind::Texture:
            ++t.textures;
            break;
        case FileKind::Other:
            ++t.other;
            break;
        }
    }
}
} // namespace

int runInfoFolder(const ModelInput& given, bool json, const FolderJobs& jobs) {
    Result<Folder> folder = scanFolder(given.model, jobs.threads());
    if (!folder) {
        std::fprintf(stderr, "horde: %s\n", folder.error().message.c_str());
        return kExitBadInput;
    }
    std::vector<FilePairs> pairs = pairFolder(*folder, jobs.threads());
    std::vector<size_t> mine;
    for (size_t i = 0; i < folder->files.size(); ++i)
        if (jobs.shard.has(folder->files[i].rel)) mine.push_back(i);
    std::vector<Loaded> loaded(folder->files.size());
    parallelFor(
        mine.size(), jobs.threads(),
        [&](size_t k) {
            size_t i = mine[k];
            if (folder->files[i].error.empty() && drawable(folder->files[i].survey.kind))
                load(*folder, pairs, i, given, loaded[i]);
        },
        [&](size_t k) {
            const Loaded& l = loaded[mine[k]];
            if (!l.tried) return std::string(); // only models and meshes take long enough to say
            return (l.error.empty() ? "read   " : "error  ") + folder->files[mine[k]].rel +
                   (l.missing.empty() ? ""
                                      : ", " + std::to_string(l.missing.size()) + " textures not found") +
                   (l.undefined.empty() ? ""
                                        : ", " + std::to_string(l.undefined.size()) + " materials undefined");
        },
        Lines::EachItem);
    Tally t;
    tally(*folder, pairs, mine, t);
    if (json) {
        nlohmann::json records = nlohmann::json::array();
        for (size_t i : mine) {
            records.push_back(record(*folder, pairs, i, loaded[i]));
            if (!records.back()["error"].is_null()) ++t.errors;
        }
        std::cout << records.dump(2) << "\n";
    } else {
        printText(*folder, pairs, mine, loaded, t);
        std::printf(
            "%zu files%s: %zu models, %zu meshes, %zu skeletons, %zu animations (%zu paired), %zu textures, "
            "%zu other; %zu error%s, %zu warning%s\n",
            t.files, jobs.shard.count > 1 ? (" in shard " + jobs.shard.text()).c_str() : "", t.models, t.meshes,
            t.skeletons, t.animations, t.pairedAnimations, t.textures, t.other, t.errors,
            t.errors == 1 ? "" : "s", t.warnings, t.warnings == 1 ? "" : "s");
        std::set<std::string> missingPaths;
        size_t missingModels = 0;
        for (size_t i : mine) {
            for (const MissingTexture& m : loaded[i].missing) missingPaths.insert(m.path);
            if (!loaded[i].missing.empty()) ++missingModels;
        }
        if (!missingPaths.empty())
            std::printf("%zu texture%s not found, named by %zu model%s\n", missingPaths.size(),
                        missingPaths.size() == 1 ? "" : "s", missingModels, missingModels == 1 ? "" : "s");
        std::set<std::string> undefinedNames;
        size_t undefinedModels = 0;
        for (size_t i : mine) {
            undefinedNames.insert(loaded[i].undefined.begin(), loaded[i].undefined.end());
            undefinedModels += !loaded[i].undefined.empty();
        }
        if (!undefinedNames.empty())
            std::printf("%zu material%s defined nowhere horde read, named by %zu model%s\n",
                        undefinedNames.size(), undefinedNames.size() == 1 ? "" : "s", undefinedModels,
                        undefinedModels == 1 ? "" : "s");
    }
    return t.errors ? int(kExitBadInput) : int(kExitOk);
}

} // namespace horde
