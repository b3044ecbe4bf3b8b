#include "svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "html.h"

namespace horde {

namespace {

std::string number(double v, const char* format = "%.4g") {
    char text[32];
    std::snprintf(text, sizeof text, format, v);
    return text;
}

// A round step for about `ticks` divisions of [0, top].
double tickStep(double top, int ticks) {
    const double raw = top / ticks, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * magnitude) return m * magnitude;
    return 10.0 * magnitude;
}

std::string text(double x, double y, const std::string& s, const char* anchor = "start",
                 const char* extra = "") {
    return "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" + anchor + "\"" + extra +
           ">" + htmlEscape(s) + "</text>";
}

} // namespace

std::string lineChart(const std::string& title, const std::string& xLabel, const std::string& yLabel,
                      const std::vector<Series>& series) {
    const double width = 760, height = 400, left = 64, right = 230, top = 34, bottom = 48;
    const double plotW = width - left - right, plotH = height - top - bottom;
    double xMin = 1e300, xMax = 0, yMax = 0;
    for (const Series& s : series)
        for (auto [x, y] : s.points) {
            xMin = std::min(xMin, x);
            xMax = std::max(xMax, x);
            yMax = std::max(yMax, y);
        }
    if (xMax <= 0) xMin = xMax = 1;
    if (yMax <= 0) yMax = 1;
    const double lo = std::log10(xMin), span = std::max(std::log10(xMax) - lo, 1e-9);
    const double step = tickStep(yMax, 5), yTop = std::ceil(yMax / step) * step;
    auto px = [&](double x) {
        return xMax == xMin ? left + plotW / 2 : left + (std::log10(x) - lo) / span * plotW;
    };
    auto py = [&](double y) { return top + plotH - y / yTop * plotH; };
    std::string svg = "<svg class=\"plot\" viewBox=\"0 0 " + number(width) + " " + number(height) +
                      "\" role=\"img\" aria-label=\"" + htmlEscape(title) + "\">";
    svg += text(width / 2, 20, title, "middle", " class=\"title\"");
    for (double y = 0; y <= yTop + step / 2; y += step)
        svg += "<line class=\"grid\" x1=\"" + number(left) + "\" x2=\"" + number(left + plotW) + "\" y1=\"" +
               number(py(y)) + "\" y2=\"" + number(py(y)) + "\"/>" +
               text(left - 6, py(y) + 4, number(y), "end");
    std::vector<double> xs;
    for (const Series& s : series)
        for (auto [x, y] : s.points)
            xs.push_back(x);
    std::sort(xs.begin(), xs.end());
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    for (double x : xs)
        svg += text(px(x), top + plotH + 18, number(x, "%.0f"), "middle");
    svg += text(left + plotW / 2, height - 8, xLabel, "middle");
    svg += "<text transform=\"translate(14 " + number(top + plotH / 2) +
           ") rotate(-90)\" text-anchor=\"middle\">" + htmlEscape(yLabel) + "</text>";
    for (size_t i = 0; i < series.size(); ++i) {
        const Series& s = series[i];
        std::string points;
        for (auto [x, y] : s.points)
            points += number(px(x)) + "," + number(py(y)) + " ";
        svg += "<polyline class=\"series\" fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"2\"" +
               (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + " points=\"" + points + "\"><title>" +
               htmlEscape(s.name) + "</title></polyline>";
        for (auto [x, y] : s.points)
            svg += "<circle cx=\"" + number(px(x)) + "\" cy=\"" + number(py(y)) + "\" r=\"3\" fill=\"" +
                   s.color + "\"><title>" + htmlEscape(s.name) + ": " + number(y) + " at " +
                   number(x, "%.0f") + "</title></circle>";
        const double ly = top + 6 + double(i) * 16;
        svg += "<line x1=\"" + number(width - right + 12) + "\" x2=\"" + number(width - right + 36) +
               "\" y1=\"" + number(ly) + "\" y2=\"" + number(ly) + "\" stroke=\"" + s.color +
               "\" stroke-width=\"2\"" + (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>" +
               text(width - right + 42, ly + 4, s.name);
    }
    return svg + "</svg>";
}

std::string stackedBars(const std::string& title, const std::string& unit,
                        const std::vector<std::string>& partNames, const std::vector<std::string>& partColors,
                        const std::vector<Bar>& bars) {
    const double width = 760, left = 190, right = 90, top = 52, row = 20;
    const double plotW = width - left - right, height = top + row * double(bars.size()) + 30;
    double most = 0;
    for (const Bar& b : bars) {
        double sum = 0;
        for (double p : b.parts)
            sum += std::max(p, 0.0);
        most = std::max(most, sum);
    }
    if (most <= 0) most = 1;
    std::string svg = "<svg class=\"plot\" viewBox=\"0 0 " + number(width) + " " + number(height) +
                      "\" role=\"img\" aria-label=\"" + htmlEscape(title) + "\">";
    svg += text(width / 2, 18, title, "middle", " class=\"title\"");
    for (size_t p = 0; p < partNames.size(); ++p) {
        const double x = left + double(p) * 90;
        svg += "<rect x=\"" + number(x) + "\" y=\"28\" width=\"12\" height=\"12\" fill=\"" + partColors[p] +
               "\"/>" + text(x + 16, 39, partNames[p]);
    }
    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar& b = bars[i];
        const double y = top + double(i) * row;
        svg += text(left - 8, y + 14, b.label, "end");
        double x = left, sum = 0;
        for (size_t p = 0; p < b.parts.size() && p < partColors.size(); ++p) {
            const double w = std::max(b.parts[p], 0.0) / most * plotW;
            sum += std::max(b.parts[p], 0.0);
            svg += "<rect class=\"bar\" x=\"" + number(x) + "\" y=\"" + number(y + 2) + "\" width=\"" +
                   number(w) + "\" height=\"" + number(row - 4) + "\" fill=\"" + partColors[p] +
                   "\"><title>" +
                   htmlEscape(b.label + ", " + partNames[p] + ": " + number(b.parts[p]) + " " + unit) +
                   "</title></rect>";
            x += w;
        }
        svg += text(x + 6, y + 14, number(sum, "%.3g") + " " + unit);
    }
    return svg + "</svg>";
}

} // namespace horde
