#pragma once
// The report of `horde validate DIR OUTDIR`: one row per model (pass, fail or error, the worst
// figures, thumbnails of the two renders, a link to the model's own report) as index.html, and
// the same as report.json; shard reports join into one (--merge).
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"

namespace horde {

// A model that compared nothing (no vertex pair): not a pass, not a difference (validate_compare.h).
inline constexpr const char* kNothingCompared = "nothing compared";

struct ModelRow {
    std::string source, converted;                          // relative to the source and converted folders
    std::string status;                                     // "pass", "fail", kNothingCompared or "error"
    double maxPositionError = -1.0, differingPixels = -1.0; // worst over the poses; -1: none measured
    double worst = 0.0; // the worst figure over its threshold (1 = at the limit); errors sort first
    std::string worstFigure;               // that figure in words, with its threshold and pose
    std::vector<std::string> failedChecks; // checks, attributes and pose figures that failed
    std::string report;                 // the model's own index.html, relative to the folder report
    std::string thumbnailA, thumbnailB; // relative to the folder report; empty when not rendered
    std::string error;

    nlohmann::json json() const;
    static ModelRow fromJson(const nlohmann::json& j);
};

struct FolderReport {
    std::string source, converted;
    std::vector<ModelRow> rows; // sorted by source path

    bool passed() const;
    nlohmann::json json() const;
};

// Reads a model's report.json (the per-model validate's) into the row's figures: every check,
// attribute and pose figure that failed, and the worst figure of all against its threshold (a
// failed check without a figure counts as 1e6, past any figure).
void readModelReport(const std::filesystem::path& reportJson, ModelRow& row);

// A small copy of a PNG render (box-filtered to `width` pixels across) for the table.
Status writeThumbnail(const std::filesystem::path& png, const std::filesystem::path& thumbnail,
                      uint32_t width);

// Writes index.html and report.json into `dir`.
Status writeFolderReport(const FolderReport& report, const std::filesystem::path& dir);

} // namespace horde
