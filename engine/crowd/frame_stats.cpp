#include "crowd/frame_stats.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

namespace horde {

namespace {
double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}
template <class F> double medianOf(const std::vector<PassTimes>& times, F field) {
    std::vector<double> v;
    for (const PassTimes& t : times)
        v.push_back(field(t));
    return median(v);
}

std::string behaviourJson(const BehaviourCounts& b, const std::vector<std::string>& states) {
    std::string out = "{\"states\":{";
    for (size_t s = 0; s < states.size() && s < b.states.size(); ++s)
        out += (s ? ",\"" : "\"") + states[s] + "\":" + std::to_string(b.states[s]);
    return out + "},\"transitions\":" + std::to_string(b.transitions) + ",\"blending\":" +
           std::to_string(b.blending) + ",\"moved\":" + std::to_string(b.moved) + "}";
}

std::string countsJson(const FrameCounts& c, const std::vector<std::string>& states) {
    std::string levels;
    for (size_t l = 0; l < c.perLevel.size(); ++l)
        levels += (l ? "," : "") + std::to_string(c.perLevel[l]);
    char line[512];
    std::snprintf(
        line, sizeof line,
        "\"instances\":%u,\"visible\":%u,\"levels\":[%s],\"triangles\":%llu,\"skinned_vertices\":%llu,"
        "\"impostors\":%u,\"fading\":%u,\"own_poses\":%u,\"shared_poses\":%u,\"shared_blends\":%u,"
        "\"dropped\":%u",
        c.instances, c.visible, levels.c_str(), static_cast<unsigned long long>(c.triangles),
        static_cast<unsigned long long>(c.skinnedVertices), c.impostors, c.fading, c.ownPoses, c.sharedPoses,
        c.sharedBlends, c.dropped);
    return std::string(line) + ",\"behaviour\":" + behaviourJson(c.behaviour, states);
}

std::string timesJson(const PassTimes& t) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "{\"cull\":%.4f,\"sample\":%.4f,\"pose\":%.4f,\"skin\":%.4f,\"draw\":%.4f,\"total\":%.4f}",
                  t.cullMs, t.sampleMs, t.poseMs, t.skinMs, t.drawMs, t.totalMs());
    return line;
}

std::string invocationsJson(const PassInvocations& p) {
    std::string out = "{";
    const std::pair<const char*, const Invocations*> passes[] = {
        {"cull", &p.cull}, {"sample", &p.sample}, {"pose", &p.pose}, {"skin", &p.skin}, {"draw", &p.draw}};
    for (const auto& [name, i] : passes) {
        char entry[160];
        std::snprintf(entry, sizeof entry, "%s\"%s\":{\"vertex\":%llu,\"fragment\":%llu,\"compute\":%llu}",
                      out.size() > 1 ? "," : "", name, static_cast<unsigned long long>(i->vertex),
                      static_cast<unsigned long long>(i->fragment), static_cast<unsigned long long>(i->compute));
        out += entry;
    }
    return out + "}";
}

// The frame with the median GPU time.
size_t medianFrame(const std::vector<PassTimes>& gpu) {
    std::vector<size_t> order(gpu.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::nth_element(order.begin(), order.begin() + order.size() / 2, order.end(),
                     [&](size_t a, size_t b) { return gpu[a].totalMs() < gpu[b].totalMs(); });
    return order[order.size() / 2];
}
} // namespace

void FrameStats::add(const PassTimes& times, FrameCounts frameCounts,
                     const std::optional<PassInvocations>& passInvocations) {
    gpu.push_back(times);
    counts.push_back(std::move(frameCounts));
    if (passInvocations) invocations.push_back(*passInvocations);
}

std::optional<PassInvocations> FrameStats::medianInvocations() const {
    if (gpu.empty() || invocations.size() != gpu.size()) return std::nullopt;
    return invocations[medianFrame(gpu)];
}

std::string FrameStats::invocationsLine() const {
    const std::optional<PassInvocations> p = medianInvocations();
    if (!p) return {};
    char line[320];
    std::snprintf(line, sizeof line,
                  "invocations (median frame): compute cull %llu sample %llu pose %llu skin %llu  |  draw vertex "
                  "%llu fragment %llu",
                  static_cast<unsigned long long>(p->cull.compute), static_cast<unsigned long long>(p->sample.compute),
                  static_cast<unsigned long long>(p->pose.compute), static_cast<unsigned long long>(p->skin.compute),
                  static_cast<unsigned long long>(p->draw.vertex), static_cast<unsigned long long>(p->draw.fragment));
    return line;
}

PassTimes FrameStats::medianGpu() const {
    PassTimes m;
    m.cullMs = medianOf(gpu, [](const PassTimes& t) { return t.cullMs; });
    m.sampleMs = medianOf(gpu, [](const PassTimes& t) { return t.sampleMs; });
    m.poseMs = medianOf(gpu, [](const PassTimes& t) { return t.poseMs; });
    m.skinMs = medianOf(gpu, [](const PassTimes& t) { return t.skinMs; });
    m.drawMs = medianOf(gpu, [](const PassTimes& t) { return t.drawMs; });
    return m;
}

double FrameStats::medianCpuMs() const {
    return median(cpuMs);
}

