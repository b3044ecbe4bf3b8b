#include "render/stats.h"

#include <algorithm>
#include <cstdio>

namespace horde {

namespace {
double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}
template <class F> double medianOf(const std::vector<PassTimes>& times, F field) {
    std::vector<double> v;
    for (const PassTimes& t : times) v.push_back(field(t));
    return median(v);
}
} // namespace

PassTimes FrameStats::medianGpu() const {
    PassTimes m;
    m.sampleMs = medianOf(gpu, [](const PassTimes& t) { return t.sampleMs; });
    m.poseMs = medianOf(gpu, [](const PassTimes& t) { return t.poseMs; });
    m.skinMs = medianOf(gpu, [](const PassTimes& t) { return t.skinMs; });
    m.drawMs = medianOf(gpu, [](const PassTimes& t) { return t.drawMs; });
    return m;
}

double FrameStats::medianCpuMs() const { return median(cpuMs); }

double FrameStats::skinnedVerticesPerSecond() const {
    double total = medianOf(gpu, [](const PassTimes& t) { return t.totalMs(); });
    return total > 0.0 ? double(skinnedVerticesPerFrame) / (total * 1e-3) : 0.0;
}

std::string FrameStats::summary() const {
    PassTimes g = medianGpu();
    char line[512];
    std::snprintf(line, sizeof line,
                  "frames %zu  gpu ms: sample %.3f  pose %.3f  skin %.3f  draw %.3f  total %.3f  |  cpu ms/frame %.3f  |  "
                  "%.1f M skinned vertices/s",
                  cpuMs.size(), g.sampleMs, g.poseMs, g.skinMs, g.drawMs, g.totalMs(), medianCpuMs(),
                  skinnedVerticesPerSecond() * 1e-6);
    return line;
}

} // namespace horde
