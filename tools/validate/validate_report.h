#pragma once
// The pictures and the page of `horde validate`: per-pixel differences of two renders and a
// report folder (index.html, report.json, PNGs) that shows them side by side.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "render/headless.h"
#include "validate_attributes.h"
#include "validate_compare.h"
#include "validate_raster.h"

namespace horde {

struct ImageDiff {
    double differingPercent = 100.0; // of all pixels
    Image8 image;                    // differing pixels red, the rest a dim copy of the first
};

// A pixel differs when any channel differs by more than `tolerance` (0..255).
ImageDiff diffImages(const Image8& a, const Image8& b, int tolerance);

// One attribute view (validate_raster.h) of a pose, both models and their difference.
struct ViewResult {
    AttributeView view;
    Image8 renderA, renderB;
    ImageDiff diff;
};

struct PoseResult {
    PoseSpec pose;
    PoseError error;
    Image8 renderA, renderB; // shaded, by the GPU renderer
    ImageDiff diff;                // of the renders; none for a pose not pictured (PoseSpec)
    std::vector<ViewResult> views;
    bool passed = false;
    bool compared = true; // false: no vertex pair to compare (positions and pixels of nothing)
    Verdict verdict() const { return verdictOf(passed, compared); }
};

struct ValidateReport {
    std::string a, b;
    std::vector<Check> checks;
    AttributeReport attributes;
    std::vector<PoseResult> poses;
    AttributeTolerances tolerances;
    double maxPositionError = 0.0, maxDifferingPixels = 0.0;
    int pixelTolerance = 0;
    bool passed = false;
    // False: the report folder holds the pictures of the bind pose and of each pose that failed
    // only (a folder's run writes hundreds of poses; their PNGs cost more than the comparison).
    bool passingPoseImages = true;
    bool imagesOf(size_t pose) const {
        return poses[pose].pose.pictured && (passingPoseImages || pose == 0 || !poses[pose].passed);
    }
    // Nothing compared: no vertex pair (no mesh holds a vertex), so passing means nothing.
    Verdict verdict() const { return verdictOf(passed, attributes.pairs() > 0); }

    nlohmann::json json() const;
};

// Writes index.html and report.json into `dir` (created if needed); the pictures they show are
// writePoseImages'.
Status writeReport(const ValidateReport& report, const std::filesystem::path& dir);
// Pose `index`'s renders and differences as PNGs into `dir`, as soon as it is compared: a model's
// hundreds of poses are never held as pictures.
Status writePoseImages(const PoseResult& pose, size_t index, const std::filesystem::path& dir);

} // namespace horde
