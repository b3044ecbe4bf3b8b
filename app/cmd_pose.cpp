// horde pose MODEL --out FILE.json: one instance evaluated at time T, model-space positions and
// normals per mesh in the file's own axes. GPU passes by default, the CPU reference with --cpu.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>

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
    std::string blend; // "B@u:w": clip B at time u blended over the pose with weight w
};

// --blend's clip, time and weight; the clip is a name until resolved against the model.
struct BlendArg {
    std::string clip;
    double time = 0.0, weight = 0.0;
};

std::optional<BlendArg> parseBlend(const std::string& text) {
    const size_t at = text.rfind('@'), colon = text.rfind(':');
    if (at == std::string::npos || colon == std::string::npos || colon < at || at == 0) return std::nullopt;
    BlendArg b;
    b.clip = text.substr(0, at);
    try {
        size_t used = 0;
        b.time = std::stod(text.substr(at + 1, colon - at - 1), &used);
        if (used != colon - at - 1) return std::nullopt;
        b.weight = std::stod(text.substr(colon + 1), &used);
        if (used != text.size() - colon - 1) return std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (!(b.weight >= 0.0 && b.weight <= 1.0) || !std::isfinite(b.time)) return std::nullopt;
    return b;
}

// The blend's clip in `model`, or an error naming it.
int blendOrError(const Model& model, const PoseArgs& a, std::optional<Blend>& blend) {
    if (a.blend.empty()) return kExitOk;
    const BlendArg arg = *parseBlend(a.blend);
    const int32_t clip = findClip(model, arg.clip);
    if (clip < 0) {
        std::fprintf(stderr, "horde: %s has no clip named '%s' (--blend)\n", a.input.model.c_str(), arg.clip.c_str());
        return kExitBadInput;
    }
    blend = Blend{clip, arg.time, arg.weight};
    return kExitOk;
}

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
    std::optional<Blend> blend;
    if (int code = blendOrError(*model, a, blend)) return code;
    // The blend's clip time as an instance plays it (clipTime at time 0).
    if (blend) blend->time = clipTime(model->clips[size_t(blend->clip)], Playback{blend->clip, blend->time, 1.0, true}, 0.0);
    std::vector<PosedMesh> posed =
        poseModel(*model, Playback{clip, a.time, 1.0, true}, 0.0, a.skin, blend ? &*blend : nullptr);
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
    std::optional<Blend> blend;
    if (int code = blendOrError(model, a, blend)) return session.finish(code);
    nlohmann::json doc{{"meshes", nlohmann::json::array()}};
    {
        CrowdModel crowdModel(*session.device, model, {.crowd = false});
        // At time 0 the clip time is the phase. A blend is the instance's clip fading out under
        // the blended one: its own clip keeps weight 1 - w.
        gpu::InstanceRecord instance{clip < 0 ? HORDE_NONE : uint32_t(clip), float(a.time), 1.0f, 1u, glm::vec4(0),
                                     glm::vec4(1)};
        instance.fromClip = HORDE_NONE;
        if (blend) {
            instance.fromClip = uint32_t(blend->clip);
            instance.fromPhase = float(blend->time);
            instance.fromSpeed = 1.0f;
            instance.fadeLength = 1.0f;
            instance.fadeStart = -float(1.0 - blend->weight);
        }
        const std::vector<gpu::InstanceRecord> instances = {instance};
        const CrowdModel* models[] = {&crowdModel};
        CrowdSettings settings = singleInstanceSettings();
        settings.skin = a.skin;
        CrowdScene scene(*session.device, models, {instances}, settings, {.slots = 1});
        session.device->immediate([&](VkCommandBuffer cmd) { scene.recordAnimation(cmd, 0, 0.0f, ViewCamera{}); });
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
    cmd->add_option("--blend", args->blend,
                    "B@u:w: clip B at time u blended over --clip at --time, w being B's weight (0: --clip's pose "
                    "alone, 1: B's alone); per joint, translation and scale lerped, rotation nlerped on the "
                    "shorter arc, as a crowd's cross-fade blends")
        ->check([](const std::string& text) -> std::string {
            return parseBlend(text) ? "" : "--blend takes CLIP@TIME:WEIGHT with 0 <= WEIGHT <= 1, e.g. walk@0.5:0.25";
        });
    addSkinOptions(*cmd, args->skin);
    cmd->add_option("--out", args->out, "JSON file to write")->required();
    return {cmd, [args] { return args->cpu ? runCpu(*args) : runGpu(*args); }};
}

} // namespace horde
