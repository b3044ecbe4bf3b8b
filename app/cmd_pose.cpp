// horde pose MODEL --out FILE.json: one instance evaluated at time T, model-space positions and
// normals per mesh in the file's own axes. GPU passes by default, the CPU reference with --cpu.
#include <cstdio>
#include <fstream>

#include <nlohmann/json.hpp>

#include "anim/reference.h"
#include "commands.h"
#include "gpu_session.h"
#include "crowd/layout.h"
#include "render/crowd_scene.h"
#include "crowd_options.h"
#include "render/headless.h"

namespace horde {

namespace {
struct PoseArgs {
    ModelInput input;
    DeviceChoice device;
    std::string clip, out;
    double time = 0.0;
    bool cpu = false;
    SkinOptions skin;
};

nlohmann::json meshJson(const std::string& name, const std::vector<glm::dvec3>& positions,
                        const std::vector<glm::dvec3>& normals) {
    nlohmann::json p = nlohmann::json::array(), n = nlohmann::json::array();
    for (glm::dvec3 v : positions) p.push_back({v.x, v.y, v.z});
    for (glm::dvec3 v : normals) n.push_back({v.x, v.y, v.z});
    return {{"name", name}, {"positions", p}, {"normals", n}};
}

int write(const nlohmann::json& doc, const std::string& path) {
    std::ofstream file(path);
    file << doc.dump() << "\n";
    if (!file) {
        std::fprintf(stderr, "horde: %s: cannot write\n", path.c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

int clipOrError(const Model& model, const PoseArgs& a, int& clip) {
    clip = pickClip(model, a.clip, !a.input.anims.empty());
    if (!a.clip.empty() && clip < 0) {
        std::fprintf(stderr, "horde: %s has no clip named '%s'\n", a.input.model.c_str(), a.clip.c_str());
        return kExitBadInput;
    }
    return kExitOk;
}

int runCpu(PoseArgs& a) {
    HeapMeshAllocator allocator;
    Result<Model> model = a.input.load(allocator);
    if (!model) {
        std::fprintf(stderr, "horde: %s\n", model.error().message.c_str());
        return kExitBadInput;
    }
    int clip;
    if (int code = clipOrError(*model, a, clip)) return code;
    std::vector<PosedMesh> posed = poseModel(*model, Playback{clip, 0.0, 1.0, true}, a.time, a.skin);
    nlohmann::json doc{{"meshes", nlohmann::json::array()}};
    for (size_t m = 0; m < posed.size(); ++m)
        doc["meshes"].push_back(meshJson(model->meshes[m].name, posed[m].positions, posed[m].normals));
    return write(doc, a.out);
}

int runGpu(PoseArgs& a) {
    GpuSession session;
    if (int code = GpuSession::open(a.device, a.input, session); code != kExitOk) return session.finish(code);
    Model& model = *session.model;
    int clip;
    if (int code = clipOrError(model, a, clip)) return session.finish(code);
    nlohmann::json doc{{"meshes", nlohmann::json::array()}};
    {
        CrowdModel crowdModel(*session.device, model, {.crowd = false});
        const std::vector<gpu::InstanceRecord> instances = {
            gpu::InstanceRecord{clip < 0 ? HORDE_NONE : uint32_t(clip), 0.0f, 1.0f, 1u, glm::vec4(0), glm::vec4(1)}};
        const CrowdModel* models[] = {&crowdModel};
        CrowdSettings settings = singleInstanceSettings();
        settings.skin = a.skin;
        CrowdScene scene(*session.device, models, {instances}, settings, {.slots = 1});
        session.device->immediate([&](VkCommandBuffer cmd) { scene.recordAnimation(cmd, 0, float(a.time), ViewCamera{}); });
        for (uint32_t m = 0; m < model.meshes.size(); ++m) {
            std::vector<glm::vec3> p = scene.readSkinned(0, 0, m, false), n = scene.readSkinned(0, 0, m, true);
            doc["meshes"].push_back(meshJson(model.meshes[m].name, std::vector<glm::dvec3>(p.begin(), p.end()),
                                             std::vector<glm::dvec3>(n.begin(), n.end())));
        }
    }
    return session.finish(write(doc, a.out));
}
} // namespace

Command addPoseCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand("pose", "evaluate one instance at a time and write its vertices as JSON");
    auto args = std::make_shared<PoseArgs>();
    addModelOptions(*cmd, args->input);
    args->device.addOptions(*cmd);
    addClipOptions(*cmd, args->clip, args->time);
    cmd->add_flag("--cpu", args->cpu, "use the double-precision CPU reference instead of the GPU passes");
    addSkinOptions(*cmd, args->skin);
    cmd->add_option("--out", args->out, "JSON file to write")->required();
    return {cmd, [args] { return args->cpu ? runCpu(*args) : runGpu(*args); }};
}

} // namespace horde
