#pragma once
// One function per subcommand: each adds its options and returns how to run it.
#include <functional>

#include <CLI/CLI.hpp>

namespace horde {

struct Command {
    CLI::App* cli;
    std::function<int()> run;
};

Command addInfoCommand(CLI::App& app);
Command addRenderCommand(CLI::App& app);
Command addCrowdCommand(CLI::App& app);
Command addPoseCommand(CLI::App& app);
Command addConvertCommand(CLI::App& app);
Command addValidateCommand(CLI::App& app);
// What `horde validate DIR OUT` runs its models in (cmd_validate_worker.cpp); hidden from help.
Command addValidateWorkerCommand(CLI::App& app);
Command addProfileCommand(CLI::App& app);

} // namespace horde
