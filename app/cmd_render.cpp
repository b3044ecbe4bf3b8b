// horde render MODEL [--clip NAME] [--time T] --out x.png: one headless frame, framed on the pose.
#include <cstdio>

#include "anim/reference.h"
#include "commands.h"
#include "core/png.h"
#include "crowd/layout.h"
#include "crowd/view.h"
#include "crowd_options.h"
#include "gpu_session.h"
#include "render/headless.h"

namespace horde {

namespace {
struct RenderArgs {
    ModelInput input;
    DeviceChoice device;
    std::string clip, out;
    double time = 0.0;
    uint32_t width = 1024, height = 768;
    PictureSettings picture;
    SkinOptions skin;
};

Bounds posedBounds(const Model& model, const Playback& playback, double time, const SkinOptions& skin) {
    Bounds b{glm::vec3(1e30f), glm::vec3(-1e30f)};
    for (const PosedMesh& mesh : poseModel(model, playback, time, skin))
        for (glm::dvec3 p : mesh.positions) {
            b.min = glm::min(b.min, glm::vec3(p));
            b.max = glm::max(b.max, glm::vec3(p));
        }
    return b.min.x <= b.max.x ? b : Bounds{};
}

int run(RenderArgs& a) {
    GpuSession session;
    if (int code = GpuSession::open(a.device, a.input, session); code != kExitOk) return session.finish(code);
    Model& model = *session.model;
    int clip = pickClip(model, a.clip, !a.input.anims.empty());
    if (!a.clip.empty() && clip < 0) {
        std::fprintf(stderr, "horde: %s has no clip named '%s'\n", a.input.model.c_str(), a.clip.c_str());
        return session.finish(kExitBadInput);
    }
    Playback playback{clip, 0.0, 1.0, true};
    {
        CrowdModel crowdModel(*session.device, model, {.crowd = false});
        std::vector<gpu::InstanceRecord> instances = crowdLayout(crowdModel.asset(), 1);
        instances[0].clip = clip < 0 ? HORDE_NONE : uint32_t(clip);
        const CrowdModel* models[] = {&crowdModel};
        CrowdSettings settings = singleInstanceSettings();
        settings.skin = a.skin;
        CrowdScene scene(*session.device, models, {instances}, settings,
                         {kFramesInFlight, kOffscreenColorFormat, samplesOn(*session.device, a.picture.msaa)});
        for (const std::string& w : warningsOf(model, a.input.verbose))
            std::fprintf(stderr, "horde: warning: %s\n", w.c_str());
        for (const std::string& w : scene.materials().warnings())
            std::fprintf(stderr, "horde: warning: %s\n", w.c_str());
        float aspect = float(a.width) / float(a.height);
        Bounds world = toWorld(posedBounds(model, playback, a.time, settings.skin), axesToWorld(model.axes));
        OrbitCamera camera = aroundFramed(frameBounds(world, aspect), a.picture);
        HeadlessOptions options;
        options.width = a.width;
        options.height = a.height;
        options.startTime = float(a.time);
        HeadlessResult result = renderHeadless(*session.device, scene,
                                               orbitView(camera, aspect, world.radius(), a.height), options);
        if (Status st = writePng(a.out, result.image.width, result.image.height, result.image.rgba); !st) {
            std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
            return session.finish(kExitBadInput);
        }
        std::printf("wrote %s (%ux%u)  %s\n", a.out.c_str(), a.width, a.height,
                    result.stats.summary().c_str());
    }
    return session.finish(kExitOk);
}
} // namespace

Command addRenderCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand("render", "render one model headless to a PNG");
    auto args = std::make_shared<RenderArgs>();
    addModelOptions(*cmd, args->input);
    addVerboseOption(*cmd, args->input);
    args->device.addOptions(*cmd);
    addClipOptions(*cmd, args->clip, args->time);
    cmd->add_option("--out", args->out, "PNG to write")->required();
    cmd->add_option("--width", args->width, "image width")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--height", args->height, "image height")->check(CLI::Range(16u, 8192u));
    addPictureOptions(*cmd, args->picture);
    addSkinOptions(*cmd, args->skin);
    return {cmd, [args] { return run(*args); }};
}

} // namespace horde
