#include "profile.h"

#include <algorithm>

#include "profile_page.h"
#include "report_folder.h"

namespace horde {

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

const ProfileRun* Profile::winner(uint32_t count) const {
    const ProfileRun* best = nullptr;
    for (const ProfileRun& run : runs)
        if (run.count == count && (!best || run.gpu.totalMs() < best->gpu.totalMs())) best = &run;
    return best;
}

namespace {

nlohmann::json invocationsJson(const Invocations& i) {
    return {{"vertex", i.vertex}, {"fragment", i.fragment}, {"compute", i.compute}};
}

nlohmann::json runJson(const ProfileRun& r) {
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
    nlohmann::json runsJson = nlohmann::json::array(), winners = nlohmann::json::array();
    for (const ProfileRun& r : runs)
        runsJson.push_back(runJson(r));
    for (uint32_t count : counts)
        if (const ProfileRun* w = winner(count))
            winners.push_back({{"count", count}, {"name", w->name()}, {"gpu_ms", w->gpu.totalMs()}});
    return {{"device", device}, {"driver", driver},   {"command", command}, {"models", models},
            {"width", width},   {"height", height},   {"frames", frames},   {"counts", counts},
            {"runs", runsJson}, {"winners", winners}, {"notes", notes}};
}

Status writeProfile(const Profile& profile, const std::filesystem::path& dir) {
    return writeReportFolder(dir, profilePage(profile), "profile.json", profile.json(), 1);
}

} // namespace horde
