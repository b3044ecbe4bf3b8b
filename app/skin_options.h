#pragma once
// The skinning options every command that skins takes (crowd, render, pose): --skinning,
// --precision and --influences (anim/skinning.h), beside crowd's --technique.
#include <string>

#include <CLI/CLI.hpp>

#include "anim/skinning.h"

namespace horde {

struct SkinArgs {
    std::string skinning = "lbs";
    std::string precision = "fp32";
    uint32_t influences = 4;

    void addOptions(CLI::App& command);
    SkinOptions options() const;
};

} // namespace horde
