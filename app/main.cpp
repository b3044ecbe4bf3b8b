// horde: the command-line front of the engine. Subcommands live in cmd_*.cpp.
#include <cstdio>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "model_options.h"
#include "vk/check.h"

int main(int argc, char** argv) {
    CLI::App app{"horde: crowds of skinned monsters on Vulkan, and loaders for legacy game formats"};
    app.require_subcommand(1);
    std::vector<horde::Command> commands;
    for (auto add : {horde::addInfoCommand, horde::addRenderCommand, horde::addCrowdCommand,
                     horde::addPoseCommand, horde::addConvertCommand, horde::addValidateCommand,
                     horde::addValidateWorkerCommand, horde::addProfileCommand})
        commands.push_back(add(app));
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 prints its message (or the help asked for); its own codes (105, 106, ...) are
        // not the documented ones, so every usage error leaves with kExitUsage.
        const int code = app.exit(e);
        return code == int(CLI::ExitCodes::Success) ? horde::kExitOk : horde::kExitUsage;
    }
    try {
        for (horde::Command& command : commands)
            if (command.cli->parsed()) return command.run();
    } catch (const horde::VulkanError& e) {
        std::fprintf(stderr, "horde: device error: %s\n", e.what());
        return horde::kExitDevice;
    }
    return horde::kExitUsage;
}
