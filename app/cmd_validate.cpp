// horde validate A B: are two files the same creature? Structure, CPU reference poses in a common
// metre frame, and headless renders from the source's camera; a report folder and an exit code.
#include <cmath>
#include <cstdio>
#include <optional>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "commands.h"
#include "gpu_session.h"
#include "render/headless.h"
#include "render/view.h"
#include "validate_report.h"
#include "validate_textures.h"

namespace horde {

namespace {
constexpr int kExitMismatch = 4;

struct ValidateArgs {
    ModelInput a;
    std::string b;
    DeviceChoice device;
    std::string clip, report;
    std::vector<double> times;
    double maxPositionError = 1e-4, maxDifferingPixels = 0.5;
    int pixelTolerance = 24;
    uint32_t width = 640, height = 480;
};

// The bind pose, then each clip of A (or the one asked for) at the given times or at fixed
// fractions of its duration, one of them between the monster's keys.
Result<std::vector<PoseSpec>> poses(const Model& a, const Model& b, const ValidateArgs& args,
                                    std::vector<Check>& checks) {
    std::vector<PoseSpec> out{{"bind pose", -1, -1, 0.0}};
    std::vector<int> clips;
    if (!args.clip.empty()) {
        int c = findClip(a, args.clip);
        if (c < 0) return Error{args.a.model + " has no clip named '" + args.clip + "'"};
        clips.push_back(c);
    } else {
        for (size_t c = 0; c < a.clips.size(); ++c)
            clips.push_back(int(c));
    }
    Check clipCheck{"clips", true, std::to_string(clips.size()) + " clips found in both"};
    for (int c : clips) {
        const Clip& clip = a.clips[c];
        int other = findClip(b, clip.name);
        if (other < 0) {
            clipCheck.passed = false;
            clipCheck.detail = "clip '" + clip.name + "' missing from " + args.b;
            continue;
        }
        std::vector<double> times = args.times;
        if (times.empty())
            for (double f : {0.0, 0.25, 0.37, 0.5, 0.75})
                times.push_back(f * clip.duration);
        for (double t : times) {
            char label[256];
            std::snprintf(label, sizeof label, "%s @ %.4g s", clip.name.c_str(), t);
            out.push_back({label, c, other, t});
        }
    }
    checks.push_back(clipCheck);
    return out;
}

struct Renderer {
    Device& device;
    uint32_t width, height;

