#include "profile.h"

#include <algorithm>

#include "profile_page.h"
#include "report_folder.h"

namespace horde {

void ProfileRun::add(const ProfileSample& sample) {
    repeats.push_back(sample);
    std::vector<const ProfileSample*> byTime;
    for (const ProfileSample& r : repeats)
        byTime.push_back(&r);
    std::sort(byTime.begin(), byTime.end(),
              [](const ProfileSample* a, const ProfileSample* b) { return a->gpu.totalMs() < b->gpu.totalMs(); });
    const ProfileSample& median = *byTime[(byTime.size() - 1) / 2];
    gpu = median.gpu;
    counts = median.counts;
    invocations = median.invocations;
    cpuMs = median.cpuMs;
}

Spread ProfileRun::spread() const {
    if (repeats.empty()) return {gpu.totalMs(), gpu.totalMs(), gpu.totalMs()};
    Spread s{1e300, gpu.totalMs(), 0.0};
    for (const ProfileSample& r : repeats) {
        s.min = std::min(s.min, r.gpu.totalMs());
        s.max = std::max(s.max, r.gpu.totalMs());
    }
    return s;
}

std::string ProfileRun::name() const {
    std::string skinning = skinName(skin);
    std::replace(skinning.begin(), skinning.end(), '/', '-');
    return std::string(nameOf(technique)) + "-" + skinning;
}

double ProfileRun::frameMsPerThousand() const {
    return counts.skinnedVertices ? gpu.totalMs() * 1000.0 / double(counts.skinnedVertices) : 0.0;
}

double ProfileRun::skinDrawMsPerThousand() const {
    return counts.skinnedVertices ? (gpu.skinMs + gpu.drawMs) * 1000.0 / double(counts.skinnedVertices) : 0.0;
}

const ProfileRun* Profile::fastest(uint32_t count) const {
    const ProfileRun* best = nullptr;
    for (const ProfileRun& run : runs)
        if (run.count == count && (!best || run.gpu.totalMs() < best->gpu.totalMs())) best = &run;
    return best;
}

const ProfileRun* Profile::winner(uint32_t count) const {
    const ProfileRun* best = fastest(count);
    return best && undecided(count).size() == 1 ? best : nullptr;
}

std::vector<const ProfileRun*> Profile::undecided(uint32_t count) const {
    const ProfileRun* best = fastest(count);
    if (!best) return {};
    std::vector<const ProfileRun*> out{best};
    for (const ProfileRun& run : runs)
        if (run.count == count && &run != best && run.spread().min <= best->spread().max) out.push_back(&run);
    return out;
}

std::string Profile::verdict(uint32_t count) const {
    if (winner(count)) return "faster in every repeat than any other run";
    std::string out = "no winner: within the spread of";
    const std::vector<const ProfileRun*> close = undecided(count);
    for (size_t i = 1; i < close.size(); ++i)
        out += (i > 1 ? ", " : " ") + close[i]->name();
    return out;
}

namespace {

nlohmann::json invocationsJson(const Invocations& i) {
    return {{"vertex", i.vertex}, {"fragment", i.fragment}, {"compute", i.compute}};
}

nlohmann::json runJson(const ProfileRun& r) {
    nlohmann::json repeatsMs = nlohmann::json::array();
    for (const ProfileSample& sample : r.repeats)
        repeatsMs.push_back(sample.gpu.totalMs());
    nlohmann::json j{{"name", r.name()},
                     {"technique", nameOf(r.technique)},
                     {"skinning", nameOf(r.skin.skinning)},
                     {"precision", nameOf(r.skin.precision)},
                     {"influences", r.skin.influences},
                     {"count", r.count},
                     {"gpu_ms",
                      {{"cull", r.gpu.cullMs},
                       {"sample", r.gpu.sampleMs},
                       {"pose", r.gpu.poseMs},
                       {"skin", r.gpu.skinMs},
                       {"draw", r.gpu.drawMs},
                       {"total", r.gpu.totalMs()}}},
                     {"gpu_ms_spread", {{"min", r.spread().min}, {"median", r.spread().median}, {"max", r.spread().max}}},
                     {"repeats_ms", repeatsMs},
                     {"cpu_ms", r.cpuMs},
                     {"visible", r.counts.visible},
                     {"triangles", r.counts.triangles},
                     {"skinned_vertices", r.counts.skinnedVertices},
                     {"own_poses", r.counts.ownPoses},
                     {"shared_poses", r.counts.sharedPoses},
                     {"dropped", r.counts.dropped},
                     {"ms_per_thousand_skinned_vertices",
                      {{"frame", r.frameMsPerThousand()}, {"skin_and_draw", r.skinDrawMsPerThousand()}}},
                     {"invocations", nullptr}};
    if (r.invocations)
        j["invocations"] = {{"cull", invocationsJson(r.invocations->cull)},
                            {"sample", invocationsJson(r.invocations->sample)},
                            {"pose", invocationsJson(r.invocations->pose)},
                            {"skin", invocationsJson(r.invocations->skin)},
                            {"draw", invocationsJson(r.invocations->draw)}};
    return j;
}

} // namespace

nlohmann::json Profile::json() const {
    nlohmann::json runsJson = nlohmann::json::array(), winners = nlohmann::json::array(),
                   undecidedJson = nlohmann::json::array();
    for (const ProfileRun& r : runs)
        runsJson.push_back(runJson(r));
    for (uint32_t count : counts)
        if (const ProfileRun* w = winner(count))
            winners.push_back({{"count", count}, {"name", w->name()}, {"gpu_ms", w->gpu.totalMs()}});
        else if (const std::vector<const ProfileRun*> close = undecided(count); !close.empty()) {
            nlohmann::json names = nlohmann::json::array();
            for (const ProfileRun* r : close)
                names.push_back(r->name());
            undecidedJson.push_back({{"count", count}, {"names", names}});
        }
    return {{"device", device}, {"driver", driver},   {"command", command},   {"models", models},
            {"width", width},   {"height", height},   {"frames", frames},     {"repeats", repeats},
            {"counts", counts}, {"runs", runsJson},   {"winners", winners},   {"undecided", undecidedJson},
            {"notes", notes}};
}

Status writeProfile(const Profile& profile, const std::filesystem::path& dir) {
    return writeReportFolder(dir, profilePage(profile), "profile.json", profile.json(), 1);
}

} // namespace horde
