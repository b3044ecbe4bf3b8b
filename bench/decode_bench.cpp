// Decode throughput per format: the monster written in that format, decoded from memory into
// GPU-visible buffers, against a memcpy of the same bytes into the same kind of mapped memory,
// measured in the same run; and whole loads from disk (mmap + decode + finish + upload) against
// the decode alone, at ~1 MB and >= 50 MB. The 1 MB file and its copy stay in the CPU's caches,
// the 50 MB one does not: the two sizes bracket what a decoder can do against a copy.
#include <algorithm>
#include <chrono>
#include <cstdio>
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

struct File {
    std::filesystem::path path;
    LoadOptions options;
    std::vector<std::byte> bytes;
};

// One file, or a set of them when the format's files cannot hold a model as large as asked:
// each has bytes of its own, so a set meets the caches as one file of its total size would.
struct Written {
    std::vector<File> files;
    uint64_t bytes = 0, vertices = 0;
    size_t storageBytes = 0; // every mesh's streams, with the arena's alignment
};

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// `copies` files of the monster, named after `path`; null when the format cannot hold it.
std::shared_ptr<Written> writeMonster(const Format& format, const MonsterParams& params, const std::filesystem::path& path,
                                      uint32_t copies = 1) {
    HeapMeshAllocator heap;
    Model source = buildMonster(heap, params);
    auto written = std::make_shared<Written>();
    for (uint32_t copy = 0; copy < copies; ++copy) {
        std::filesystem::path name = path;
        if (copies > 1) name.replace_filename(path.stem().string() + "_" + std::to_string(copy) + path.extension().string());
        Result<Companions> companions = format.write(source, name);
        if (!companions) return nullptr;
        // The skeleton the writer put beside the mesh (EMI, SWTOR): without it those formats
        // load the mesh static and never decode its weights. Clips are not bound: the
        // benchmark measures the mesh.
        LoadOptions options;
        options.skeleton = companions->skeleton;
        File file{name, options, readAll(name)};
        Result<Model> decoded = format.readModel(file.path, file.bytes, file.options, heap);
        if (!decoded) return nullptr;
        for (const Mesh& mesh : decoded->meshes) written->storageBytes += mesh.storage->offsets.total + ArenaAllocator::kAlignment;
        written->bytes += file.bytes.size();
        written->vertices += vertexCount(source);
        written->files.push_back(std::move(file));
    }
    return written;
}

// The files end to end in `target`, as one copy of their bytes.
void copyAll(Buffer& target, const Written& written) {
    auto* at = static_cast<std::byte*>(target.mapped());
    for (const File& f : written.files) at = static_cast<std::byte*>(std::memcpy(at, f.bytes.data(), f.bytes.size())) + f.bytes.size();
    benchmark::ClobberMemory();
}

void countBytes(benchmark::State& state, const Written& written) {
    state.SetBytesProcessed(int64_t(state.iterations() * written.bytes));
    state.counters["file_bytes"] = double(written.bytes);
    state.counters["files"] = double(written.files.size());
}

void countVertices(benchmark::State& state, const Written& written) {
    state.counters["vertices_per_s"] = benchmark::Counter(double(written.vertices), benchmark::Counter::kIsIterationInvariantRate);
}

void fail(benchmark::State& state, Context& context, const std::string& why) {
    state.SkipWithError(why.c_str());
    ++context.failures;
}

// Each decode is followed, outside the benchmark's own timing, by a memcpy of the same file
// into a mapped buffer of the same kind: the two alternate, so both meet the same caches and
// the same machine load.
// Every file of `written` decoded from its bytes into `arena`, as decode/* times it.
Status decodeAll(const Format& format, const Written& written, ArenaAllocator& arena) {
    for (const File& f : written.files) {
        Result<Model> model = format.readModel(f.path, f.bytes, f.options, arena);
        if (!model) return model.error();
        benchmark::DoNotOptimize(model->meshes.data());
    }
    return Ok{};
}

void decode(benchmark::State& state, Context& context, const Format& format, const Written& written) {
    ArenaAllocator arena(*context.device, written.storageBytes);
    Buffer copyTarget = touchedBuffer(*context.device, written.bytes, "memcpy baseline");
    std::vector<double> decodeSeconds, copySeconds;
    decodeSeconds.reserve(size_t(state.max_iterations));
    copySeconds.reserve(size_t(state.max_iterations));
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        arena.reset();
        if (Status decoded = decodeAll(format, written, arena); !decoded)
            return fail(state, context, decoded.error().message);
        decodeSeconds.push_back(secondsSince(start));
        state.PauseTiming();
        start = std::chrono::steady_clock::now();
        copyAll(copyTarget, written);
        copySeconds.push_back(secondsSince(start));
        state.ResumeTiming();
    }
    countBytes(state, written);
    countVertices(state, written);
    // Medians of both, so that a stray slow run on a shared machine tips neither side. At least
    // 0.5 means decoding runs at least half as fast as copying the bytes.
    state.counters["speed_vs_memcpy"] = median(copySeconds) / median(decodeSeconds);
}

