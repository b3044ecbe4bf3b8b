// Per-frame cost on the current Vulkan device. `frame/` and `frame_vertices/` sweep brute force
// (every instance posed, skinned and drawn in full) over instance and vertex counts for both
// skinning techniques; `crowd/` sweeps the standard monster from 1 to 100,000 instances with
// culling and LOD on and off, from the overview and the street view, so each row has its brute
// force baseline in the same run; `crowd_textures/` draws the skinned monster's crowd with its
// texture sampled and not, the pair whose ratio is what sampling costs; `skin_technique/` draws
// brute force with every skinning (technique, lbs or dqs, fp32 or fp16, 4 or 8 influences) of
// the monster blending up to seven joints, over crowd sizes, and `skin_ratio/` the goals'
// comparisons with both sides drawn in alternation (the ratio per pair of frames, so a shared
// machine's load weighs on both alike); `morph_ratio/` so compares the monster with fifteen
// morph targets to the monster without. `crowd_assets/` is `crowd/` over the user's own models
// (--assets), absent without them. Benchmark time is GPU time (timestamps); CPU record + submit
// time, recording time alone, pass times, what was drawn and throughput are counters.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_context.h"
#include "crowd/view.h"
#include "render/crowd_camera.h"
#include "render/crowd_scene.h"
#include "render/frames.h"
#include "render/headless.h"
#include "vk/check.h"

namespace horde::bench {

namespace {

// Bytes each pass moves per item (reads + writes), for its fraction of copy bandwidth.
constexpr double kSampleBytesPerNode = 48 + 3 * 32 + 2 * 3 * 16 + 48; // rest, channels, keys, local
constexpr double kSkinBytesPerVertex =
    4 + 12 + 12 + 8 + 16 + 12 + 12; // in: order, p, n, joints, weights; out: p, n

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

struct FrameCase {
    Technique technique = Technique::Compute;
    MonsterParams params;
    uint32_t count = 1;
    bool cullAndLod = false;
    bool street = false;
    bool skinned = false; // the monster wearing its generated skin texture
    bool textures = true; // sampled (CrowdSettings::textures)
    SkinOptions skin;
    Behaviour behaviour = loopBehaviour(); // the benchmarks' baseline: one clip each, in place
    bool warmUp = false;                   // one untimed frame first
    VkExtent2D extent{640, 360};           // of the image drawn
    std::vector<const CrowdModel*> models; // the crowd's models; none: the monster as `params` says
};

std::vector<const CrowdModel*> crowdOf(Context& context, const FrameCase& c) {
    if (!c.models.empty()) return c.models;
    return {&context.crowdMonster(c.params, c.skinned)};
}

// One case's crowd ready to draw offscreen, a frame at a time.
struct Rig {
    Device& device;
    std::unique_ptr<CrowdScene> scene;
    Image color, depth;
    RenderTarget target;
    ViewCamera view;
    FrameSlots slots;

