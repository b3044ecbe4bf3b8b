#include "validate_report.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "html.h"
#include "report_folder.h"
#include "core/png.h"

namespace horde {

ImageDiff diffImages(const Image8& a, const Image8& b, int tolerance) {
    ImageDiff d;
    if (a.width != b.width || a.height != b.height || a.rgba.size() != b.rgba.size() || a.rgba.empty())
        return d;
    d.image = a;
    size_t differing = 0, pixels = a.rgba.size() / 4;
    for (size_t p = 0; p < pixels; ++p) {
        const uint8_t *pa = &a.rgba[p * 4], *pb = &b.rgba[p * 4];
        int worst = 0;
        for (int c = 0; c < 3; ++c)
            worst = std::max(worst, std::abs(int(pa[c]) - int(pb[c])));
        uint8_t* out = &d.image.rgba[p * 4];
        if (worst > tolerance) {
            ++differing;
            out[0] = uint8_t(std::min(255, 96 + worst * 2)), out[1] = 0, out[2] = 0;
        } else {
            for (int c = 0; c < 3; ++c)
                out[c] = uint8_t(pa[c] / 4); // context, dimmed
        }
        out[3] = 255;
    }
    d.differingPercent = 100.0 * double(differing) / double(pixels);
    return d;
}

nlohmann::json ValidateReport::json() const {
    nlohmann::json checksJson = nlohmann::json::array(), posesJson = nlohmann::json::array();
    for (const Check& c : checks)
        checksJson.push_back({{"name", c.name},
                              {"passed", c.passed},
                              {"status", verdictName(c.verdict())},
                              {"detail", c.detail}});
    for (size_t i = 0; i < poses.size(); ++i) {
        const PoseResult& p = poses[i];
        nlohmann::json pose = {{"label", p.pose.label},
                               {"time", p.pose.time},
                               {"comparable", p.error.comparable},
                               {"max_position_error", p.error.maxRelative},
                               {"rms_position_error", p.error.rmsRelative},
                               {"pictured", p.pose.pictured},
                               {"images", imagesOf(i)},
                               {"passed", p.passed},
                               {"status", verdictName(p.verdict())}};
        if (p.pose.pictured) {
            nlohmann::json views = nlohmann::json::object();
            for (const ViewResult& v : p.views)
                views[viewName(v.view)] = {{"differing_pixels_percent", v.diff.differingPercent}};
            pose["differing_pixels_percent"] = p.diff.differingPercent;
            pose["views"] = views;
        }
        posesJson.push_back(pose);
    }
    nlohmann::json matchJson = nlohmann::json::array();
    for (const MeshMatch& m : attributes.matches)
        matchJson.push_back({{"by_order", m.byOrder},
                             {"vertices_a", m.bOfA.size()},
                             {"vertices_b", m.aOfB.size()},
                             {"unmatched_a", m.unmatchedA},
                             {"unmatched_b", m.unmatchedB}});
    nlohmann::json attributesJson = nlohmann::json::array();
    for (const AttributeFigure& f : attributes.figures)
        attributesJson.push_back({{"name", f.name},
                                  {"passed", f.passed},
                                  {"status", verdictName(f.verdict())},
                                  {"max", f.max},
                                  {"rms", f.rms},
                                  {"tolerance", f.tolerance},
                                  {"unit", f.unit},
                                  {"pairs", f.pairs},
                                  {"over", f.over},
                                  {"repaired", f.repaired},
                                  {"detail", f.detail}});
    return {{"a", a},
            {"b", b},
            {"passed", passed},
            {"status", verdictName(verdict())},
            {"thresholds",
             {{"max_position_error", maxPositionError},
              {"max_differing_pixels", maxDifferingPixels},
              {"pixel_tolerance", pixelTolerance},
              {"max_uv_error", tolerances.uv},
              {"max_normal_angle", tolerances.normalDegrees},
              {"max_tangent_angle", tolerances.tangentDegrees},
              {"max_color_error", tolerances.color},
              {"max_weight_error", tolerances.weight}}},
            {"checks", checksJson},
            {"vertex_match", matchJson},
            {"attributes", attributesJson},
            {"poses", posesJson}};
}

namespace {
std::string number(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g", v);
    return buffer;
}

std::string verdict(Verdict v) {
    return v == Verdict::Pass   ? "<b class=pass>pass</b>"
           : v == Verdict::Fail ? "<b class=fail>FAIL</b>"
                                : "<b class=nothing>nothing compared</b>";
}

std::string html(const ValidateReport& r) {
    std::string h = "<!doctype html><meta charset=utf-8><title>horde "
                    "validate</title>\n<style>body{font-family:sans-serif;margin:2em}"
                    "img{width:32%;border:1px solid #888}td,th{padding:2px "
                    "8px;text-align:left}.pass{color:#080}.fail{color:#c00}.nothing{color:#b60}</style>\n";
    h += "<h1>horde validate: " + verdict(r.verdict()) + "</h1>\n<p>A (source): <code>" + htmlEscape(r.a) +
         "</code><br>B: <code>" + htmlEscape(r.b) + "</code></p>\n";
    h += "<p>Thresholds: position error &le; " + number(r.maxPositionError) +
         " of the bounding radius; differing pixels &le; " + number(r.maxDifferingPixels) +
         "% (a pixel differs when a channel differs by more than " + std::to_string(r.pixelTolerance) +
         "/255).</p>\n<table><tr><th>check</th><th></th><th>detail</th></tr>\n";
    for (const Check& c : r.checks)
        h += "<tr><td>" + htmlEscape(c.name) + "</td><td>" + verdict(c.verdict()) + "</td><td>" +
             htmlEscape(c.detail) + "</td></tr>\n";
    h += "</table>\n<h2>Attributes (bind pose, per matched vertex "
         "pair)</h2>\n<table><tr><th>attribute</th><th></th>"
         "<th>max</th><th>RMS</th><th>tolerance</th><th>pairs</th><th>detail</th></tr>\n";
    for (const AttributeFigure& f : r.attributes.figures)
        h += "<tr><td>" + htmlEscape(f.name) + "</td><td>" + verdict(f.verdict()) + "</td><td>" +
             number(f.max) + " " + htmlEscape(f.unit) + "</td><td>" + number(f.rms) + "</td><td>" +
             number(f.tolerance) + "</td><td>" + std::to_string(f.pairs) + "</td><td>" +
             htmlEscape(f.detail) + "</td></tr>\n";
    h += "</table>\n<h2>Poses</h2>\n<table><tr><th>pose</th><th></th><th>max position error</th><th>RMS "
         "position "
         "error</th><th>differing pixels: shaded</th><th>UV checker</th><th>normals</th></tr>\n";
    for (const PoseResult& p : r.poses) {
        h += "<tr><td>" + htmlEscape(p.pose.label) + "</td><td>" + verdict(p.verdict()) + "</td><td>" +
             (p.error.comparable ? number(p.error.maxRelative) : "not comparable") + "</td><td>" +
             (p.error.comparable ? number(p.error.rmsRelative) : "") + "</td><td>" +
             (p.pose.pictured ? number(p.diff.differingPercent) + "%" : "not pictured") + "</td>";
        for (const ViewResult& v : p.views)
            h += "<td>" + number(v.diff.differingPercent) + "%</td>";
        h += "</tr>\n";
    }
    h += "</table>\n<p>Each pose: A, B and their difference (red: differing pixels), shaded by the GPU "
         "renderer, then drawn on the CPU with uv0 as a checker (red grows with u, green with v, the tile at "
         "the origin magenta) and with normals as colours.</p>\n";
    for (size_t i = 0; i < r.poses.size(); ++i) {
        std::string n = std::to_string(i);
        h += "<h2>" + htmlEscape(r.poses[i].pose.label) + " " + verdict(r.poses[i].verdict()) + "</h2>\n";
        if (!r.poses[i].pose.pictured) {
            h += "<p>Compared by its positions only (<code>--pictures all</code> draws every pose).</p>\n";
            continue;
        }
        if (!r.imagesOf(i)) {
            h += "<p>Passed; its pictures were not written (validate this model alone for them).</p>\n";
            continue;
        }
        h += "<img src=a_" + n + ".png alt=A> <img src=b_" + n + ".png alt=B> <img src=diff_" + n +
             ".png alt=difference>\n";
        for (const ViewResult& v : r.poses[i].views) {
            std::string prefix = std::string(viewName(v.view)) + "_";
            h += "<br><img src=" + prefix + "a_" + n + ".png alt='A " + viewName(v.view) +
                 "'> <img src=" + prefix + "b_" + n + ".png alt='B " + viewName(v.view) +
                 "'> <img src=" + prefix + "diff_" + n + ".png alt='" + viewName(v.view) + " difference'>\n";
        }
    }
    return h;
}

Status writeImage(const std::filesystem::path& path, const Image8& image) {
    if (image.rgba.empty()) return Ok{};
    return writePng(path, image.width, image.height, image.rgba);
}
} // namespace

Status writeReport(const ValidateReport& r, const std::filesystem::path& dir) {
    return writeReportFolder(dir, html(r), "report.json", r.json());
}

Status writePoseImages(const PoseResult& pose, size_t index, const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    const std::string n = std::to_string(index);
    for (auto [name, image] : {std::pair{"a_", &pose.renderA}, std::pair{"b_", &pose.renderB},
                               std::pair{"diff_", &pose.diff.image}})
        if (Status st = writeImage(dir / (name + n + ".png"), *image); !st) return st;
    for (const ViewResult& v : pose.views) {
        const std::string prefix = std::string(viewName(v.view)) + "_";
        for (auto [name, image] : {std::pair{"a_", &v.renderA}, std::pair{"b_", &v.renderB},
                                   std::pair{"diff_", &v.diff.image}})
            if (Status st = writeImage(dir / (prefix + name + n + ".png"), *image); !st) return st;
    }
    return Ok{};
}

} // namespace horde