    Image8 render(Model& model, int clip, double time, const glm::mat4& viewProjection) {
        std::vector<gpu::InstanceRecord> instances = gridInstances(model, 1);
        instances[0].clip = clip < 0 ? HORDE_NONE : uint32_t(clip);
        uploadMeshes(device, model);
        CrowdModel crowdModel(device, model, {.crowd = false});
        const CrowdModel* models[] = {&crowdModel};
        CrowdScene scene(device, models, {instances}, singleInstanceSettings(kFramesInFlight));
        HeadlessOptions options;
        options.width = width;
        options.height = height;
        options.startTime = float(time);
        // The renderer draws in the file's units: scaling them to metres puts both models in one frame.
        glm::mat4 toMetres = glm::scale(glm::mat4(1.0f), glm::vec3(model.axes.metresPerUnit));
        return renderHeadless(device, scene, ViewCamera{viewProjection * toMetres}, options).image;
    }
};

void print(const ValidateReport& r) {
    for (const Check& c : r.checks)
        std::printf("%-14s %s  %s\n", c.name.c_str(), c.passed ? "pass" : "FAIL", c.detail.c_str());
    for (const PoseResult& p : r.poses) {
        if (p.error.comparable)
            std::printf("%-24s %s  position max %.3g rms %.3g  pixels %.3g%%\n", p.pose.label.c_str(),
                        p.passed ? "pass" : "FAIL", p.error.maxRelative, p.error.rmsRelative,
                        p.diff.differingPercent);
        else
            std::printf("%-24s %s  positions not comparable  pixels %.3g%%\n", p.pose.label.c_str(),
                        p.passed ? "pass" : "FAIL", p.diff.differingPercent);
    }
    std::printf("%s\n", r.passed ? "PASS" : "FAIL");
}

int run(ValidateArgs& args) {
    GpuSession session;
    if (int code = GpuSession::open(args.device, args.a, session); code != kExitOk)
        return session.finish(code);
    Model& a = *session.model;
    std::optional<Model> loadedB;
    {
        GpuMeshAllocator allocator(*session.device);
        ModelInput inputB;
        inputB.model = args.b;
        Result<Model> b = inputB.load(allocator);
        if (!b) {
            std::fprintf(stderr, "horde: %s\n", b.error().message.c_str());
            return session.finish(kExitBadInput);
        }
        loadedB.emplace(std::move(*b));
    }
    Model& b = *loadedB;
    ValidateReport report;
    report.a = args.a.model;
    report.b = args.b;
    report.maxPositionError = args.maxPositionError;
    report.maxDifferingPixels = args.maxDifferingPixels;
    report.pixelTolerance = args.pixelTolerance;
    report.checks = compareStructure(a, b);
    report.checks.push_back(compareTextures(a, b));
    Result<std::vector<PoseSpec>> specs = poses(a, b, args, report.checks);
    if (!specs) {
        std::fprintf(stderr, "horde: %s\n", specs.error().message.c_str());
        loadedB.reset();
        return session.finish(kExitBadInput);
    }
    double radius = metresRadius(a);
    float aspect = float(args.width) / float(args.height);
    Renderer renderer{*session.device, args.width, args.height};
    for (const PoseSpec& spec : *specs) {
        PoseResult r;
        r.pose = spec;
        r.error = comparePose(a, b, spec, radius);
        Bounds world = metresBounds(a, spec, true);
        OrbitCamera camera = frameBounds(world, aspect);
        glm::mat4 viewProjection = camera.viewProjection(aspect, world.radius());
        r.renderA = renderer.render(a, spec.clipA, spec.time, viewProjection);
        r.renderB = renderer.render(b, spec.clipB, spec.time, viewProjection);
        r.diff = diffImages(r.renderA, r.renderB, args.pixelTolerance);
        r.passed = r.error.comparable && r.error.maxRelative <= args.maxPositionError &&
                   std::isfinite(r.error.rmsRelative) && r.diff.differingPercent <= args.maxDifferingPixels;
        report.poses.push_back(std::move(r));
    }
    report.passed = true;
    for (const Check& c : report.checks)
        report.passed = report.passed && c.passed;
    for (const PoseResult& p : report.poses)
        report.passed = report.passed && p.passed;
    print(report);
    loadedB.reset();
    if (!args.report.empty()) {
        if (Status st = writeReport(report, args.report); !st) {
            std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
            return session.finish(kExitBadInput);
        }
        std::printf("wrote %s/index.html\n", args.report.c_str());
    }
    return session.finish(report.passed ? kExitOk : kExitMismatch);
}
} // namespace

Command addValidateCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand(
        "validate",
        "horde validate A B: check that B (`other`) is the same creature as A (`model`, a source completed "
        "by --skeleton/--anim; give B right after A): hierarchy, joints, vertex counts, poses and renders.\n"
        "Exit codes: 0 pass, 4 fail (differences past the thresholds), 2 bad input, 3 device trouble.");
    auto args = std::make_shared<ValidateArgs>();
    args->a.addOptions(*cmd); // A with its --skeleton / --anim files
    cmd->add_option("other", args->b, "the file to compare with A (usually a self-contained .glb)")
        ->required();
    args->device.addOptions(*cmd);
    cmd->add_option("--clip", args->clip, "compare only this clip (default: every clip of A)");
    cmd->add_option("--times", args->times,
                    "seconds into each clip, comma separated (default: 0, .25, .37, .5, .75 of its duration)")
        ->delimiter(',');
    cmd->add_option("--report", args->report, "folder to write index.html, report.json and the renders into");
    cmd->add_option("--max-position-error", args->maxPositionError,
                    "largest vertex distance allowed, as a fraction of A's bounding radius (default 1e-4)");
    cmd->add_option("--max-differing-pixels", args->maxDifferingPixels,
                    "largest share of differing pixels allowed, percent (default 0.5)");
    cmd->add_option("--pixel-tolerance", args->pixelTolerance,
                    "a pixel differs when a channel differs by more than this (0-255, default 24)")
        ->check(CLI::Range(0, 255));
    cmd->add_option("--width", args->width, "render width")->check(CLI::Range(16u, 8192u));
    cmd->add_option("--height", args->height, "render height")->check(CLI::Range(16u, 8192u));
    return {cmd, [args] { return run(*args); }};
}

} // namespace horde