FrameCounts FrameStats::medianCounts() const {
    if (gpu.empty()) return {};
    return counts[medianFrame(gpu)];
}

double FrameStats::skinnedVerticesPerSecond() const {
    double total = medianOf(gpu, [](const PassTimes& t) { return t.totalMs(); });
    return total > 0.0 ? double(medianCounts().skinnedVertices) / (total * 1e-3) : 0.0;
}

std::string FrameStats::frameHeader() {
    char line[256];
    std::snprintf(line, sizeof line, "%6s %8s %8s %8s %8s %9s %9s %8s %9s %11s %12s", "frame", "cull",
                  "sample", "pose", "skin", "draw", "gpu ms", "cpu ms", "visible", "triangles", "skinned");
    return line;
}

std::string FrameStats::frameLine(size_t f) const {
    const PassTimes& t = gpu[f];
    const FrameCounts& c = counts[f];
    char line[256];
    std::snprintf(line, sizeof line, "%6zu %8.3f %8.3f %8.3f %8.3f %9.3f %9.3f %8.3f %9u %11llu %12llu", f,
                  t.cullMs, t.sampleMs, t.poseMs, t.skinMs, t.drawMs, t.totalMs(),
                  f < cpuMs.size() ? cpuMs[f] : 0.0, c.visible, static_cast<unsigned long long>(c.triangles),
                  static_cast<unsigned long long>(c.skinnedVertices));
    return line;
}

std::string FrameStats::summary() const {
    PassTimes g = medianGpu();
    FrameCounts c = medianCounts();
    std::string levels;
    for (size_t l = 0; l < c.perLevel.size(); ++l)
        if (c.perLevel[l]) levels += " L" + std::to_string(l) + ":" + std::to_string(c.perLevel[l]);
    char line[768];
    std::snprintf(
        line, sizeof line,
        "frames %zu  gpu ms: cull %.3f  sample %.3f  pose %.3f  skin %.3f  draw %.3f  total %.3f  |  cpu "
        "ms/frame "
        "%.3f  |  visible %u of %u  levels%s  impostors %u (%u fading)  poses %u own %u shared  |  %.2f M "
        "triangles  "
        "%.2f M skinned "
        "vertices (%.1f M/s)",
        cpuMs.size(), g.cullMs, g.sampleMs, g.poseMs, g.skinMs, g.drawMs, g.totalMs(), medianCpuMs(),
        c.visible, c.instances, levels.c_str(), c.impostors, c.fading, c.ownPoses, c.sharedPoses,
        double(c.triangles) * 1e-6, double(c.skinnedVertices) * 1e-6, skinnedVerticesPerSecond() * 1e-6);
    if (states.empty()) return line;
    std::string behaviour = "  |  behaviour:";
    for (size_t s = 0; s < states.size() && s < c.behaviour.states.size(); ++s)
        behaviour += " " + states[s] + " " + std::to_string(c.behaviour.states[s]);
    return line + behaviour + ", " + std::to_string(c.behaviour.transitions) + " transitions, " +
           std::to_string(c.behaviour.blending) + " blending (" + std::to_string(c.sharedBlends) +
           " on shared blends), " + std::to_string(c.behaviour.moved) + " moved";
}

std::string FrameStats::droppedLine() const {
    const FrameCounts c = medianCounts();
    if (c.dropped == 0) return {};
    return "dropped: " + std::to_string(c.dropped) + " of " + std::to_string(c.instances) +
           " instances, the farthest, were not drawn: the vertex pool could not hold them even at their "
           "coarsest levels";
}

std::string FrameStats::firstFrameLine() const {
    if (gpu.size() < 3) return {};
    const double first = gpu[0].totalMs(), typical = medianGpu().totalMs();
    if (!(first > 2.0 * typical)) return {};
    char line[256];
    std::snprintf(line, sizeof line,
                  "frame 0 took %.1f ms, %.1f times the median: the driver's first use of each pipeline (lavapipe "
                  "compiles shaders as they first run); the median leaves it out",
                  first, first / typical);
    return line;
}

std::string FrameStats::json() const {
    std::string out = "{\"frames\":[";
    for (size_t f = 0; f < gpu.size(); ++f) {
        if (f) out += ",";
        char cpu[64];
        std::snprintf(cpu, sizeof cpu, "%.4f", f < cpuMs.size() ? cpuMs[f] : 0.0);
        out += "{\"gpu_ms\":" + timesJson(gpu[f]) + ",\"cpu_ms\":" + cpu + "," + countsJson(counts[f], states);
        if (invocations.size() == gpu.size()) out += ",\"invocations\":" + invocationsJson(invocations[f]);
        out += "}";
    }
    char cpu[64];
    std::snprintf(cpu, sizeof cpu, "%.4f", medianCpuMs());
    out += "],\"median\":{\"gpu_ms\":" + timesJson(medianGpu()) + ",\"cpu_ms\":" + cpu + "," +
           countsJson(medianCounts(), states);
    if (const std::optional<PassInvocations> p = medianInvocations()) out += ",\"invocations\":" + invocationsJson(*p);
    out += "}}\n";
    return out;
}

} // namespace horde
