#pragma once
// The profile page's plots as inline SVG, drawn when the page is written: the page needs no
// script and fetches nothing, so it opens the same offline. Each plot is an <svg class="plot">
// with a <title> per mark for its exact value.
#include <string>
#include <utility>
#include <vector>

namespace horde {

struct Series {
    std::string name;
    std::vector<std::pair<double, double>> points; // x > 0 (the x axis is logarithmic), y >= 0
    std::string color;
    bool dashed = false;
};

// Lines over a logarithmic x axis (crowd sizes) from zero up on y.
std::string lineChart(const std::string& title, const std::string& xLabel, const std::string& yLabel,
                      const std::vector<Series>& series);

// One horizontal bar per row, made of one segment per part (each pass's milliseconds, say).
struct Bar {
    std::string label;
    std::vector<double> parts;
};
std::string stackedBars(const std::string& title, const std::string& unit,
                        const std::vector<std::string>& partNames, const std::vector<std::string>& partColors,
                        const std::vector<Bar>& bars);

} // namespace horde
