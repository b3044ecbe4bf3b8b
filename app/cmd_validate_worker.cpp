// `horde validate-worker`: what `horde validate DIR OUT` runs its models in. It reads one job a
// line on stdin (JSON: {"log": path, "args": [the per-model validate's arguments]}), validates it
// on the one device it keeps for all of them, with the model's output in its log, and answers
// the job's exit code on a line of stdout. A device lost, or the process killed by a model that
// crashes the driver, ends it; the folder starts another for the next model.
#include <cstdio>
#include <iostream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cmd_validate.h"
#include "commands.h"
#include "vk/check.h"

namespace horde {

namespace {
// One model: its arguments parsed as `horde validate` parses them, then validated on `device`
// (opened for the first model, as it asks).
int validateJob(std::vector<std::string> arguments, std::unique_ptr<Device>& device) {
    CLI::App app;
    ValidateArgs args;
    ValidateFolderArgs folder;
    addValidateOptions(app, args, folder);
    try {
        std::reverse(arguments.begin(), arguments.end()); // CLI11 takes a vector last argument first
        app.parse(arguments);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "horde: %s\n", e.what());
        return kExitUsage;
    }
    if (!device) device = openDevice(args.device);
    const MessageCounts before = *device->messageLog();
    return withValidation(*device, before, validateOn(*device, args));
}

int runWorker() {
    const int answers = dup(STDOUT_FILENO); // the folder reads exit codes here; stdout goes to each log
    if (answers < 0) return kExitBadInput;
    std::unique_ptr<Device> device;
    std::string line;
    while (std::getline(std::cin, line)) {
        const nlohmann::json job = nlohmann::json::parse(line, nullptr, false);
        if (!job.is_object() || !job.contains("log") || !job["log"].is_string() || !job.contains("args") ||
            !job["args"].is_array())
            return kExitUsage;
        const int log =
            open(job["log"].get<std::string>().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (log < 0) return kExitBadInput;
        std::fflush(stdout);
        std::fflush(stderr);
        dup2(log, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
        close(log);
        int code = kExitDevice;
        bool lost = false;
        try {
            code = validateJob(job["args"].get<std::vector<std::string>>(), device);
        } catch (const VulkanError& e) {
            std::fprintf(stderr, "horde: device error: %s\n", e.what());
            lost = true; // the device may be gone: the next model gets a fresh process
        }
        std::fflush(stdout);
        std::fflush(stderr);
        const std::string answer = std::to_string(code) + "\n";
        if (write(answers, answer.data(), answer.size()) != ssize_t(answer.size())) return kExitBadInput;
        if (lost) return kExitDevice;
    }
    return kExitOk;
}
} // namespace

Command addValidateWorkerCommand(CLI::App& app) {
    // Not for users: no help text, so the command list does not show it.
    CLI::App* cmd = app.add_subcommand("validate-worker", "");
    cmd->group("");
    return {cmd, [] { return runWorker(); }};
}

} // namespace horde
