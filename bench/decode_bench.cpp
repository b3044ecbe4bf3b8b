// Decode throughput per format: the monster written in that format, decoded from memory into
// GPU-visible buffers, against a memcpy of the same bytes into the same kind of mapped memory,
// measured in the same run; and whole loads from disk (mmap + decode + upload) at ~1 MB and
// >= 50 MB. The 1 MB file and its copy stay in the CPU's caches, the 50 MB one does not: the
// two sizes bracket what a decoder can do against a copy.
#include <algorithm>
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

MemoryUse decodeTarget(Device& device) { return device.unifiedMemory() ? MemoryUse::Direct : MemoryUse::Upload; }

// A mapped buffer of the kind loaders decode into, its pages touched once so that neither the
// decoder nor the baseline pays first-touch faults inside the timed loop.
Buffer touchedBuffer(Device& device, size_t bytes, const char* name) {
    Buffer buffer(device, std::max<size_t>(bytes, 16), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, decodeTarget(device), name);
    std::memset(buffer.mapped(), 0, buffer.size());
    return buffer;
}

// Hands out every mesh's storage from one such buffer, reused by each iteration: the decode
// timing holds the decoder alone (allocation is part of load_from_disk).
class ArenaAllocator final : public MeshAllocator {
  public:
    ArenaAllocator(Device& device, size_t capacity) : buffer_(touchedBuffer(device, capacity, "decode arena")) {}
    void reset() { used_ = 0; }

    std::unique_ptr<MeshStorage> allocate(const MeshLayout& layout, std::string_view) override {
        auto storage = std::make_unique<MeshStorage>();
        storage->layout = layout;
        storage->offsets = streamOffsets(layout);
        const size_t at = (used_ + kAlignment - 1) / kAlignment * kAlignment;
        if (at + storage->offsets.total > buffer_.size()) throw std::runtime_error("decode arena sized too small");
        used_ = at + storage->offsets.total;
        storage->bytes = {static_cast<std::byte*>(buffer_.mapped()) + at, storage->offsets.total};
        storage->arrays = arraysAt(storage->bytes.data(), layout, storage->offsets);
        return storage;
    }

    static constexpr size_t kAlignment = 256;

  private:
    Buffer buffer_;
    size_t used_ = 0;
};

// The skeleton a writer puts beside the mesh (EMI .sklb, SWTOR _skeleton.gr2): without it
// those formats load the mesh static and never decode its weights.
LoadOptions optionsFor(const std::filesystem::path& mesh) {
    LoadOptions options;
    for (std::string name : {mesh.stem().string() + ".sklb", mesh.stem().string() + "_skeleton" + mesh.extension().string()})
        if (std::filesystem::exists(mesh.parent_path() / name)) options.skeleton = mesh.parent_path() / name;
    return options;
}

struct Written {
    std::filesystem::path path;
    LoadOptions options;
    std::vector<std::byte> bytes;
    uint64_t vertices = 0;
    size_t storageBytes = 0; // every mesh's streams, with the arena's alignment
};

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::shared_ptr<Written> writeMonster(const Format& format, const MonsterParams& params, const std::filesystem::path& path) {
    HeapMeshAllocator heap;
    Model source = buildMonster(heap, params);
    if (!format.write(source, path)) return nullptr;
    auto written = std::make_shared<Written>(Written{path, optionsFor(path), readAll(path), vertexCount(source)});
    Result<Model> decoded = format.load(path, written->bytes, written->options, heap);
    if (!decoded) return nullptr;
    for (const Mesh& mesh : decoded->meshes) written->storageBytes += mesh.storage->offsets.total + ArenaAllocator::kAlignment;
    return written;
}

