// horde validate DIR OUTDIR [--report R]: every model of a source folder against its converted
// file, each by the per-model validate in a worker process (--jobs of them at once, each keeping
// one Vulkan device from model to model, a crashed one replaced), then one folder report. --merge
// joins the reports of several shards.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>

#include "core/file.h"
#include "folder_commands.h"
#include "folder_outputs.h"
#include "folder_pairs.h"
#include "folder_report.h"
#include "loader.h"
#include "survey.h"
#include "worker_pool.h"

extern char** environ;

namespace horde {

namespace {
constexpr int kExitMismatch = 4;
constexpr uint32_t kThumbnailWidth = 96;

// The environment of each per-model process. Lavapipe rasterizes on a thread per core; `jobs`
// devices at once would each start that many, so each gets its share of the cores instead
// (LP_NUM_THREADS, read by lavapipe alone; a value the user set is kept).
std::vector<std::string> childEnvironment(unsigned jobs) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        env.emplace_back(*e);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    if (jobs > 1 && !std::getenv("LP_NUM_THREADS"))
        env.push_back("LP_NUM_THREADS=" + std::to_string(std::max(1u, cores / jobs)));
    return env;
}

std::string lastLine(const std::filesystem::path& log) {
    std::ifstream in(log);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty()) last = line;
    return last;
}

// The converted file of each source model: what the manifests of `convert` say, else the
// source's place under OUTDIR with any writer's extension.
std::map<std::string, std::vector<std::string>> convertedFiles(const Folder& folder, const std::filesystem::path& out) {
    std::map<std::string, std::vector<std::string>> found;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.rfind("manifest", 0) != 0 || it->path().extension() != ".json") continue;
        std::ifstream in(it->path());
        nlohmann::json m = nlohmann::json::parse(in, nullptr, false);
        if (m.is_discarded() || !m.contains("models")) continue;
        for (const nlohmann::json& model : m["models"])
            if (model.contains("written") && !model["written"].empty())
                found[model.value("source", "")] = model["written"].get<std::vector<std::string>>();
    }
    for (const Format* format : formats()) {
        if (!format->write) continue;
        for (const auto& [i, rel] : outputPaths(folder, format->extension))
            if (!found.count(folder.files[i].rel) && std::filesystem::is_regular_file(out / rel, ec))
                found[folder.files[i].rel] = {rel};
    }
    return found;
}

// B's companions (the files after the first that the writer wrote), as the per-model validate
// takes them: a skeleton or animations, told apart by their own bytes.
std::vector<std::string> companionOptions(const std::vector<std::string>& written, const std::filesystem::path& out) {
    std::vector<std::string> options;
    for (size_t k = 1; k < written.size(); ++k) {
        const std::filesystem::path path = out / written[k];
        Result<MappedFile> mapped = MappedFile::open(path);
        if (!mapped) continue;
        Result<FileSurvey> survey = surveyFile(path, mapped->bytes());
        if (!survey) continue;
        if (survey->kind == FileKind::Skeleton) options.insert(options.end(), {"--other-skeleton", path.string()});
        if (survey->kind == FileKind::Animation) options.insert(options.end(), {"--other-anim", path.string()});
    }
    return options;
}

