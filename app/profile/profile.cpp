#include "profile.h"

#include <algorithm>
#include <fstream>

#include "profile_page.h"

namespace horde {

std::string ProfileRun::name() const {
    std::string skinning = skinName(skin);
    std::replace(skinning.begin(), skinning.end(), '/', '-');
    return std::string(vertexTechnique ? "vertex-" : "compute-") + skinning;
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
                     {"technique", r.vertexTechnique ? "vertex" : "compute"},
                     {"skinning", skinningName(r.skin.skinning)},
                     {"precision", precisionName(r.skin.precision)},
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
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return Error{dir.string() + ": cannot make the folder: " + ec.message()};
    std::ofstream json(dir / "profile.json"), page(dir / "index.html");
    json << profile.json().dump(1) << "\n";
    page << profilePage(profile);
    if (!json || !page) return Error{dir.string() + ": cannot write the profile"};
    return Ok{};
}

} // namespace horde
