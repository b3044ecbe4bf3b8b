#pragma once
// `horde validate A B` as its two callers run it: the command (cmd_validate.cpp), one model on a
// device of its own, and the folder's workers (cmd_validate_worker.cpp), many models one after
// another on one device.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "folder_commands.h"
#include "model_options.h"
#include "validate_attributes.h"
#include "vk/device.h"

namespace horde {

struct ValidateArgs {
    ModelInput a;
    std::string b;
    std::string bSkeleton; // B's own companions, where its format keeps them in other files
    std::vector<std::string> bAnims;
    DeviceChoice device;
    std::string clip, report;
    std::vector<double> times;
    double maxPositionError = 1e-4, maxDifferingPixels = 0.5;
    AttributeTolerances tolerances;
    int pixelTolerance = 24;
    uint32_t width = 640, height = 480;
    // Which poses' pictures the report folder gets: "all", or "failures" (the bind pose and each
    // pose that failed); empty: all for one model, failures for each model of a folder.
    std::string reportImages;
    // How many poses are drawn as pictures (choosePictured); SIZE_MAX: every pose.
    size_t pictures = 8;
};

// The options of `horde validate`, for one model (`args`) and for a folder (`folder`).
void addValidateOptions(CLI::App& command, ValidateArgs& args, ValidateFolderArgs& folder);

// The device `choice` asks for.
std::unique_ptr<Device> openDevice(const DeviceChoice& choice);

// One model against its conversion on `device`: the checks, the poses, what is printed and the
// report folder. Its exit code; what the validation layers said is withValidation's to add. Every
// GPU object it makes is gone when it returns, so the device can take the next model.
int validateOn(Device& device, const ValidateArgs& args);

// `code`, or device trouble when the validation layers spoke since `before` (printed).
int withValidation(const Device& device, const MessageCounts& before, int code);

} // namespace horde
