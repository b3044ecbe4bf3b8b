// Decode throughput per format: the monster written in that format, decoded from memory into
// GPU-visible buffers, against a memcpy of the same bytes into the same kind of mapped memory,
// measured in the same run; and whole loads from disk (mmap + decode + upload) at ~1 MB and
// >= 50 MB.
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <benchmark/benchmark.h>

#include "bench_context.h"
#include "loader.h"
#include "vk/memory.h"

namespace horde::bench {

namespace {

std::vector<std::byte> readAll(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::vector<char> raw((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::byte> out(raw.size());
    std::memcpy(out.data(), raw.data(), raw.size());
    return out;
}

uint64_t vertexCount(const Model& model) {
    uint64_t n = 0;
    for (const Mesh& m : model.meshes) n += m.vertexCount();
    return n;
}

// Seconds per memcpy of `bytes` into mapped memory of the kind decoders write to.
double memcpySeconds(Device& device, const std::vector<std::byte>& bytes) {
    MemoryUse use = device.unifiedMemory() ? MemoryUse::Direct : MemoryUse::Upload;
    Buffer target(device, bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, use, "memcpy baseline");
    double best = 1e30;
    for (int run = 0; run < 20; ++run) {
        auto start = std::chrono::steady_clock::now();
        std::memcpy(target.mapped(), bytes.data(), bytes.size());
        benchmark::ClobberMemory();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

struct Written {
    std::filesystem::path path;
    std::vector<std::byte> bytes;
    uint64_t vertices = 0;
};

} // namespace

void registerDecodeBenchmarks(Context& context) {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "horde_bench";
    std::filesystem::create_directories(dir);
    std::vector<std::pair<const char*, MonsterParams>> sizes = {{"1MB", MonsterParams{8, 24, 8}}};
    if (!context.quick) sizes.push_back({"50MB", MonsterParams{16, 128, 40}});

    for (const Format* format : formats()) {
        if (!format->write) continue;
        for (auto [label, params] : sizes) {
            HeapMeshAllocator heap;
            Model source = buildMonster(heap, params);
            std::filesystem::path path = dir / (std::string("monster_") + label + (format->extension ? format->extension : ".bin"));
            if (!format->write(source, path)) continue;
            auto written = std::make_shared<Written>(Written{path, readAll(path), vertexCount(source)});
            std::string id = format->id;

            if (std::string(label) == "1MB") {
                benchmark::RegisterBenchmark(("decode/" + id).c_str(), [&context, format, written](benchmark::State& state) {
                    double baseline = memcpySeconds(*context.device, written->bytes);
                    auto start = std::chrono::steady_clock::now();
                    for (auto _ : state) {
                        Result<Model> model = format->load(written->path, written->bytes, LoadOptions{}, *context.allocator);
                        if (!model) {
                            state.SkipWithError(model.error().message.c_str());
                            return;
                        }
                        for (Mesh& mesh : model->meshes) mesh.storage->commit();
                        benchmark::DoNotOptimize(model->meshes.data());
                    }
                    double perDecode = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
                                       double(state.iterations());
                    state.SetBytesProcessed(int64_t(state.iterations() * written->bytes.size()));
                    state.counters["file_bytes"] = double(written->bytes.size());
                    state.counters["vertices_per_s"] = benchmark::Counter(double(written->vertices), benchmark::Counter::kIsIterationInvariantRate);
                    // Above 0.5 means decoding runs at least half as fast as copying the bytes.
                    state.counters["speed_vs_memcpy"] = baseline / perDecode;
                })->Unit(benchmark::kMicrosecond);
                benchmark::RegisterBenchmark(("memcpy/" + id).c_str(), [&context, written](benchmark::State& state) {
                    MemoryUse use = context.device->unifiedMemory() ? MemoryUse::Direct : MemoryUse::Upload;
                    Buffer target(*context.device, written->bytes.size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, use, "memcpy");
                    for (auto _ : state) {
                        std::memcpy(target.mapped(), written->bytes.data(), written->bytes.size());
                        benchmark::ClobberMemory();
                    }
                    state.SetBytesProcessed(int64_t(state.iterations() * written->bytes.size()));
                })->Unit(benchmark::kMicrosecond);
            }
            benchmark::RegisterBenchmark(("load_from_disk/" + id + "/" + label).c_str(), [&context, written](benchmark::State& state) {
                for (auto _ : state) {
                    Result<Model> model = loadModel(written->path, LoadOptions{}, *context.allocator);
                    if (!model) {
                        state.SkipWithError(model.error().message.c_str());
                        return;
                    }
                    benchmark::DoNotOptimize(model->meshes.data());
                }
                state.SetBytesProcessed(int64_t(state.iterations() * written->bytes.size()));
                state.counters["file_bytes"] = double(written->bytes.size());
                state.counters["vertices_per_s"] = benchmark::Counter(double(written->vertices), benchmark::Counter::kIsIterationInvariantRate);
            })->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace horde::bench
