// horde validate A B: are two files the same creature? Structure, CPU reference poses in a common
// metre frame, and headless renders from the source's camera; a report folder and an exit code.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>

#include <glm/gtc/matrix_transform.hpp>

#include "anim/reference.h"
#include "cmd_validate.h"
#include "cmd_validate_renders.h"
#include "commands.h"
#include "crowd/view.h"
#include "folder_commands.h"
#include "render/headless.h"
#include "texture/texture.h"
#include "validate_clips.h"
#include "validate_materials.h"
#include "validate_pieces.h"
#include "validate_raster.h"
#include "validate_report.h"
#include "validate_textures.h"
#include "vk/gpu_mesh.h"
#include "vk/gpu_texture.h"

namespace horde {

namespace {
constexpr int kExitMismatch = 4;

std::string percent(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.3g%%", v);
    return buffer;
}

// The bind pose, then each clip of A (or the one asked for) matched in B, at the given times or
// at fixed fractions of its duration, one of them between the monster's keys.
Result<std::vector<PoseSpec>> poses(const Model& a, const Model& b, const ValidateArgs& args,
                                    std::vector<Check>& checks) {
    std::vector<PoseSpec> out{{"bind pose", -1, -1, 0.0}};
    if (!args.clip.empty() && findClip(a, args.clip) < 0)
        return Error{args.a.model + " has no clip named '" + args.clip + "'"};
    ClipMatch clips = matchClips(a, b, args.clip, args.b);
    size_t keyless = 0;
    for (auto [c, other] : clips.pairs) {
        const Clip& clip = a.clips[c];
        const Clip& clipB = b.clips[size_t(other)];
        // Two clips that key nothing pose as the bind pose at every time: compared there already.
        if (clip.channels.empty() && clip.morphs.empty() && clipB.channels.empty() && clipB.morphs.empty()) {
            ++keyless;
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
    if (keyless)
        clips.check.detail += "; " + std::to_string(keyless) + " clip" + (keyless == 1 ? "" : "s") +
                              " keying nothing on both sides, compared as the bind pose";
    clips.check.compared = !clips.pairs.empty(); // no clip on either side (or none in common): nothing
    checks.push_back(clips.check);
    checks.push_back(compareMorphWeights(a, b, clips.pairs));
    choosePictured(out, args.pictures);
    return out;
}

// Whether some material of `model` has a base texture that was found and read.
bool drawsTextures(const Model& model) {
    for (const Material& m : model.materials)
        if (const TextureRef* base = m.find(TextureSlot::Base); base && base->texture) return true;
    return false;
}

// How far apart the poses' instances stand (PoseRenders), in metres: past what any pose reaches
// from its placement, the eye's distance from it and the far plane beyond, on either side, twice.
double poseSpacing(std::span<const Bounds> poses, float aspect) {
    double reach = 0.0;
    for (const Bounds& world : poses) {
        const OrbitCamera camera = frameBounds(world, aspect);
        const double centre = glm::length(glm::dvec3(world.min + world.max) * 0.5);
        reach = std::max(reach, centre + double(world.radius()) * 3.0 + double(camera.distance));
    }
    return 2.0 * reach + 1.0;
}

const char* said(Verdict v) {
    return v == Verdict::Pass ? "pass" : v == Verdict::Fail ? "FAIL" : "nothing compared";
}

void print(const ValidateReport& r) {
    for (const Check& c : r.checks)
        std::printf("%-14s %s  %s\n", c.name.c_str(), said(c.verdict()), c.detail.c_str());
    for (const AttributeFigure& f : r.attributes.figures)
        std::printf("%-14s %s  max %.3g rms %.3g%s%s (tolerance %.3g) over %zu vertex pairs%s%s\n",
                    f.name.c_str(), said(f.verdict()), f.max, f.rms, f.unit.empty() ? "" : " ",
                    f.unit.c_str(), f.tolerance, f.pairs, f.detail.empty() ? "" : "; ", f.detail.c_str());
    for (const PoseResult& p : r.poses) {
        std::string pixels = "pixels " + percent(p.diff.differingPercent);
        for (const ViewResult& v : p.views)
            pixels += std::string(", ") + viewName(v.view) + " " + percent(v.diff.differingPercent);
        if (!p.pose.pictured) pixels = "not pictured";
        if (p.error.comparable)
            std::printf("%-24s %s  position max %.3g rms %.3g  %s\n", p.pose.label.c_str(), said(p.verdict()),
                        p.error.maxRelative, p.error.rmsRelative, pixels.c_str());
        else
            std::printf("%-24s %s  positions not comparable  %s\n", p.pose.label.c_str(), said(p.verdict()),
                        pixels.c_str());
    }
    std::printf("%s\n", r.verdict() == Verdict::Pass   ? "PASS"
                        : r.verdict() == Verdict::Fail ? "FAIL"
                                                       : "NOTHING COMPARED (no vertex pair): not a pass");
}

void dropPictures(PoseResult& pose) {
    pose.renderA = {};
    pose.renderB = {};
    pose.diff.image = {};
    for (ViewResult& view : pose.views) view.renderA = {}, view.renderB = {}, view.diff.image = {};
}

// Every pose's positions on the CPU reference; for each pictured one, the shaded renders
// (released before the models are) and the attribute views drawn on the CPU, the pictures the
// report shows written to it as the pose is compared, and none kept.
Status comparePoses(Device& device, Model& a, Model& b, const std::vector<PoseSpec>& specs,
                    const ValidateArgs& args, double radius, ValidateReport& report) {
    float aspect = float(args.width) / float(args.height);
    // Textured renders only when both sides have textures: a conversion that dropped them is
    // reported by the texture check, not again by every render.
    const bool textures = drawsTextures(a) && drawsTextures(b);
    std::vector<PoseInstance> posesA, posesB;
    std::vector<Bounds> bounds; // every pictured pose of either side, in metres; A's first
    for (const PoseSpec& spec : specs)
        if (spec.pictured) {
            posesA.push_back({spec.clipA, spec.time});
            posesB.push_back({spec.clipB, spec.time});
            bounds.push_back(posedBounds(metresPose(a, spec.clipA, spec.time)));
        }
    for (const PoseSpec& spec : specs)
        if (spec.pictured) bounds.push_back(posedBounds(metresPose(b, spec.clipB, spec.time)));
    const double spacing = poseSpacing(bounds, aspect);
    PoseRenders rendersA(device, a, posesA, spacing, textures, args.width, args.height);
    PoseRenders rendersB(device, b, posesB, spacing, textures, args.width, args.height);
    size_t pictured = 0; // of the poses before `i`
    for (size_t i = 0; i < specs.size(); ++i) {
        const PoseSpec& spec = specs[i];
        PoseResult r;
        r.pose = spec;
        r.compared = report.attributes.pairs() > 0;
        const std::vector<PosedMesh> posedA = metresPose(a, spec.clipA, spec.time),
                                     posedB = metresPose(b, spec.clipB, spec.time);
        r.error = comparePose(posedA, posedB, radius, report.attributes.matches);
        r.passed = r.error.comparable && r.error.maxRelative <= args.maxPositionError &&
                   std::isfinite(r.error.rmsRelative);
        if (!spec.pictured) {
            report.poses.push_back(std::move(r));
            continue;
        }
        const Bounds& world = bounds[pictured]; // the source's pose: the camera frames it for both
        OrbitCamera camera = frameBounds(world, aspect);
        glm::mat4 viewProjection = camera.viewProjection(aspect, world.radius());
        r.renderA = rendersA.render(pictured, viewProjection);
        r.renderB = rendersB.render(pictured, viewProjection);
        ++pictured;
        r.diff = diffImages(r.renderA, r.renderB, args.pixelTolerance);
        r.passed = r.passed && r.diff.differingPercent <= args.maxDifferingPixels;
        for (AttributeView view : {AttributeView::UvChecker, AttributeView::Normals}) {
            ViewResult v{view,
                         rasterize(a, posedA, viewProjection, args.width, args.height, view),
                         rasterize(b, posedB, viewProjection, args.width, args.height, view),
                         {}};
            v.diff = diffImages(v.renderA, v.renderB, args.pixelTolerance);
            r.passed = r.passed && v.diff.differingPercent <= args.maxDifferingPixels;
            r.views.push_back(std::move(v));
        }
        // Held as pictures, an NWN creature's hundreds of poses took gigabytes.
        PoseResult& done = report.poses.emplace_back(std::move(r));
        if (!args.report.empty() && report.imagesOf(i))
            if (Status st = writePoseImages(done, i, args.report); !st) return st;
        dropPictures(done);
    }
    return Ok{};
}

} // namespace

int validateOn(Device& device, const ValidateArgs& args) {
    GpuTextureAllocator textureAllocator(device);
    TextureLibrary textures(textureAllocator); // each file read once for both sides
    GpuMeshAllocator allocator(device);
    Result<Model> loadedA = args.a.load(allocator, &textures);
    if (!loadedA) {
        std::fprintf(stderr, "horde: %s\n", loadedA.error().message.c_str());
        return kExitBadInput;
    }
    ModelInput inputB;
    inputB.model = args.b;
    inputB.skeleton = args.bSkeleton;
    inputB.anims = args.bAnims;
    Result<Model> loadedB = inputB.load(allocator, &textures);
    if (!loadedB) {
        std::fprintf(stderr, "horde: %s\n", loadedB.error().message.c_str());
        return kExitBadInput;
    }
    Model &a = *loadedA, &b = *loadedB;
    mergePieces(a, b, allocator);
    ValidateReport report;
    report.a = args.a.model;
    report.b = args.b;
    report.maxPositionError = args.maxPositionError;
    report.maxDifferingPixels = args.maxDifferingPixels;
    report.pixelTolerance = args.pixelTolerance;
    report.tolerances = args.tolerances;
    report.passingPoseImages = args.reportImages != "failures";
    report.checks = compareStructure(a, b, report.a, report.b);
    double radius = metresRadius(a);
    report.attributes = compareAttributes(a, b, args.tolerances, args.maxPositionError * radius);
    report.checks.push_back(report.attributes.matching);
    report.checks.push_back(report.attributes.materials);
    report.checks.push_back(compareTextures(a, b, report.attributes.materialToB));
    Result<std::vector<PoseSpec>> specs = poses(a, b, args, report.checks);
    if (!specs) {
        std::fprintf(stderr, "horde: %s\n", specs.error().message.c_str());
        return kExitBadInput;
    }
    // Each material drawn under A's name on both sides: an untextured material's palette colour
    // comes from its name, and a rename (an unnamed NWN material written as glTF's `material0`)
    // is no change of colour. The checks above have read B's own names.
    nameMaterialsAsA(a, b, report.attributes.materialToB);
    drawRepairedNormals(a, b, report.attributes.matches);
    if (Status st = comparePoses(device, a, b, *specs, args, radius, report); !st) {
        std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
        return kExitBadInput;
    }
    report.passed = report.attributes.passed();
    for (const Check& c : report.checks)
        report.passed = report.passed && c.passed;
    for (const PoseResult& p : report.poses)
        report.passed = report.passed && p.passed;
    print(report);
    if (!args.report.empty()) {
        if (Status st = writeReport(report, args.report); !st) {
            std::fprintf(stderr, "horde: %s\n", st.error().message.c_str());
            return kExitBadInput;
        }
        std::printf("wrote %s/index.html\n", args.report.c_str());
    }
    return report.verdict() == Verdict::Pass ? kExitOk : kExitMismatch;
}

std::unique_ptr<Device> openDevice(const DeviceChoice& choice) {
    DeviceOptions options;
    options.validation = choice.validation;
    options.device = choice.device;
    return std::make_unique<Device>(options);
}

int withValidation(const Device& device, const MessageCounts& before, int code) {
    if (!device.validation()) return code;
    const MessageCounts now = *device.messageLog();
    const uint32_t errors = now.error - before.error, warnings = now.warning - before.warning;
    if (errors + warnings == 0) return code;
    std::fprintf(stderr, "horde: validation reported %u errors and %u warnings\n", errors, warnings);
    return code == kExitOk ? int(kExitDevice) : code;
}

namespace {
int run(const ValidateArgs& args) {
    std::unique_ptr<Device> device = openDevice(args.device);
    const MessageCounts before = *device->messageLog();
    return withValidation(*device, before, validateOn(*device, args));
}

// What each model of a folder is validated with: the options given here, as the per-model
// command takes them (the folder decides its skeletons and animations).
std::vector<std::string> perModelOptions(const ValidateArgs& a) {
    auto text = [](double v) {
        char buffer[32];
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
        return std::string(buffer);
    };
    std::vector<std::string> out{a.device.validation ? "--validation" : "--no-validation",
                                 "--max-position-error", text(a.maxPositionError),
                                 "--max-differing-pixels", text(a.maxDifferingPixels),
                                 "--pixel-tolerance", std::to_string(a.pixelTolerance),
                                 "--width", std::to_string(a.width), "--height", std::to_string(a.height),
                                 "--max-uv-error", text(a.tolerances.uv),
                                 "--max-normal-angle", text(a.tolerances.normalDegrees),
                                 "--max-tangent-angle", text(a.tolerances.tangentDegrees),
                                 "--max-color-error", text(a.tolerances.color),
                                 "--max-weight-error", text(a.tolerances.weight)};
    out.insert(out.end(), {"--report-images", a.reportImages.empty() ? "failures" : a.reportImages});
    if (!a.device.device.empty()) out.insert(out.end(), {"--device", a.device.device});
    if (!a.clip.empty()) out.insert(out.end(), {"--clip", a.clip});
    out.insert(out.end(), {"--pictures", a.pictures == SIZE_MAX ? "all" : std::to_string(a.pictures)});
    if (!a.times.empty()) {
        std::string times;
        for (double t : a.times) times += (times.empty() ? "" : ",") + text(t);
        out.insert(out.end(), {"--times", times});
    }
    return out;
}
} // namespace

void addValidateOptions(CLI::App& cmd, ValidateArgs& args, ValidateFolderArgs& folder) {
    addModelOptions(cmd, args.a); // A with its --skeleton / --anim files
    cmd.add_option("other", args.b, "the file to compare with A (usually a self-contained .glb)")->required();
    cmd.add_option("--other-skeleton", args.bSkeleton,
                   "B's skeleton file, where B's format keeps it apart (EMI .sklb, SWTOR skeleton .gr2)");
    cmd.add_option(
        "--other-anim", args.bAnims,
        "B's animation files, where B's format keeps them apart (Grimrock .animation, EMI .animb)");
    args.device.addOptions(cmd);
    cmd.add_option("--clip", args.clip, "compare only this clip (default: every clip of A)");
    cmd.add_option(
           "--times", args.times,
           "seconds into each clip, comma separated (default: 0, .25, .37, .5, .75 of its duration); the end "
           "is inclusive (a clip's duration gives its last key), a loop wraps only past it")
        ->delimiter(',');
    cmd.add_option("--report", args.report, "folder to write index.html, report.json and the renders into");
    cmd.add_option(
           "--report-images", args.reportImages,
           "which poses' pictures the report holds: all, or failures (the bind pose and each pose that "
           "failed); default all for one model, failures for each model of a folder")
        ->check(CLI::IsMember({"all", "failures"}));
    cmd.add_option_function<std::string>(
           "--pictures",
           [&args](const std::string& text) { args.pictures = text == "all" ? SIZE_MAX : std::stoul(text); },
           "how many poses are drawn and compared as pictures: the bind pose and the rest spread evenly "
           "over the clips' poses, or all (default 8); every pose's positions are compared whatever this is")
        ->check([](const std::string& text) -> std::string {
            const bool digits = !text.empty() && text.size() < 10 &&
                                text.find_first_not_of("0123456789") == std::string::npos;
            return text == "all" || (digits && std::stoul(text) >= 1) ? "" : "--pictures takes all or a count >= 1";
        });
    cmd.add_option("--max-position-error", args.maxPositionError,
                   "largest vertex distance allowed, as a fraction of A's bounding radius (default 1e-4)");
    cmd.add_option("--max-differing-pixels", args.maxDifferingPixels,
                   "largest share of differing pixels allowed, percent (default 0.5)");
    cmd.add_option("--max-uv-error", args.tolerances.uv,
                   "largest difference of a texture coordinate, per UV set, in UV units (default 1e-3)");
    cmd.add_option("--max-normal-angle", args.tolerances.normalDegrees,
                   "largest angle between normals, degrees (default 1)");
    cmd.add_option("--max-tangent-angle", args.tolerances.tangentDegrees,
                   "largest angle between tangents, degrees (default 1); handedness signs must agree");
    cmd.add_option("--max-color-error", args.tolerances.color,
                   "largest difference of a vertex colour channel, 0-1 (default 4e-3)");
    cmd.add_option("--max-weight-error", args.tolerances.weight,
                   "largest difference of one joint's skin weight (default 5e-3)");
    cmd.add_option("--pixel-tolerance", args.pixelTolerance,
                   "a pixel differs when a channel differs by more than this (0-255, default 24)")
        ->check(CLI::Range(0, 255));
    cmd.add_option("--width", args.width, "render width")->check(CLI::Range(16u, 8192u));
    cmd.add_option("--height", args.height, "render height")->check(CLI::Range(16u, 8192u));
    addFolderJobOptions(cmd, folder.jobs);
    cmd.add_option("--merge", folder.merge,
                   "join the folder reports of these shard runs into --report (A and B as in the shard runs)")
        ->expected(1, -1);
}

Command addValidateCommand(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand(
        "validate",
        "horde validate A B: check that B (`other`) is the same creature as A (`model`, a source completed "
        "by --skeleton/--anim; give B right after A): hierarchy, joints, vertex counts, clips (by name, then "
        "by order), every vertex attribute both carry (UV sets, normals, "
        "tangents, colours, skin weights, per-triangle materials; vertices matched by order or, where counts "
        "differ, "
        "by position), "
        "poses and renders (shaded, UV checker, normals as colours).\n"
        "Given a source folder and the folder `convert` wrote from it: every model, each with its pairs, and "
        "one "
        "report (index.html, report.json; exit 4 if any model does not pass).\n"
        "Exit codes: 0 pass, 4 fail (differences past the thresholds, or nothing compared: no vertex "
        "pair), 2 bad input, 3 device trouble.");
    auto args = std::make_shared<ValidateArgs>();
    auto folder = std::make_shared<ValidateFolderArgs>();
    addValidateOptions(*cmd, *args, *folder);
    return {cmd, [args, folder] {
                if (!folder->merge.empty() || std::filesystem::is_directory(args->a.model)) {
                    folder->source = args->a;
                    folder->converted = args->b;
                    folder->report = args->report.empty() ? "validate-report" : args->report;
                    folder->passThrough = perModelOptions(*args);
                    return runValidateFolder(*folder);
                }
                return run(*args);
            }};
}

} // namespace horde