    // Throws VulkanError when the crowd does not fit on the device.
    Rig(Context& context, const FrameCase& c)
        : device(*context.device), scene(makeScene(context, c)),
          color(device, c.extent, kOffscreenColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                VK_IMAGE_ASPECT_COLOR_BIT, "bench color"),
          depth(device, c.extent, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                VK_IMAGE_ASPECT_DEPTH_BIT, "bench depth"),
          target{color.get(),    color.view(),   depth.get(), depth.view(),
                 VK_NULL_HANDLE, VK_NULL_HANDLE, c.extent,    VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
          slots(device, 1, kOfflineFenceTimeoutNs) {
        const float aspect = float(c.extent.width) / float(c.extent.height);
        view = orbitView(crowdCamera(*scene, aspect, c.extent.height), aspect, scene->worldBounds().radius(),
                         c.extent.height);
    }

    // One frame recorded, submitted and waited for; `cpuMs` gets record + submit.
    PassTimes frame(float time, double& cpuMs) {
        auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = slots.begin(0);
        scene->recordFrame(cmd, 0, time, target, view);
        slots.submit(0);
        cpuMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        slots.wait(0);
        return scene->passTimes(0).value_or(PassTimes{});
    }

    static std::unique_ptr<CrowdScene> makeScene(Context& context, const FrameCase& c) {
        CrowdSettings settings;
        settings.count = c.count;
        settings.technique = c.technique;
        settings.cull = settings.lod = c.cullAndLod;
        settings.textures = c.textures;
        settings.skin = c.skin;
        settings.layout.kind = Layout::Grid;
        settings.view = c.street ? CrowdView::Street : CrowdView::Overview;
        settings.behaviour = c.behaviour;
        return std::make_unique<CrowdScene>(*context.device, crowdOf(context, c), settings,
                                            SceneOutput{.slots = 1, .colorFormat = kOffscreenColorFormat});
    }
};

void frame(benchmark::State& state, Context& context, const FrameCase& c) {
    // Per instance, over the crowd's models (each draws an equal share of it).
    double vertexStride = 0.0, joints = 0.0, nodes = 0.0;
    const std::vector<const CrowdModel*> models = crowdOf(context, c);
    for (const CrowdModel* m : models) {
        vertexStride += double(m->asset().vertexStride) / double(models.size());
        joints += double(m->asset().tables.joints.size()) / double(models.size());
        nodes += double(m->model().nodes.size()) / double(models.size());
    }
    std::unique_ptr<Rig> rig;
    try {
        rig = std::make_unique<Rig>(context, c);
    } catch (const VulkanError& e) {
        state.SkipWithError((std::string("does not fit on this device: ") + e.what()).c_str());
        return;
    }
    CrowdScene* scene = rig->scene.get();

    // horde's own per-frame CPU work: the same recording with nothing executing. On a device
    // that runs on the CPU (lavapipe) the frame just finished still occupies the cores and has
    // cooled their caches when the next one is recorded, which cpu_ms below includes.
    std::vector<double> record;
    for (int i = 0; i < 16; ++i) {
        auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = rig->slots.begin(0);
        scene->recordFrame(cmd, 0, 0.0f, rig->target, rig->view);
        VK_CHECK(vkEndCommandBuffer(cmd));
        record.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }

    // One frame run untimed where asked: a CPU driver compiles each pipeline's shaders on their
    // first use, which would weigh on a row of few frames.
    if (c.warmUp) {
        try {
            double ignored;
            rig->frame(0.0f, ignored);
        } catch (const VulkanError& e) {
            state.SkipWithError(e.what());
            return;
        }
    }

    std::vector<double> cull, sample, pose, skin, draw, cpu;
    FrameCounts counts;
    std::optional<PassInvocations> invocations;
    float time = 0.0f;
    try {
        for (auto _ : state) {
            double cpuMs = 0.0;
            const PassTimes t = rig->frame(time, cpuMs);
            cpu.push_back(cpuMs);
            counts = scene->counts(0).value_or(FrameCounts{});
            invocations = scene->invocations(0);
            cull.push_back(t.cullMs);
            sample.push_back(t.sampleMs);
            pose.push_back(t.poseMs);
            skin.push_back(t.skinMs);
            draw.push_back(t.drawMs);
            state.SetIterationTime(std::max(t.totalMs(), 1e-6) * 1e-3);
            time += 1.0f / 60.0f;
        }
    } catch (const VulkanError& e) {
        // A frame past the fence timeout (a crowd too slow for this device) ends this row only.
        state.SkipWithError(e.what());
        return;
    }
    const double vertices = double(counts.skinnedVertices);
    const double total = median(cull) + median(sample) + median(pose) + median(skin) + median(draw);
    state.counters["instances"] = c.count;
    state.counters["vertices_per_instance"] = vertexStride;
    state.counters["visible"] = counts.visible;
    state.counters["triangles"] = double(counts.triangles);
    state.counters["skinned_vertices"] = vertices;
    state.counters["own_poses"] = counts.ownPoses;
    state.counters["shared_poses"] = counts.sharedPoses;
    state.counters["shared_blends"] = counts.sharedBlends;
    state.counters["blending"] = counts.behaviour.blending;
    state.counters["transitions"] = counts.behaviour.transitions;
    state.counters["moved"] = counts.behaviour.moved;
    state.counters["dropped"] = counts.dropped;
    for (size_t l = 0; l < counts.perLevel.size(); ++l)
        if (counts.perLevel[l]) state.counters["level" + std::to_string(l)] = counts.perLevel[l];
    state.counters["cull_ms"] = median(cull);
    state.counters["sample_ms"] = median(sample);
    state.counters["pose_ms"] = median(pose);
    state.counters["skin_ms"] = median(skin);
    state.counters["draw_ms"] = median(draw);
    state.counters["cpu_ms"] = median(cpu);
    state.counters["record_ms"] = median(record);
    state.counters["commands"] = scene->lastCommandCount();
    state.counters["skinned_vertices_per_s"] = total > 0 ? vertices / (total * 1e-3) : 0;
    double animate = median(sample) + median(pose);
    state.counters["joints_per_s"] = animate > 0 ? double(counts.ownPoses) * joints / (animate * 1e-3) : 0;
    state.counters["gpu_bytes_per_instance"] = double(scene->slotBytes()) / c.count;
    // What skinning costs per skinned vertex: the skin pass alone, and with the draw that reads
    // what it wrote (or skins, with the vertex technique).
    state.counters["skin_ns_per_vertex"] = vertices > 0 ? median(skin) * 1e6 / vertices : 0;
    state.counters["skin_draw_ns_per_vertex"] =
        vertices > 0 ? (median(skin) + median(draw)) * 1e6 / vertices : 0;
    if (invocations) {
        state.counters["skin_invocations"] = double(invocations->skin.compute);
        state.counters["draw_vertex_invocations"] = double(invocations->draw.vertex);
        state.counters["draw_fragment_invocations"] = double(invocations->draw.fragment);
    }
    if (context.copyBytesPerSecond > 0) {
        double sampleRate = median(sample) > 0 ? double(counts.ownPoses) * nodes * kSampleBytesPerNode /
                                                     (median(sample) * 1e-3)
                                               : 0;
        double skinRate = median(skin) > 0 ? vertices * kSkinBytesPerVertex / (median(skin) * 1e-3) : 0;
        state.counters["sample_of_copy_bw"] = sampleRate / context.copyBytesPerSecond;
        state.counters["skin_of_copy_bw"] =
            c.technique == Technique::Compute ? skinRate / context.copyBytesPerSecond : 0;
    }
}

// What a pair of cases is compared by: the skin pass per skinned vertex, the skin pass and the draw
// that reads its vertices per skinned vertex, or the whole frame.
enum class PairCost { Skin, SkinAndDraw, Frame };

// Two cases drawn in alternation, frame by frame, so that whatever else runs on the machine weighs
// on both alike: `ratio` is the median over the pairs of a's cost over b's.
void paired(benchmark::State& state, Context& context, const FrameCase& a, const FrameCase& b, PairCost kind) {
    std::unique_ptr<Rig> first, second;
    try {
        first = std::make_unique<Rig>(context, a);
        second = std::make_unique<Rig>(context, b);
    } catch (const VulkanError& e) {
        state.SkipWithError((std::string("does not fit on this device: ") + e.what()).c_str());
        return;
    }
    auto cost = [&](Rig& rig, float time) {
        double cpuMs = 0.0;
        const PassTimes t = rig.frame(time, cpuMs);
        if (kind == PairCost::Frame) return std::pair(t.totalMs(), t.totalMs());
        const double vertices = double(rig.scene->counts(0).value_or(FrameCounts{}).skinnedVertices);
        return std::pair((kind == PairCost::Skin ? t.skinMs : t.skinMs + t.drawMs) * 1e6 / std::max(vertices, 1.0),
                         t.totalMs());
    };
    std::vector<double> ratios, costA, costB;
    try {
        cost(*first, 0.0f), cost(*second, 0.0f); // untimed: each pipeline's first use
        float time = 0.0f;
        for (auto _ : state) {
            const auto [ca, ta] = cost(*first, time);
            const auto [cb, tb] = cost(*second, time);
            ratios.push_back(ca / std::max(cb, 1e-9));
            costA.push_back(ca);
            costB.push_back(cb);
            state.SetIterationTime(std::max(ta + tb, 1e-6) * 1e-3);
            time += 1.0f / 60.0f;
        }
    } catch (const VulkanError& e) {
        state.SkipWithError(e.what());
        return;
    }
    state.counters["ratio"] = median(ratios);
    const char* unit = kind == PairCost::Frame ? "ms" : "ns_per_vertex";
    state.counters[std::string("a_") + unit] = median(costA);
    state.counters[std::string("b_") + unit] = median(costB);
    state.counters["instances"] = a.count;
}

// "compute-dqs-fp16-8": one word for a skinning combination in a benchmark's name.
std::string combination(Technique t, const SkinOptions& skin) {
    std::string name = std::string(nameOf(t)) + "-" + skinName(skin);
    std::replace(name.begin(), name.end(), '/', '-');
    return name;
}

void add(Context& context, const std::string& name, const FrameCase& c, int iterations, int repetitions) {
    auto* b = benchmark::RegisterBenchmark(name.c_str(),
                                           [&context, c](benchmark::State& s) { frame(s, context, c); });
    b->UseManualTime()->Unit(benchmark::kMillisecond);
    if (context.quick)
        b->Iterations(2);
    else
        b->Iterations(iterations)->Repetitions(repetitions)->ReportAggregatesOnly(true);
}

} // namespace

void registerFrameBenchmarks(Context& context) {
    const MonsterParams small{4, 8, 2}, standard{}, large{8, 32, 12};
    std::vector<uint32_t> counts = context.quick ? std::vector<uint32_t>{1, 16}
                                                 : std::vector<uint32_t>{1, 16, 64, 256, 1024, 4096, 16384};
    for (Technique technique : {Technique::Compute, Technique::Vertex}) {
        for (uint32_t count : counts)
            add(context,
                std::string("frame/") + std::string(nameOf(technique)) + "/small_monster/" + std::to_string(count),
                {technique, small, count}, count >= 4096 ? 3 : 10, 3);
        // Vertex count sweep at a fixed crowd.
        std::vector<std::pair<const char*, MonsterParams>> sizes = {{"small", small}, {"standard", standard}};
        if (!context.quick) sizes.push_back({"large", large});
        for (auto [label, params] : sizes) {
            uint32_t count = context.quick ? 4 : 256;
            add(context,
                std::string("frame_vertices/") + std::string(nameOf(technique)) + "/" + label + "/" +
                    std::to_string(count),
                {technique, params, count}, 5, 3);
        }
    }
    // The crowd at scale: LOD and culling against brute force, both views, the standard monster.
    std::vector<uint32_t> crowd = context.quick
                                      ? std::vector<uint32_t>{16, 256}
                                      : std::vector<uint32_t>{1, 16, 256, 1024, 4096, 16384, 100000};
    for (bool street : {false, true})
        for (bool cullAndLod : {true, false})
            for (uint32_t count : crowd) {
                std::string view = street ? "street/" : "overview/";
                int iterations = count >= 4096 ? 2 : 5, repetitions = count >= 4096 ? 1 : 3;
                if (cullAndLod) {
                    add(context, "crowd/lod_cull/" + view + std::to_string(count),
                        {Technique::Compute, standard, count, true, street}, iterations, repetitions);
                } else if (count <= 16384) {
                    // From 4,096 on, brute force skins and draws in chunks through one pool (the
                    // full crowd's skinned vertices exceed lavapipe's 2 GiB heap at 16,384); a
                    // frame of 16,384 takes minutes, so one. 100,000 (about six times that) is
                    // left out of the sweep.
                    add(context, "crowd/brute/" + view + std::to_string(count),
                        {Technique::Compute, standard, count, false, street}, count >= 16384 ? 1 : iterations,
                        count >= 16384 ? 1 : repetitions);
                }
            }
    // Every skinning in one run, brute force (every vertex skinned and drawn), 640 x 360, the
    // standard monster blending up to seven joints (so that eight influences read more than four).
    MonsterParams wide;
    wide.influences = 8;
    for (uint32_t count : context.quick ? std::vector<uint32_t>{4} : std::vector<uint32_t>{16, 64, 256})
        for (Technique technique : {Technique::Compute, Technique::Vertex})
            for (Skinning skinning : {Skinning::Lbs, Skinning::Dqs})
                for (Precision precision : {Precision::Fp32, Precision::Fp16})
                    for (uint32_t influences : {4u, 8u}) {
                        FrameCase c{technique, wide, count};
                        c.skin = {skinning, precision, influences};
                        c.warmUp = true;
                        add(context,
                            "skin_technique/" + combination(technique, c.skin) + "/" + std::to_string(count),
                            c, 5, 3);
                    }
    // The goals' comparisons, each pair drawn in alternation (paired): dual quaternions over the
    // linear blend in the skin pass; half precision over single in the skin pass and the draw
    // that reads its vertices, at 640 x 360 and at 64 x 36, where the draw's cost is its
    // vertices rather than its pixels; compute technique, brute force, four influences.
    for (uint32_t count : context.quick ? std::vector<uint32_t>{4} : std::vector<uint32_t>{64, 256}) {
        FrameCase lbs{Technique::Compute, wide, count}, dqs = lbs, half = lbs;
        dqs.skin.skinning = Skinning::Dqs;
        half.skin.precision = Precision::Fp16;
        FrameCase smallLbs = lbs, smallHalf = half;
        smallLbs.extent = smallHalf.extent = VkExtent2D{64, 36};
        const int pairs = context.quick ? 2 : count >= 256 ? 9 : 15;
        for (auto [name, a, b, kind] : {std::tuple{"dqs_over_lbs", dqs, lbs, PairCost::Skin},
                                         std::tuple{"fp16_over_fp32", half, lbs, PairCost::SkinAndDraw},
                                         std::tuple{"fp16_over_fp32_64x36", smallHalf, smallLbs, PairCost::SkinAndDraw},
                                         std::tuple{"fp16_over_fp32_skin", half, lbs, PairCost::Skin}}) {
            auto* bench = benchmark::RegisterBenchmark(
                ("skin_ratio/" + std::string(name) + "/" + std::to_string(count)).c_str(),
                [&context, a = a, b = b, kind = kind](benchmark::State& st) { paired(st, context, a, b, kind); });
            bench->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(pairs);
        }
    }
    // Morph targets: the standard monster with fifteen (a Horse's count), morphed before skinning,
    // over the same monster without, drawn in alternation: the whole frame of a crowd at the
    // defaults (LOD and culling on) from both views, and the skin pass per vertex with every vertex
    // morphed (brute force).
    {
        MonsterParams morphing = standard;
        morphing.morphTargets = 15;
        const uint32_t crowdCount = context.quick ? 256 : 10000, bruteCount = context.quick ? 4 : 256;
        FrameCase overviewA{Technique::Compute, morphing, crowdCount, true}, overviewB = overviewA;
        overviewB.params = standard;
        FrameCase streetA = overviewA, streetB = overviewB;
        streetA.street = streetB.street = true;
        FrameCase skinA{Technique::Compute, morphing, bruteCount}, skinB = skinA;
        skinB.params = standard;
        const int pairs = context.quick ? 2 : 9;
        const std::string crowdSize = std::to_string(crowdCount);
        const std::tuple<std::string, FrameCase, FrameCase, PairCost> cases[] = {
            {"crowd/overview/" + crowdSize, overviewA, overviewB, PairCost::Frame},
            {"crowd/street/" + crowdSize, streetA, streetB, PairCost::Frame},
            {"skin/" + std::to_string(bruteCount), skinA, skinB, PairCost::Skin}};
        for (const auto& [name, a, b, kind] : cases) {
            auto* bench = benchmark::RegisterBenchmark(
                ("morph_ratio/" + name).c_str(),
                [&context, a = a, b = b, kind = kind](benchmark::State& st) { paired(st, context, a, b, kind); });
            bench->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(pairs);
        }
        // Each of the user's models with morph targets (--assets: a Horse, say) against itself drawn
        // without them, each a crowd on its own: the same vertices, levels and pixels, so the ratio
        // is what morphing costs.
        for (const auto& unmorphed : context.unmorphedAssets) {
            const auto original = std::find_if(context.assetCrowdModels.begin(), context.assetCrowdModels.end(),
                                               [&](const auto& m) { return &m->model() == &unmorphed->model(); });
            FrameCase a{Technique::Compute, standard, crowdCount, true}, b = a;
            a.models = {original->get()};
            b.models = {unmorphed.get()};
            for (bool street : {false, true}) {
                a.street = b.street = street;
                const std::string stem = std::filesystem::path((*original)->asset().name).stem().string();
                const std::string name = "morph_ratio/" + stem + "_over_unmorphed/" +
                                         (street ? "street/" : "overview/") + crowdSize;
                auto* bench = benchmark::RegisterBenchmark(name.c_str(), [&context, a, b](benchmark::State& st) {
                    paired(st, context, a, b, PairCost::Frame);
                });
                bench->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(pairs);
            }
        }
    }
    // The user's own models (--assets): LOD and culling against brute force, both views, as
    // `crowd/` does for the monster; brute force stops at 4,096 (16,384 of a real model take
    // minutes a frame on lavapipe).
    std::vector<const CrowdModel*> assets;
    for (const auto& m : context.assetCrowdModels)
        assets.push_back(m.get());
    if (!assets.empty())
        for (const char* view : {"overview", "street"})
            for (bool cullAndLod : {true, false})
                for (uint32_t count :
                     context.quick ? std::vector<uint32_t>{16} : std::vector<uint32_t>{1024, 4096, 16384}) {
                    if (!cullAndLod && count > 4096) continue;
                    FrameCase c{Technique::Compute, standard, count, cullAndLod,
                                std::string_view(view) == "street"};
                    c.models = assets;
                    c.warmUp = true;
                    add(context,
                        std::string("crowd_assets/") + (cullAndLod ? "lod+cull/" : "brute/") + view + "/" +
                            std::to_string(count),
                        c, count >= 4096 ? 2 : 5, count >= 4096 ? 1 : 3);
                }
    // Behaviour: the same crowd looping one clip each (the baseline) and wandering (states, cross-
    // fades, walkers moving), LOD and culling on, both views.
    for (const char* view : {"overview", "street"})
        for (uint32_t count : context.quick ? std::vector<uint32_t>{16}
                                            : std::vector<uint32_t>{1024, 16384, 100000})
            for (bool wander : {false, true}) {
                FrameCase c{Technique::Compute, standard, count, true, std::string_view(view) == "street"};
                c.behaviour = wander ? wanderBehaviour() : loopBehaviour();
                c.warmUp = true;
                add(context,
                    std::string("crowd_behaviour/") + (wander ? "wander/" : "loop/") + view + "/" +
                        std::to_string(count),
                    c, count >= 16384 ? 3 : 5, count >= 16384 ? 1 : 3);
            }
    // Texture sampling: the same textured crowd with and without sampling, LOD and culling on,
    // from the street view (near monsters fill the frame: the most sampled pixels).
    for (uint32_t count : context.quick ? std::vector<uint32_t>{256} : std::vector<uint32_t>{1024, 4096})
        for (bool textures : {true, false})
            add(context,
                std::string("crowd_textures/") + (textures ? "on" : "off") + "/street/" +
                    std::to_string(count),
                {Technique::Compute, standard, count, true, true, true, textures}, count >= 4096 ? 3 : 5, 3);
}

} // namespace horde::bench
