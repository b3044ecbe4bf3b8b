#pragma once
// A report as a folder: a page a person reads (index.html) and the same findings as JSON for
// scripts, side by side. validate, the folder commands and the profile all write theirs here.
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace horde {

// DIR/index.html and DIR/<dataName> (`data` indented by `indent`); DIR is made when missing.
Status writeReportFolder(const std::filesystem::path& dir, std::string_view page, std::string_view dataName,
                         const nlohmann::json& data, int indent = 2);

} // namespace horde
