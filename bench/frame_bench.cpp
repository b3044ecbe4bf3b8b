// Per-frame cost on the current Vulkan device. `frame/` and `frame_vertices/` sweep brute force
// (every instance posed, skinned and drawn in full) over instance and vertex counts for both
// skinning techniques; `crowd/` sweeps the standard monster from 1 to 100,000 instances with
// culling and LOD on and off, from the overview and the street view, so each row has its brute
// force baseline in the same run; `crowd_textures/` draws the skinned monster's crowd with its
// texture sampled and not, the pair whose ratio is what sampling costs. Benchmark time is GPU time
// (timestamps); CPU record + submit time, recording time alone, pass times, what was drawn and throughput are
// counters.
#include <algorithm>
#include <chrono>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_context.h"
#include "render/crowd_scene.h"
#include "render/frames.h"
#include "render/headless.h"
#include "crowd/view.h"
#include "vk/check.h"

namespace horde::bench {

namespace {

// Bytes each pass moves per item (reads + writes), for its fraction of copy bandwidth.
constexpr double kSampleBytesPerNode = 48 + 3 * 32 + 2 * 3 * 16 + 48; // rest, channels, keys, local
constexpr double kSkinBytesPerVertex = 4 + 12 + 12 + 8 + 16 + 12 + 12; // in: order, p, n, joints, weights; out: p, n

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
};

void frame(benchmark::State& state, Context& context, const FrameCase& c) {
    Device& device = *context.device;
    const CrowdModel& model = context.crowdMonster(c.params, c.skinned);
    const VkExtent2D extent{640, 360};
    CrowdSettings settings;
    settings.technique = c.technique;
    settings.cull = settings.lod = c.cullAndLod;
    settings.textures = c.textures;
    settings.slots = 1;
    settings.colorFormat = kOffscreenColorFormat;
    const CrowdModel* models[] = {&model};
    std::unique_ptr<CrowdScene> scene;
    try {
        scene = std::make_unique<CrowdScene>(device, models, c.count, settings);
    } catch (const VulkanError& e) {
        state.SkipWithError((std::string("does not fit on this device: ") + e.what()).c_str());
        return;
    }
    Image color(device, extent, kOffscreenColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT, "bench color");
    Image depth(device, extent, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, "bench depth");
    RenderTarget target{color.get(), color.view(), depth.get(), depth.view(), VK_NULL_HANDLE, VK_NULL_HANDLE, extent,
                        VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    float aspect = float(extent.width) / float(extent.height);
    OrbitCamera camera = c.street ? streetCamera(scene->worldBounds(), scene->groundHeight(), scene->modelHeight() * 1.2f)
                                  : frameBounds(scene->worldBounds(), aspect, 0.6f, 0.55f);
    ViewCamera view = orbitView(camera, aspect, scene->worldBounds().radius(), extent.height);
    FrameSlots slots(device, 1, kOfflineFenceTimeoutNs);

    // horde's own per-frame CPU work: the same recording with nothing executing. On a device
    // that runs on the CPU (lavapipe) the frame just finished still occupies the cores and has
    // cooled their caches when the next one is recorded, which cpu_ms below includes.
    std::vector<double> record;
    for (int i = 0; i < 16; ++i) {
        auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = slots.begin(0);
        scene->recordFrame(cmd, 0, 0.0f, target, view);
        VK_CHECK(vkEndCommandBuffer(cmd));
        record.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }

    std::vector<double> cull, sample, pose, skin, draw, cpu;
    FrameCounts counts;
    float time = 0.0f;
    try {
        for (auto _ : state) {
            auto start = std::chrono::steady_clock::now();
            VkCommandBuffer cmd = slots.begin(0);
            scene->recordFrame(cmd, 0, time, target, view);
            slots.submit(0);
            cpu.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            slots.wait(0);
            PassTimes t = scene->passTimes(0).value_or(PassTimes{});
            counts = scene->counts(0).value_or(FrameCounts{});
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
    state.counters["vertices_per_instance"] = double(model.asset().vertexStride);
    state.counters["visible"] = counts.visible;
    state.counters["triangles"] = double(counts.triangles);
    state.counters["skinned_vertices"] = vertices;
    state.counters["own_poses"] = counts.ownPoses;
    state.counters["shared_poses"] = counts.sharedPoses;
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
    state.counters["joints_per_s"] =
        animate > 0 ? double(counts.ownPoses) * double(model.asset().tables.joints.size()) / (animate * 1e-3) : 0;
    state.counters["gpu_bytes_per_instance"] = double(scene->slotBytes()) / c.count;
    if (context.copyBytesPerSecond > 0) {
        const Model& m = model.model();
        double sampleRate = median(sample) > 0 ? double(counts.ownPoses) * double(m.nodes.size()) * kSampleBytesPerNode / (median(sample) * 1e-3) : 0;
        double skinRate = median(skin) > 0 ? vertices * kSkinBytesPerVertex / (median(skin) * 1e-3) : 0;
        state.counters["sample_of_copy_bw"] = sampleRate / context.copyBytesPerSecond;
        state.counters["skin_of_copy_bw"] = c.technique == Technique::Compute ? skinRate / context.copyBytesPerSecond : 0;
    }
}

const char* techniqueName(Technique t) { return t == Technique::Compute ? "compute" : "vertex"; }

void add(Context& context, const std::string& name, const FrameCase& c, int iterations, int repetitions) {
    auto* b = benchmark::RegisterBenchmark(name.c_str(), [&context, c](benchmark::State& s) { frame(s, context, c); });
    b->UseManualTime()->Unit(benchmark::kMillisecond);
    if (context.quick) b->Iterations(2);
    else b->Iterations(iterations)->Repetitions(repetitions)->ReportAggregatesOnly(true);
}

} // namespace

void registerFrameBenchmarks(Context& context) {
    const MonsterParams small{4, 8, 2}, standard{}, large{8, 32, 12};
    std::vector<uint32_t> counts = context.quick ? std::vector<uint32_t>{1, 16}
                                                 : std::vector<uint32_t>{1, 16, 64, 256, 1024, 4096, 16384};
    for (Technique technique : {Technique::Compute, Technique::Vertex}) {
        for (uint32_t count : counts)
            add(context, std::string("frame/") + techniqueName(technique) + "/small_monster/" + std::to_string(count),
                {technique, small, count}, count >= 4096 ? 3 : 10, 3);
        // Vertex count sweep at a fixed crowd.
        std::vector<std::pair<const char*, MonsterParams>> sizes = {{"small", small}, {"standard", standard}};
        if (!context.quick) sizes.push_back({"large", large});
        for (auto [label, params] : sizes) {
            uint32_t count = context.quick ? 4 : 256;
            add(context, std::string("frame_vertices/") + techniqueName(technique) + "/" + label + "/" + std::to_string(count),
                {technique, params, count}, 5, 3);
        }
    }
    // The crowd at scale: LOD and culling against brute force, both views, the standard monster.
    std::vector<uint32_t> crowd = context.quick ? std::vector<uint32_t>{16, 256}
                                                : std::vector<uint32_t>{1, 16, 256, 1024, 4096, 16384, 100000};
    for (bool street : {false, true})
        for (bool cullAndLod : {true, false})
            for (uint32_t count : crowd) {
                std::string view = street ? "street/" : "overview/";
                int iterations = count >= 4096 ? 2 : 5, repetitions = count >= 4096 ? 1 : 3;
                if (cullAndLod) {
                    add(context, "crowd/lod_cull/" + view + std::to_string(count), {Technique::Compute, standard, count, true, street},
                        iterations, repetitions);
                } else if (count <= 16384) {
                    // From 4,096 on, brute force skins and draws in chunks through one pool (the
                    // full crowd's skinned vertices exceed lavapipe's 2 GiB heap at 16,384); a
                    // frame of 16,384 takes minutes, so one. 100,000 (about six times that) is
                    // left out of the sweep.
                    add(context, "crowd/brute/" + view + std::to_string(count), {Technique::Compute, standard, count, false, street},
                        count >= 16384 ? 1 : iterations, count >= 16384 ? 1 : repetitions);
                }
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
