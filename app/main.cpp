// horde: the command-line front of the engine. Subcommands live in cmd_*.cpp.
#include <cstdio>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.h"
#include "model_input.h"
#include "vk/check.h"

int main(int argc, char** argv) {
    CLI::App app{"horde: crowds of skinned monsters on Vulkan, and loaders for legacy game formats"};
    app.require_subcommand(1);
    std::vector<horde::Command> commands;
    for (auto add : {horde::addInfoCommand, horde::addRenderCommand, horde::addCrowdCommand, horde::addPoseCommand,
                      horde::addConvertCommand, horde::addValidateCommand, horde::addProfileCommand})
        commands.push_back(add(app));
    CLI11_PARSE(app, argc, argv);
    try {
        for (horde::Command& command : commands)
            if (command.cli->parsed()) return command.run();
    } catch (const horde::VulkanError& e) {
        std::fprintf(stderr, "horde: device error: %s\n", e.what());
        return horde::kExitDevice;
    }
    return horde::kExitUsage;
}
