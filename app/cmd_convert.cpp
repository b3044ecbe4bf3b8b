// horde convert IN --to <id> --out PATH: writes a model (or the built-in monster) in a format.
#include <cstdio>

#include <filesystem>

#include "commands.h"
#include "folder_commands.h"
#include "loader.h"
#include "model_options.h"

namespace horde {

namespace {
struct ConvertArgs {
    ModelInput input;
    std::string to, out;
    FolderJobs jobs;
};

int run(const ConvertArgs& a) {
    if (std::filesystem::is_directory(a.input.model)) return runConvertFolder(a.input, a.to, a.out, a.jobs);
    const Format* format = findFormat(a.to);
    if (!format || !format->write) {
        std::string known;
        for (const Format* f : formats())
            if (f->write) known += std::string(known.empty() ? "" : ", ") + f->id;
        std::fprintf(stderr, "horde: no writer for '%s' (writers: %s)\n", a.to.c_str(), known.c_str());
        return kExitUsage;
    }
    HeapMeshAllocator allocator;
    Result<Model> model = a.input.load(allocator);
    if (!model) {
        std::fprintf(stderr, "horde: %s\n", model.error().message.c_str());
        return kExitBadInput;
    }
    for (const std::string& w : warningsOf(*model, a.input.verbose))
        std::fprintf(stderr, "horde: warning: %s\n", w.c_str());
    for (const std::string& w : conversionWarnings(*model, format->id))
        std::fprintf(stderr, "horde: warning: %s\n", w.c_str());
    Result<Companions> written = format->write(*model, a.out);
    if (!written) {
        std::fprintf(stderr, "horde: %s\n", written.error().message.c_str());
        return kExitBadInput;
    }
    for (const std::string& w : written->warnings)
        std::fprintf(stderr, "horde: warning: %s\n", w.c_str());
    std::printf("wrote %s (%s)\n", a.out.c_str(), format->id);
    return kExitOk;
}
} // namespace

Command addConvertCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand("convert", "write a model, or every model of a folder, in another format");
    auto args = std::make_shared<ConvertArgs>();
    addModelOptions(*cmd, args->input);
    addVerboseOption(*cmd, args->input);
    cmd->add_option("--to", args->to, "format id")->required();
    cmd->add_option("--out", args->out, "file to write (for a folder: the folder to mirror it into)")->required();
    addFolderJobOptions(*cmd, args->jobs);
    return {cmd, [args] { return run(*args); }};
}

} // namespace horde
