// Per-frame cost on the current Vulkan device, swept over instance count and vertex count for
// both skinning techniques. Benchmark time is GPU time (timestamps); CPU record + submit time,
// recording time alone, pass times and throughput are counters.
#include <algorithm>
#include <chrono>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_context.h"
#include "render/crowd.h"
#include "render/frames.h"
#include "render/headless.h"
#include "render/view.h"
#include "vk/check.h"

namespace horde::bench {

namespace {

// Bytes each pass moves per item (reads + writes), for its fraction of copy bandwidth.
constexpr double kSampleBytesPerNode = 48 + 3 * 32 + 2 * 3 * 16 + 48; // rest, channels, keys, local
constexpr double kSkinBytesPerVertex = 12 + 12 + 8 + 16 + 12 + 12;      // in: p, n, joints, weights; out: p, n

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
}

void frame(benchmark::State& state, Context& context, Technique technique, MonsterParams params, uint32_t count) {
    Device& device = *context.device;
    Model& model = context.monster(params);
    const VkExtent2D extent{640, 360};
    std::unique_ptr<CrowdRenderer> crowd;
    try {
        crowd = std::make_unique<CrowdRenderer>(device, model, gridInstances(model, count), technique, 1, kOffscreenColorFormat);
    } catch (const VulkanError& e) {
        state.SkipWithError((std::string("does not fit on this device: ") + e.what()).c_str());
        return;
    }
    Image color(device, extent, kOffscreenColorFormat, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_IMAGE_ASPECT_COLOR_BIT, "bench color");
    Image depth(device, extent, VK_FORMAT_D32_SFLOAT, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, "bench depth");
    RenderTarget target{color.get(), color.view(), depth.get(), depth.view(), extent, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    float aspect = float(extent.width) / float(extent.height);
    OrbitCamera camera = frameBounds(crowd->worldBounds(), aspect, 0.6f, 0.55f);
    glm::mat4 viewProjection = camera.viewProjection(aspect, crowd->worldBounds().radius());
    FrameSlots slots(device, 1);

    // horde's own per-frame CPU work: the same recording with nothing executing. On a device
    // that runs on the CPU (lavapipe) the frame just finished still occupies the cores and has
    // cooled their caches when the next one is recorded, which cpu_ms below includes.
    std::vector<double> record;
    for (int i = 0; i < 16; ++i) {
        auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = slots.begin(0);
        crowd->recordFrame(cmd, 0, 0.0f, target, viewProjection);
        VK_CHECK(vkEndCommandBuffer(cmd));
        record.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }

    std::vector<double> sample, pose, skin, draw, cpu;
    float time = 0.0f;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        VkCommandBuffer cmd = slots.begin(0);
        crowd->recordFrame(cmd, 0, time, target, viewProjection);
        slots.submit(0);
        cpu.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        slots.wait(0);
        PassTimes t = crowd->passTimes(0).value_or(PassTimes{});
        sample.push_back(t.sampleMs);
        pose.push_back(t.poseMs);
        skin.push_back(t.skinMs);
        draw.push_back(t.drawMs);
        state.SetIterationTime(std::max(t.totalMs(), 1e-6) * 1e-3);
        time += 1.0f / 60.0f;
    }
    const double vertices = double(crowd->skinnedVerticesPerFrame());
    const double total = median(sample) + median(pose) + median(skin) + median(draw);
    state.counters["instances"] = count;
    state.counters["vertices_per_instance"] = vertices / count;
    state.counters["sample_ms"] = median(sample);
    state.counters["pose_ms"] = median(pose);
    state.counters["skin_ms"] = median(skin);
    state.counters["draw_ms"] = median(draw);
    state.counters["cpu_ms"] = median(cpu);
    state.counters["record_ms"] = median(record);
    state.counters["skinned_vertices_per_s"] = total > 0 ? vertices / (total * 1e-3) : 0;
    double animate = median(sample) + median(pose);
    state.counters["joints_per_s"] = animate > 0 ? double(count) * crowd->jointCount() / (animate * 1e-3) : 0;
    state.counters["gpu_bytes_per_instance"] = double(crowd->bytesPerInstance());
    if (context.copyBytesPerSecond > 0) {
        double sampleRate = median(sample) > 0 ? double(count) * double(model.nodes.size()) * kSampleBytesPerNode / (median(sample) * 1e-3) : 0;
        double skinRate = median(skin) > 0 ? vertices * kSkinBytesPerVertex / (median(skin) * 1e-3) : 0;
        state.counters["sample_of_copy_bw"] = sampleRate / context.copyBytesPerSecond;
        state.counters["skin_of_copy_bw"] = technique == Technique::Compute ? skinRate / context.copyBytesPerSecond : 0;
    }
}

const char* techniqueName(Technique t) { return t == Technique::Compute ? "compute" : "vertex"; }

} // namespace

void registerFrameBenchmarks(Context& context) {
    const MonsterParams small{4, 8, 2}, standard{}, large{8, 32, 12};
    std::vector<uint32_t> counts = context.quick ? std::vector<uint32_t>{1, 16}
                                                 : std::vector<uint32_t>{1, 16, 64, 256, 1024, 4096, 16384};
    for (Technique technique : {Technique::Compute, Technique::Vertex}) {
        for (uint32_t count : counts) {
            std::string name = std::string("frame/") + techniqueName(technique) + "/small_monster/" + std::to_string(count);
            auto* b = benchmark::RegisterBenchmark(name.c_str(), [&context, technique, small, count](benchmark::State& s) {
                frame(s, context, technique, small, count);
            });
            b->UseManualTime()->Unit(benchmark::kMillisecond);
            if (context.quick) b->Iterations(2);
            else b->Iterations(count >= 4096 ? 3 : 10)->Repetitions(3)->ReportAggregatesOnly(true);
        }
        // Vertex count sweep at a fixed crowd.
        std::vector<std::pair<const char*, MonsterParams>> sizes = {{"small", small}, {"standard", standard}};
        if (!context.quick) sizes.push_back({"large", large});
        for (auto [label, params] : sizes) {
            uint32_t count = context.quick ? 4 : 256;
            std::string name = std::string("frame_vertices/") + techniqueName(technique) + "/" + label + "/" + std::to_string(count);
            auto* b = benchmark::RegisterBenchmark(name.c_str(), [&context, technique, params, count](benchmark::State& s) {
                frame(s, context, technique, params, count);
            });
            b->UseManualTime()->Unit(benchmark::kMillisecond);
            if (context.quick) b->Iterations(2);
            else b->Iterations(5)->Repetitions(3)->ReportAggregatesOnly(true);
        }
    }
}

} // namespace horde::bench
