#include "folder_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include <stb/stb_image.h>

#include "html.h"
#include "report_folder.h"
#include "core/png.h"

namespace horde {

nlohmann::json ModelRow::json() const {
    auto figure = [](double v) { return v < 0.0 ? nlohmann::json(nullptr) : nlohmann::json(v); };
    return {{"source", source},
            {"converted", converted},
            {"status", status},
            {"max_position_error", figure(maxPositionError)},
            {"differing_pixels_percent", figure(differingPixels)},
            {"worst", std::isfinite(worst) ? nlohmann::json(worst) : nlohmann::json(nullptr)},
            {"worst_figure", worstFigure},
            {"failed_checks", failedChecks},
            {"report", report},
            {"thumbnails", {thumbnailA, thumbnailB}},
            {"error", error.empty() ? nlohmann::json(nullptr) : nlohmann::json(error)}};
}

ModelRow ModelRow::fromJson(const nlohmann::json& j) {
    auto figure = [&](const char* key) {
        return j.contains(key) && j[key].is_number() ? j[key].get<double>() : -1.0;
    };
    ModelRow r;
    r.source = j.value("source", "");
    r.converted = j.value("converted", "");
    r.status = j.value("status", "error");
    r.maxPositionError = figure("max_position_error");
    r.differingPixels = figure("differing_pixels_percent");
    r.worst = j.contains("worst") && j["worst"].is_number() ? j["worst"].get<double>() : INFINITY;
    r.worstFigure = j.value("worst_figure", "");
    if (j.contains("failed_checks")) r.failedChecks = j["failed_checks"].get<std::vector<std::string>>();
    r.report = j.value("report", "");
    if (j.contains("thumbnails") && j["thumbnails"].size() == 2) {
        r.thumbnailA = j["thumbnails"][0].get<std::string>();
        r.thumbnailB = j["thumbnails"][1].get<std::string>();
    }
    if (j.contains("error") && j["error"].is_string()) r.error = j["error"].get<std::string>();
    return r;
}

bool FolderReport::passed() const {
    return std::all_of(rows.begin(), rows.end(), [](const ModelRow& r) { return r.status == "pass"; });
}

nlohmann::json FolderReport::json() const {
    nlohmann::json models = nlohmann::json::array();
    size_t pass = 0, fail = 0, nothing = 0, error = 0;
    for (const ModelRow& r : rows) {
        models.push_back(r.json());
        (r.status == "pass"             ? pass
         : r.status == "fail"           ? fail
         : r.status == kNothingCompared ? nothing
                                        : error)++;
    }
    return {{"source", source},
            {"converted", converted},
            {"passed", passed()},
            {"counts",
             {{"models", rows.size()},
              {"pass", pass},
              {"fail", fail},
              {"nothing_compared", nothing},
              {"error", error}}},
            {"models", models}};
}

namespace {
std::string figure(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", v);
    return buffer;
}

// The worst figure of a model's report against its own threshold, and what it was.
struct Worst {
    double over = 0.0; // the figure over its threshold: 1 is at the limit
    std::string what;
    void offer(double value, double limit, const std::string& text) {
        if (value < 0.0) return;
        const double ratio = limit > 0.0 ? value / limit : (value > 0.0 ? INFINITY : 0.0);
        if (ratio > over || what.empty()) over = ratio, what = text;
    }
};

void addOnce(std::vector<std::string>& names, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
}
} // namespace

void readModelReport(const std::filesystem::path& reportJson, ModelRow& row) {
    std::ifstream in(reportJson);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return;
    const nlohmann::json thresholds = j.value("thresholds", nlohmann::json::object());
    const double maxPosition = thresholds.value("max_position_error", 0.0);
    const double maxPixels = thresholds.value("max_differing_pixels", 0.0);
    // The model's own verdict: one that compared nothing exits as a failure does.
    if (row.status == "fail" && j.value("status", "") == kNothingCompared) row.status = kNothingCompared;
    Worst worst;
    bool beyondFigures = false; // a failed check that has no figure, or poses that could not be compared
    if (j.contains("checks"))
        for (const nlohmann::json& c : j["checks"])
            if (!c.value("passed", true)) {
                addOnce(row.failedChecks, c.value("name", ""));
                beyondFigures = true;
            }
    if (j.contains("attributes"))
        for (const nlohmann::json& a : j["attributes"]) {
            const std::string name = a.value("name", "");
            const std::string unit = a.value("unit", "");
            const double max = a.value("max", 0.0), tolerance = a.value("tolerance", 0.0);
            if (!a.value("passed", true)) {
                addOnce(row.failedChecks, name);
                // Failing within its tolerance: what fails has no figure (a dropped set, flipped signs).
                if (!(max > tolerance)) beyondFigures = true;
            }
            worst.offer(max, tolerance,
                        name + " " + figure(max) + (unit.empty() ? "" : " " + unit) + " (tolerance " +
                            figure(tolerance) + ")");
        }
    if (j.contains("poses"))
        for (const nlohmann::json& p : j["poses"]) {
            const std::string label = p.value("label", "");
            const double pixels = p.value("differing_pixels_percent", 0.0);
            if (p.value("comparable", false)) {
                const double position = p.value("max_position_error", 0.0);
                row.maxPositionError = std::max(row.maxPositionError, position);
                worst.offer(position, maxPosition,
                            "position error " + figure(position) + " of the radius (threshold " +
                                figure(maxPosition) + ") at " + label);
                if (position > maxPosition) addOnce(row.failedChecks, "positions");
            } else {
                addOnce(row.failedChecks, "positions not comparable");
                beyondFigures = true;
            }
            if (p.contains("differing_pixels_percent")) { // a pose compared by its positions only has none
                row.differingPixels = std::max(row.differingPixels, pixels);
                worst.offer(pixels, maxPixels,
                            "shaded pixels " + figure(pixels) + "% (threshold " + figure(maxPixels) + "%) at " +
                                label);
                if (pixels > maxPixels) addOnce(row.failedChecks, "shaded pixels");
            }
            if (p.contains("views"))
                for (const auto& [view, v] : p["views"].items()) {
                    const double share = v.value("differing_pixels_percent", 0.0);
                    worst.offer(share, maxPixels,
                                view + " view pixels " + figure(share) + "% (threshold " + figure(maxPixels) +
                                    "%) at " + label);
                    if (share > maxPixels) addOnce(row.failedChecks, view + " view pixels");
                }
        }
    row.worst = worst.over;
    row.worstFigure = worst.what;
    // A failed check without a figure sorts past any figure, named as what failed.
    if (beyondFigures && row.worst < 1e6) {
        row.worst = 1e6;
        std::string checks;
        for (const std::string& c : row.failedChecks)
            checks += (checks.empty() ? "" : ", ") + c;
        row.worstFigure = "failed: " + checks;
    }
}

Status writeThumbnail(const std::filesystem::path& png, const std::filesystem::path& thumbnail,
                      uint32_t width) {
    int w = 0, h = 0, channels = 0;
    stbi_uc* pixels = stbi_load(png.c_str(), &w, &h, &channels, 4);
    if (!pixels) return Error{png.string() + ": cannot read the render"};
    const uint32_t tw = std::min<uint32_t>(width, uint32_t(w));
    const uint32_t th = std::max<uint32_t>(1, uint32_t(uint64_t(h) * tw / uint32_t(w)));
    std::vector<uint8_t> out(size_t(tw) * th * 4);
    for (uint32_t y = 0; y < th; ++y)
        for (uint32_t x = 0; x < tw; ++x) {
            const uint32_t x0 = x * uint32_t(w) / tw, x1 = std::max(x0 + 1, (x + 1) * uint32_t(w) / tw);
            const uint32_t y0 = y * uint32_t(h) / th, y1 = std::max(y0 + 1, (y + 1) * uint32_t(h) / th);
            for (int c = 0; c < 4; ++c) {
                uint64_t sum = 0;
                for (uint32_t sy = y0; sy < y1; ++sy)
                    for (uint32_t sx = x0; sx < x1; ++sx)
                        sum += pixels[(size_t(sy) * uint32_t(w) + sx) * 4 + size_t(c)];
                out[(size_t(y) * tw + x) * 4 + size_t(c)] = uint8_t(sum / (uint64_t(x1 - x0) * (y1 - y0)));
            }
        }
    stbi_image_free(pixels);
    return writePng(thumbnail, tw, th, out);
}

namespace {
std::string number(double v) {
    if (v < 0.0) return "&ndash;";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", v);
    return buffer;
}

// A link to a file under the report: each path segment percent-encoded where HTML or URLs
// would read it otherwise.
std::string href(const std::string& path) {
    std::string out;
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_')
            out += char(c);
        else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

// Rows start sorted by the worst figure; the controls filter to failures and sort again.
constexpr const char* kScript = R"(<script>
const body = document.querySelector('#models tbody');
const rows = Array.from(body.rows);
const failures = document.getElementById('failures'), order = document.getElementById('order');
function update() {
  const byName = order.value === 'name';
  rows.sort((a, b) => byName ? a.dataset.name.localeCompare(b.dataset.name)
                             : Number(b.dataset.worst) - Number(a.dataset.worst) || a.dataset.name.localeCompare(b.dataset.name));
  for (const row of rows) {
    row.hidden = failures.checked && row.dataset.status === 'pass';
    body.appendChild(row);
  }
  document.getElementById('shown').textContent = rows.filter(r => !r.hidden).length;
}
failures.checked = location.hash === '#failures';
failures.addEventListener('change', update);
order.addEventListener('change', update);
update();
</script>
)";

std::string html(const FolderReport& r) {
    size_t failing = 0, nothing = 0;
    for (const ModelRow& row : r.rows) {
        failing += row.status != "pass";
        nothing += row.status == kNothingCompared;
    }
    std::string h =
        "<!doctype html><html lang=en><meta charset=utf-8><title>horde validate: folder</title>\n"
        "<style>body{font-family:sans-serif;margin:2em}td,th{padding:2px 8px;text-align:left;"
        "vertical-align:middle}td.detail{max-width:40em;overflow-wrap:anywhere}td.renders{white-space:nowrap}"
        "img{height:72px;border:1px solid #888;margin-right:2px}.pass{color:#080}.fail,.error{color:#c00}"
        ".nothing-compared{color:#b60}"
        "tr[hidden]{display:none}</style>\n";
    h += "<h1>horde validate: " +
         std::string(r.passed() ? "<b class=pass>pass</b>" : "<b class=fail>FAIL</b>") + ", " +
         std::to_string(r.rows.size() - failing) + " of " + std::to_string(r.rows.size()) + " models pass" +
         (nothing ? ", " + std::to_string(nothing) + " compared nothing" : "") + "</h1>\n";
    h += "<p>Source <code>" + htmlEscape(r.source) + "</code>, converted <code>" + htmlEscape(r.converted) +
         "</code></p>\n";
    h += "<p><label><input type=checkbox id=failures> failures only</label> &nbsp; <label>sort by <select "
         "id=order>"
         "<option value=worst>worst figure</option><option value=name>name</option></select></label> &nbsp; "
         "<span id=shown>" +
         std::to_string(r.rows.size()) + "</span> shown</p>\n";
    h += "<table id=models><thead><tr><th>model</th><th>result</th><th>A (source), B (converted)</th>"
         "<th>max position error</th><th>differing pixels</th><th>worst / threshold</th>"
         "<th>failed checks, error</th></tr></thead><tbody>\n";
    for (const ModelRow& row : r.rows) {
        std::string checks;
        for (const std::string& c : row.failedChecks)
            checks += (checks.empty() ? "" : ", ") + htmlEscape(c);
        if (!row.error.empty()) checks += (checks.empty() ? "" : "; ") + htmlEscape(row.error);
        std::string thumbs;
        for (const std::string* t : {&row.thumbnailA, &row.thumbnailB})
            if (!t->empty())
                thumbs += "<img src=\"" + href(*t) + "\" alt=\"" + (t == &row.thumbnailA ? "A" : "B") + "\">";
        const std::string name = row.report.empty()
                                     ? htmlEscape(row.source)
                                     : "<a href=\"" + href(row.report) + "\">" + htmlEscape(row.source) + "</a>";
        std::string cls = row.status;
        std::replace(cls.begin(), cls.end(), ' ', '-');
        h += "<tr data-status=\"" + row.status + "\" data-name=\"" + htmlEscape(row.source) +
             "\" data-worst=" + (std::isfinite(row.worst) ? number(row.worst) : "Infinity") + "><td>" + name +
             "</td><td class=" + cls + ">" + row.status + "</td><td class=renders>" + thumbs + "</td><td>" +
             number(row.maxPositionError) + "</td><td>" +
             (row.differingPixels < 0 ? number(-1) : number(row.differingPixels) + "%") + "</td><td>" +
             (std::isfinite(row.worst) ? number(row.worst) : "&infin;") +
             (row.worstFigure.empty() ? "" : "<br><small>" + htmlEscape(row.worstFigure) + "</small>") +
             "</td><td class=detail>" + checks + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
    h += kScript;
    return h + "</html>\n";
}
} // namespace

Status writeFolderReport(const FolderReport& report, const std::filesystem::path& dir) {
    return writeReportFolder(dir, html(report), "report.json", report.json());
}

} // namespace horde