ModelRow validateOne(const Folder& folder, const std::vector<FilePairs>& pairs, size_t i,
                     const std::vector<std::string>& written, const ValidateFolderArgs& args,
                     WorkerPool& workers) {
    const std::string converted = written.empty() ? "" : written[0];
    const FolderFile& f = folder.files[i];
    ModelRow row;
    row.source = f.rel;
    row.converted = converted;
    row.status = "error";
    row.worst = INFINITY; // until a report says otherwise: rows that could not be measured sort first
    if (!f.error.empty()) {
        row.error = f.error;
        return row;
    }
    if (converted.empty()) {
        // Nothing was written from a source that does not load: its own error says why.
        HeapMeshAllocator allocator;
        Result<Model> source = inputFor(folder, pairs, i, args.source).load(allocator);
        row.error = source ? "no converted file for it in " + args.converted : source.error().message;
        return row;
    }
    const std::string dir = "models/" + f.rel;
    const std::filesystem::path reportDir = std::filesystem::path(args.report) / dir;
    std::error_code ec;
    std::filesystem::create_directories(reportDir, ec);
    const ModelInput input = inputFor(folder, pairs, i, args.source);
    std::vector<std::string> command{input.model,
                                     (std::filesystem::path(args.converted) / converted).string()};
    if (!input.skeleton.empty()) command.insert(command.end(), {"--skeleton", input.skeleton});
    for (const std::string& a : input.anims)
        command.insert(command.end(), {"--anim", a});
    for (const std::string& s : input.searchPaths)
        command.insert(command.end(), {"--search-path", s});
    for (const std::string& m : input.materials)
        command.insert(command.end(), {"--materials", m});
    const std::vector<std::string> companions = companionOptions(written, args.converted);
    command.insert(command.end(), companions.begin(), companions.end());
    command.insert(command.end(), {"--report", reportDir.string()});
    command.insert(command.end(), args.passThrough.begin(), args.passThrough.end());
    const WorkerPool::Answer answer =
        workers.run(nlohmann::json{{"log", (reportDir / "log.txt").string()}, {"args", command}}.dump());
    const int code = answer.answered ? std::atoi(answer.line.c_str()) : -1;
    row.status = code == 0 ? "pass" : code == kExitMismatch ? "fail" : "error";
    if (row.status == "error") row.error = lastLine(reportDir / "log.txt");
    if (!answer.answered)
        row.error = "the process validating it " + answer.death + "; the next model gets a new one" +
                    (row.error.empty() ? "" : ": " + row.error);
    if (std::filesystem::is_regular_file(reportDir / "report.json", ec)) {
        readModelReport(reportDir / "report.json", row);
        row.report = dir + "/index.html";
    }
    for (auto [render, thumb, slot] : {std::tuple{"a_0.png", "thumb_a.png", &row.thumbnailA},
                                       std::tuple{"b_0.png", "thumb_b.png", &row.thumbnailB}})
        if (std::filesystem::is_regular_file(reportDir / render, ec) &&
            writeThumbnail(reportDir / render, reportDir / thumb, kThumbnailWidth))
            *slot = dir + "/" + thumb;
    if (row.status == "error") row.worst = INFINITY;
    return row;
}

// What a finished model says as the run goes on: its status, its time and its worst figure.
std::string progressLine(const ModelRow& row, double seconds) {
    char time[32];
    std::snprintf(time, sizeof time, "  %.1f s", seconds);
    std::string line = row.status + std::string(row.status.size() < 5 ? 5 - row.status.size() : 0, ' ') +
                       "  " + row.source + time;
    if (!row.worstFigure.empty()) line += "  worst: " + row.worstFigure;
    if (!row.error.empty()) line += "  " + row.error;
    return line;
}

int finishReport(const FolderReport& report, const std::string& dir) {
    if (Status st = writeFolderReport(report, dir); !st) {
        std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
        return kExitBadInput;
    }
    size_t passing = 0, nothing = 0;
    for (const ModelRow& r : report.rows) {
        passing += r.status == "pass";
        nothing += r.status == kNothingCompared;
    }
    std::printf("%zu of %zu models pass", passing, report.rows.size());
    if (nothing) std::printf(" (%zu compared nothing: no vertex pair)", nothing);
    std::printf("; wrote %s/index.html\n", dir.c_str());
    return report.passed() ? kExitOk : kExitMismatch;
}

