// horde convert DIR --to <id> --out OUTDIR: every model of a folder with its pairs, written
// under OUTDIR at its own place in the tree, and manifest.json saying what came from what.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <mutex>

#include <nlohmann/json.hpp>

#include "folder_commands.h"
#include "folder_outputs.h"
#include "folder_pairs.h"
#include "loader.h"

namespace horde {

namespace {
struct Converted {
    std::vector<std::string> written; // relative to the output folder, the main file first
    std::vector<std::string> warnings; // the load's (textures not found among them), then the writer's
    size_t missingTextures = 0;        // textures the model's materials name that were not found
    std::string error;
    double seconds = 0.0;
};

std::string under(const std::filesystem::path& root, const std::filesystem::path& path) {
    return std::filesystem::relative(path, root).generic_string();
}

Converted convertOne(const Folder& folder, const std::vector<FilePairs>& pairs, size_t i,
                     const ModelInput& given, const Format& format, const std::filesystem::path& outDir,
                     const std::string& rel) {
    Converted c;
    const FolderFile& f = folder.files[i];
    if (!f.error.empty()) {
        c.error = f.error;
        return c;
    }
    HeapMeshAllocator allocator;
    Result<Model> model = inputFor(folder, pairs, i, given).load(allocator);
    if (!model) {
        c.error = model.error().message;
        return c;
    }
    c.warnings = warningsOf(*model, given.verbose);
    for (std::string& w : conversionWarnings(*model, format.id)) c.warnings.push_back(std::move(w));
    for (const Material& m : model->materials)
        for (const TextureRef& t : m.textures)
            c.missingTextures += t.file.empty() && !t.path.empty();
    const std::filesystem::path target = outDir / rel;
    std::error_code ec;
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) {
        c.error = target.parent_path().string() + ": cannot create: " + ec.message();
        return c;
    }
    Result<Companions> written = format.write(*model, target);
    if (!written) {
        c.error = written.error().message;
        return c;
    }
    c.warnings.insert(c.warnings.end(), written->warnings.begin(), written->warnings.end());
    c.written.push_back(rel);
    if (!written->skeleton.empty()) c.written.push_back(under(outDir, written->skeleton));
    for (const std::filesystem::path& a : written->anims)
        c.written.push_back(under(outDir, a));
    return c;
}

std::vector<std::string> pairPaths(const Folder& folder, const FilePairs& p) {
    std::vector<std::string> out;
    if (p.skeleton >= 0) out.push_back(folder.files[size_t(p.skeleton)].rel);
    for (size_t s : p.supermodels)
        out.push_back(folder.files[s].rel);
    for (size_t a : p.anims)
        out.push_back(folder.files[a].rel);
    return out;
}
} // namespace

int runConvertFolder(const ModelInput& given, const std::string& to, const std::string& out,
                     const FolderJobs& jobs) {
    const std::string& dir = given.model;
    const Format* format = findFormat(to);
    if (!format || !format->write) {
        std::fprintf(stderr, "horde: no writer for '%s'\n", to.c_str());
        return kExitUsage;
    }
    Result<Folder> folder = scanFolder(dir, jobs.threads());
    if (!folder) {
        std::fprintf(stderr, "horde: %s\n", folder.error().message.c_str());
        return kExitBadInput;
    }
    std::vector<FilePairs> pairs = pairFolder(*folder, jobs.threads());
    std::map<size_t, std::string> targets = outputPaths(*folder, format->extension);
    std::vector<size_t> mine;
    for (const auto& [i, rel] : targets)
        if (jobs.shard.has(folder->files[i].rel)) mine.push_back(i);
    std::vector<Converted> results(mine.size());
    parallelFor(
        mine.size(), jobs.threads(),
        [&](size_t k) {
            const auto start = std::chrono::steady_clock::now();
            results[k] = convertOne(*folder, pairs, mine[k], given, *format, out, targets[mine[k]]);
            results[k].seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        },
        [&](size_t k) {
            const Converted& c = results[k];
            char line[64];
            std::snprintf(line, sizeof line, "  %.2f s", c.seconds);
            return (c.error.empty() ? "wrote  " : "error  ") + folder->files[mine[k]].rel + line +
                   (c.warnings.empty() ? "" : ", " + std::to_string(c.warnings.size()) + " warnings");
        },
        Lines::EachItem);

    nlohmann::json models = nlohmann::json::array();
    size_t failed = 0, warned = 0, missing = 0, missingModels = 0;
    for (size_t k = 0; k < mine.size(); ++k) {
        const Converted& c = results[k];
        const std::string& source = folder->files[mine[k]].rel;
        models.push_back({{"source", source},
                          {"pairs", pairPaths(*folder, pairs[mine[k]])},
                          {"written", c.written},
                          {"warnings", c.warnings},
                          {"error", c.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(c.error)}});
        if (c.error.empty())
            std::printf("wrote  %s  from %s%s\n", c.written.front().c_str(), source.c_str(),
                        c.warnings.empty() ? ""
                                           : (", " + std::to_string(c.warnings.size()) + " warning" +
                                              (c.warnings.size() == 1 ? "" : "s"))
                                                 .c_str());
        else {
            ++failed;
            std::printf("error  %s\n", c.error.c_str());
        }
        for (const std::string& w : c.warnings)
            std::printf("  warning  %s\n", w.c_str());
        warned += !c.warnings.empty();
        missing += c.missingTextures;
        missingModels += c.missingTextures > 0;
    }
    // An animation that cannot be read pairs with no model (its models convert without it): each
    // is named with why, so none is lost silently.
    nlohmann::json refused = nlohmann::json::array();
    for (const FolderFile& f : folder->files)
        if (!f.error.empty() && f.survey.kind == FileKind::Animation) {
            std::printf("refused  %s\n", f.error.c_str());
            refused.push_back({{"source", f.rel}, {"error", f.error}});
        }
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    const std::string name = jobs.shard.count > 1 ? "manifest." + std::to_string(jobs.shard.index) + "-of-" +
                                                        std::to_string(jobs.shard.count) + ".json"
                                                  : "manifest.json";
    std::ofstream manifest(std::filesystem::path(out) / name);
    manifest << nlohmann::json{{"source", dir},
                               {"to", format->id},
                               {"shard", jobs.shard.count > 1 ? jobs.shard.text() : "1/1"},
                               {"models", models},
                               {"refused_animations", refused},
                               {"converted", mine.size() - failed},
                               {"failed", failed}}
                    .dump(2)
             << "\n";
    if (!manifest) {
        std::fprintf(stderr, "horde: %s/%s: cannot write\n", out.c_str(), name.c_str());
        return kExitBadInput;
    }
    std::printf("%zu models converted to %s, %zu failed", mine.size() - failed, format->id, failed);
    if (warned) std::printf(", %zu with warnings", warned);
    if (!refused.empty())
        std::printf(", %zu animation%s refused", refused.size(), refused.size() == 1 ? "" : "s");
    if (missing)
        std::printf(" (%zu texture reference%s not found, in %zu model%s)", missing, missing == 1 ? "" : "s",
                    missingModels, missingModels == 1 ? "" : "s");
    std::printf("; wrote %s/%s\n", out.c_str(), name.c_str());
    return failed ? int(kExitBadInput) : int(kExitOk);
}

} // namespace horde