// Each decode is followed, outside the benchmark's own timing, by a memcpy of the same file
// into a mapped buffer of the same kind: the two alternate, so both meet the same caches and
// the same machine load.
void decode(benchmark::State& state, Context& context, const Format& format, const Written& file) {
    ArenaAllocator arena(*context.device, file.storageBytes);
    Buffer copyTarget = touchedBuffer(*context.device, file.bytes.size(), "memcpy baseline");
    std::vector<double> decodeSeconds, copySeconds;
    decodeSeconds.reserve(size_t(state.max_iterations));
    copySeconds.reserve(size_t(state.max_iterations));
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        arena.reset();
        Result<Model> model = format.load(file.path, file.bytes, file.options, arena);
        if (!model) {
            state.SkipWithError(model.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(model->meshes.data());
        decodeSeconds.push_back(secondsSince(start));
        state.PauseTiming();
        start = std::chrono::steady_clock::now();
        std::memcpy(copyTarget.mapped(), file.bytes.data(), file.bytes.size());
        benchmark::ClobberMemory();
        copySeconds.push_back(secondsSince(start));
        state.ResumeTiming();
    }
    state.SetBytesProcessed(int64_t(state.iterations() * file.bytes.size()));
    state.counters["file_bytes"] = double(file.bytes.size());
    state.counters["vertices_per_s"] = benchmark::Counter(double(file.vertices), benchmark::Counter::kIsIterationInvariantRate);
    // Medians of both, so that a stray slow run on a shared machine tips neither side. At least
    // 0.5 means decoding runs at least half as fast as copying the bytes.
    state.counters["speed_vs_memcpy"] = median(copySeconds) / median(decodeSeconds);
}

void copy(benchmark::State& state, Context& context, const Written& file) {
    Buffer target = touchedBuffer(*context.device, file.bytes.size(), "memcpy");
    for (auto _ : state) {
        std::memcpy(target.mapped(), file.bytes.data(), file.bytes.size());
        benchmark::ClobberMemory();
    }
    state.SetBytesProcessed(int64_t(state.iterations() * file.bytes.size()));
    state.counters["file_bytes"] = double(file.bytes.size());
}

void loadFromDisk(benchmark::State& state, Context& context, const Written& file) {
    for (auto _ : state) {
        Result<Model> model = loadModel(file.path, file.options, *context.allocator);
        if (!model) {
            state.SkipWithError(model.error().message.c_str());
            return;
        }
        benchmark::DoNotOptimize(model->meshes.data());
    }
    state.SetBytesProcessed(int64_t(state.iterations() * file.bytes.size()));
    state.counters["file_bytes"] = double(file.bytes.size());
    state.counters["vertices_per_s"] = benchmark::Counter(double(file.vertices), benchmark::Counter::kIsIterationInvariantRate);
}

// The monster at about `bytes` in this format: rings are added until the file is large enough
// (formats differ in bytes per vertex). Null when the format cannot hold a model that large.
std::shared_ptr<Written> monsterOfSize(const Format& format, size_t bytes, const std::filesystem::path& path) {
    if (bytes <= 2u << 20) return writeMonster(format, MonsterParams{8, 24, 8}, path);
    for (uint32_t rings = 40; rings <= 120; rings += 20) {
        std::shared_ptr<Written> file = writeMonster(format, MonsterParams{16, 128, rings}, path);
        if (!file || file->bytes.size() >= bytes) return file;
    }
    return nullptr;
}

} // namespace

void registerDecodeBenchmarks(Context& context) {
    std::filesystem::path dir = std::filesystem::temp_directory_path() / "horde_bench";
    std::filesystem::create_directories(dir);
    std::vector<std::pair<std::string, size_t>> sizes = {{"1MB", 1u << 20}};
    if (!context.quick) sizes.push_back({"50MB", 50'000'000});

    for (const Format* format : formats()) {
        if (!format->write) continue;
        for (const auto& [label, bytes] : sizes) {
            std::filesystem::path path = dir / ("monster_" + label + (format->extension ? format->extension : ".bin"));
            std::shared_ptr<Written> file = monsterOfSize(*format, bytes, path);
            if (!file) continue; // the format cannot hold a model this large (see PERFORMANCE.md)
            const std::string name = std::string(format->id) + "/" + label;
            benchmark::RegisterBenchmark(("decode/" + name).c_str(), [&context, format, file](benchmark::State& state) {
                decode(state, context, *format, *file);
            })->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(("memcpy/" + name).c_str(), [&context, file](benchmark::State& state) {
                copy(state, context, *file);
            })->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(("load_from_disk/" + name).c_str(), [&context, file](benchmark::State& state) {
                loadFromDisk(state, context, *file);
            })->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace horde::bench