// Every shard wrote its rows and its models' folders; the joined report holds them all.
int merge(const ValidateFolderArgs& args) {
    FolderReport joined;
    for (const std::string& shard : args.merge) {
        std::ifstream in(std::filesystem::path(shard) / "report.json");
        nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
        if (j.is_discarded() || !j.contains("models")) {
            std::fprintf(stderr, "horde: %s/report.json: not a folder report of horde validate\n",
                         shard.c_str());
            return kExitBadInput;
        }
        joined.source = j.value("source", "");
        joined.converted = j.value("converted", "");
        for (const nlohmann::json& m : j["models"])
            joined.rows.push_back(ModelRow::fromJson(m));
        std::error_code ec;
        if (std::filesystem::equivalent(shard, args.report, ec)) continue;
        std::filesystem::create_directories(std::filesystem::path(args.report) / "models", ec);
        std::filesystem::copy(
            std::filesystem::path(shard) / "models", std::filesystem::path(args.report) / "models",
            std::filesystem::copy_options::recursive | std::filesystem::copy_options::overwrite_existing, ec);
        if (ec) {
            std::fprintf(stderr, "horde: %s/models: cannot copy: %s\n", shard.c_str(), ec.message().c_str());
            return kExitBadInput;
        }
    }
    std::sort(joined.rows.begin(), joined.rows.end(),
              [](const ModelRow& a, const ModelRow& b) { return a.source < b.source; });
    return finishReport(joined, args.report);
}
} // namespace

int runValidateFolder(const ValidateFolderArgs& args) {
    if (!args.merge.empty()) return merge(args);
    Result<Folder> folder = scanFolder(args.source.model, args.jobs.threads());
    if (!folder) {
        std::fprintf(stderr, "horde: %s\n", folder.error().message.c_str());
        return kExitBadInput;
    }
    if (!std::filesystem::is_directory(args.converted)) {
        std::fprintf(stderr,
                     "horde: %s: not a folder (with a source folder, B is the folder `convert` wrote)\n",
                     args.converted.c_str());
        return kExitBadInput;
    }
    std::vector<FilePairs> pairs = pairFolder(*folder, args.jobs.threads());
    std::map<std::string, std::vector<std::string>> converted = convertedFiles(*folder, args.converted);
    std::vector<size_t> mine;
    for (size_t i = 0; i < folder->files.size(); ++i)
        if (drawable(folder->files[i].survey.kind) && args.jobs.shard.has(folder->files[i].rel))
            mine.push_back(i);
    FolderReport report{args.source.model, args.converted, std::vector<ModelRow>(mine.size())};
    std::vector<double> seconds(mine.size(), 0.0);
    // The report is written again as each model finishes, with the models finished so far: a run
    // stopped part way leaves what it had found.
    std::mutex finishedLock;
    std::vector<bool> finished(mine.size(), false);
    auto writeFinished = [&](size_t k) {
        const std::lock_guard<std::mutex> lock(finishedLock);
        finished[k] = true;
        FolderReport sofar{report.source, report.converted, {}};
        for (size_t j = 0; j < mine.size(); ++j)
            if (finished[j]) sofar.rows.push_back(report.rows[j]);
        if (Status st = writeFolderReport(sofar, args.report); !st)
            std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
    };
    {
        // One device per worker process, kept from model to model: opening it is a good part of a
        // small model's time on lavapipe.
        WorkerPool workers({"/proc/self/exe", "validate-worker"}, childEnvironment(args.jobs.threads()));
        parallelFor(
            mine.size(), args.jobs.threads(),
            [&](size_t k) {
                const auto start = std::chrono::steady_clock::now();
                auto c = converted.find(folder->files[mine[k]].rel);
                report.rows[k] =
                    validateOne(*folder, pairs, mine[k],
                                c == converted.end() ? std::vector<std::string>{} : c->second, args, workers);
                seconds[k] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                writeFinished(k);
            },
            [&](size_t k) { return progressLine(report.rows[k], seconds[k]); }, Lines::EachItem);
    }
    for (const ModelRow& r : report.rows)
        std::printf("%-5s  %s%s%s\n", r.status.c_str(), r.source.c_str(), r.error.empty() ? "" : ": ",
                    r.error.c_str());
    return finishReport(report, args.report);
}

} // namespace horde