void copy(benchmark::State& state, Context& context, const Written& written) {
    Buffer target = touchedBuffer(*context.device, written.bytes, "memcpy");
    for (auto _ : state) copyAll(target, written);
    countBytes(state, written);
}

// Each whole load is followed, outside the benchmark's own timing, by a decode of the same bytes
// alone (as decode/* times it): `load_vs_decode` is the ratio of their medians, what mapping the
// file, allocating, finishing and uploading add to the decode.
void loadFromDisk(benchmark::State& state, Context& context, const Format& format, const Written& written) {
    ArenaAllocator arena(*context.device, written.storageBytes);
    std::vector<double> loadSeconds, decodeSeconds;
    loadSeconds.reserve(size_t(state.max_iterations));
    decodeSeconds.reserve(size_t(state.max_iterations));
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        for (const File& f : written.files) {
            Result<Model> model = loadModel(f.path, f.options, *context.allocator);
            if (!model) return fail(state, context, model.error().message);
            benchmark::DoNotOptimize(model->meshes.data());
        }
        loadSeconds.push_back(secondsSince(start));
        state.PauseTiming();
        start = std::chrono::steady_clock::now();
        arena.reset();
        if (Status decoded = decodeAll(format, written, arena); !decoded)
            return fail(state, context, decoded.error().message);
        decodeSeconds.push_back(secondsSince(start));
        state.ResumeTiming();
    }
    countBytes(state, written);
    countVertices(state, written);
    state.counters["load_vs_decode"] = median(loadSeconds) / median(decodeSeconds);
}

// The monster at about `bytes` in this format: rings are added until the file is large enough
// (formats differ in bytes per vertex). A format whose files cannot hold a model that large
// (EMI: 65,536 vertices a mesh) gets copies of the largest monster it holds, as many as make
// up the size: a level's worth of meshes. Null when it holds none.
std::shared_ptr<Written> monsterOfSize(const Format& format, size_t bytes, const std::filesystem::path& path) {
    if (bytes <= 2u << 20) return writeMonster(format, MonsterParams{8, 24, 8}, path);
    for (uint32_t rings = 40; rings <= 120; rings += 20) {
        std::shared_ptr<Written> written = writeMonster(format, MonsterParams{16, 128, rings}, path);
        if (!written) break;
        if (written->bytes >= bytes) return written;
    }
    for (uint32_t rings = 40; rings >= 8; rings -= 2) {
        const MonsterParams params{8, 24, rings};
        if (std::shared_ptr<Written> one = writeMonster(format, params, path))
            return writeMonster(format, params, path, uint32_t((bytes + one->bytes - 1) / one->bytes));
    }
    return nullptr;
}

} // namespace

void registerDecodeBenchmarks(Context& context) {
    const std::filesystem::path& dir = context.scratch.path();
    std::vector<std::pair<std::string, size_t>> sizes = {{"1MB", 1u << 20}};
    if (!context.quick) sizes.push_back({"50MB", 50'000'000});

    for (const Format* format : formats()) {
        if (!format->write) continue;
        for (const auto& [label, bytes] : sizes) {
            // Named by format too: nwn and nwn-ascii share the .mdl extension.
            std::filesystem::path path =
                dir / ("monster_" + std::string(format->id) + "_" + label + (format->extension ? format->extension : ".bin"));
            std::shared_ptr<Written> written = monsterOfSize(*format, bytes, path);
            if (!written) {
                std::fprintf(stderr, "horde_bench: could not write and read back the monster as %s at %s\n", format->id, label.c_str());
                ++context.failures;
                continue;
            }
            const std::string name = std::string(format->id) + "/" + label;
            benchmark::RegisterBenchmark(("decode/" + name).c_str(), [&context, format, written](benchmark::State& state) {
                decode(state, context, *format, *written);
            })->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(("memcpy/" + name).c_str(), [&context, written](benchmark::State& state) {
                copy(state, context, *written);
            })->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark(("load_from_disk/" + name).c_str(), [&context, format, written](benchmark::State& state) {
                loadFromDisk(state, context, *format, *written);
            })->Unit(benchmark::kMillisecond);
        }
    }
}

} // namespace horde::bench
