#include "profile_page.h"

#include <algorithm>
#include <cstdio>

#include "html.h"
#include "svg_chart.h"

namespace horde {

namespace {

const char* kStyle =
    R"(body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1d1f23}
h1{font-size:22px;margin-bottom:4px}h2{font-size:17px;margin-top:28px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}th,td{padding:3px 7px;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}tr.winner td{font-weight:600;background:#eef6ea}
tr.fastest td{background:#f6f6ea}#winners td:last-child,#winners th:last-child{text-align:left}
.meta{color:#555}.note{background:#fff7e0;border-left:3px solid #e0b040;padding:6px 10px;margin:6px 0}
svg.plot{width:100%;height:auto;margin:8px 0;font-size:11px}svg.plot .title{font-size:14px;font-weight:600}
svg.plot .grid{stroke:#e3e3e3}svg.plot text{fill:#333})";

// The eight skinnings' colours; the vertex technique draws its lines dashed.
const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                         "#9467bd", "#8c564b", "#e377c2", "#17becf"};
const std::vector<std::string> kPasses = {"cull", "sample", "pose", "skin", "draw"};
const std::vector<std::string> kPassColors = {"#9aa5b1", "#6baed6", "#3182bd", "#e6550d", "#31a354"};

std::string fixed(double v, const char* format = "%.3f") {
    char text[32];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

const char* colorOf(const SkinOptions& skin) {
    const size_t i = (skin.skinning == Skinning::Dqs ? 4 : 0) + (skin.precision == Precision::Fp16 ? 2 : 0) +
                     (skin.influences > 4 ? 1 : 0);
    return kColors[i];
}

// One series per technique over the crowd sizes, of `value`.
template <class F> std::vector<Series> seriesOf(const Profile& p, F value) {
    std::vector<Series> out;
    for (const ProfileRun& run : p.runs) {
        auto it = std::find_if(out.begin(), out.end(), [&](const Series& s) { return s.name == run.name(); });
        if (it == out.end()) {
            out.push_back({run.name(), {}, colorOf(run.skin), run.technique == Technique::Vertex});
            it = out.end() - 1;
        }
        it->points.push_back({double(run.count), value(run)});
    }
    return out;
}

std::string spreadText(const ProfileRun& r) {
    const Spread s = r.spread();
    return fixed(s.median, "%.2f") + " <small>(" + fixed(s.min, "%.2f") + " – " + fixed(s.max, "%.2f") + ")</small>";
}

// A winner where its slowest repeat beats every other run's fastest; else every run within reach.
std::string winners(const Profile& p) {
    std::string out = "<table id=winners><thead><tr><th>instances</th><th>fastest</th><th>GPU ms/frame (min – max)</th>"
                      "<th>verdict</th></tr></thead><tbody>";
    for (uint32_t count : p.counts) {
        const ProfileRun* best = p.fastest(count);
        if (!best) continue;
        out += "<tr><td>" + std::to_string(count) + "</td><td>" + htmlEscape(best->name()) + "</td><td>" +
               spreadText(*best) + "</td><td>" + htmlEscape(p.verdict(count)) + "</td></tr>";
    }
    return out + "</tbody></table>";
}

std::string runsTable(const Profile& p) {
    std::string out =
        "<table "
        "id=runs><thead><tr><th>technique</th><th>instances</th><th>cull</th><th>sample</th><th>pose</th>"
        "<th>skin</th><th>draw</th><th>total ms</th><th>min</th><th>max</th><th>skinned vertices</th><th>ms / 1k vertices</th>"
        "<th>skin + draw ms / 1k</th><th>skin invocations</th><th>draw vertex inv.</th><th>draw fragment "
        "inv.</th>"
        "<th>visible</th><th>triangles</th></tr></thead><tbody>";
    for (const ProfileRun& r : p.runs) {
        const bool won = p.winner(r.count) == &r;
        const bool fastest = !won && p.fastest(r.count) == &r;
        auto invocations = [&](uint64_t Invocations::*field, const Invocations PassInvocations::*pass) {
            return r.invocations ? std::to_string((*r.invocations).*pass.*field) : std::string("—");
        };
        out += std::string("<tr") + (won ? " class=winner" : fastest ? " class=fastest" : "") + " data-count=" + std::to_string(r.count) +
               "><td>" + htmlEscape(r.name()) + "</td><td>" + std::to_string(r.count) + "</td><td>" +
               fixed(r.gpu.cullMs) + "</td><td>" + fixed(r.gpu.sampleMs) + "</td><td>" + fixed(r.gpu.poseMs) +
               "</td><td>" + fixed(r.gpu.skinMs) + "</td><td>" + fixed(r.gpu.drawMs) + "</td><td>" +
               fixed(r.gpu.totalMs()) + "</td><td>" + fixed(r.spread().min) + "</td><td>" + fixed(r.spread().max) +
               "</td><td>" + std::to_string(r.counts.skinnedVertices) + "</td><td>" +
               fixed(r.frameMsPerThousand(), "%.4f") + "</td><td>" +
               fixed(r.skinDrawMsPerThousand(), "%.4f") + "</td><td>" +
               invocations(&Invocations::compute, &PassInvocations::skin) + "</td><td>" +
               invocations(&Invocations::vertex, &PassInvocations::draw) + "</td><td>" +
               invocations(&Invocations::fragment, &PassInvocations::draw) + "</td><td>" +
               std::to_string(r.counts.visible) + "</td><td>" + std::to_string(r.counts.triangles) +
               "</td></tr>";
    }
    return out + "</tbody></table>";
}

} // namespace

std::string profilePage(const Profile& p) {
    std::string models;
    for (const std::string& m : p.models)
        models += (models.empty() ? "" : ", ") + m;
    std::string page = "<!doctype html><html lang=en><head><meta charset=utf-8><title>horde profile: " +
                       htmlEscape(p.device) + "</title><style>" + kStyle + "</style></head><body>";
    page += "<h1>Skinning profile: " + htmlEscape(p.device) + "</h1><p class=meta>driver " +
            htmlEscape(p.driver) + " · models " + htmlEscape(models) + " · " + std::to_string(p.width) +
            " x " + std::to_string(p.height) + " · " + std::to_string(p.repeats) + " repeats a run, taken in turn with the other runs, each " +
            (p.frames == 1 ? std::string("one frame") : "the median of " + std::to_string(p.frames) + " frames") +
            " · <code>" + htmlEscape(p.command) + "</code></p>";
    for (const std::string& note : p.notes)
        page += "<p class=note>" + htmlEscape(note) + "</p>";
    page += "<h2>Fastest at each crowd size</h2>" + winners(p);
    page += "<h2>GPU time against crowd size</h2>";
    page += lineChart("GPU milliseconds per frame", "instances", "ms per frame",
                      seriesOf(p, [](const ProfileRun& r) { return r.gpu.totalMs(); }));
    page += lineChart("Skinning cost: skin pass and draw per thousand skinned vertices", "instances",
                      "ms per 1,000 skinned vertices",
                      seriesOf(p, [](const ProfileRun& r) { return r.skinDrawMsPerThousand(); }));
    for (uint32_t count : p.counts) {
        std::vector<Bar> bars;
        for (const ProfileRun& r : p.runs)
            if (r.count == count)
                bars.push_back(
                    {r.name(), {r.gpu.cullMs, r.gpu.sampleMs, r.gpu.poseMs, r.gpu.skinMs, r.gpu.drawMs}});
        page += stackedBars("Each pass at " + std::to_string(count) + " instances", "ms", kPasses,
                            kPassColors, bars);
    }
    page += "<h2>Every run</h2>" + runsTable(p);
    page += "<p class=meta>Times are the median repeat's GPU timestamps per pass, min and max its run's fastest and "
            "slowest repeat; invocations come from "
            "pipeline-statistics queries where the device has them (— where not). Written by horde profile; "
            "profile.json beside this page has every figure.</p></body></html>\n";
    return page;
}

} // namespace horde
