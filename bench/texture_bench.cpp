// Textures, each against a memcpy in the same run:
// - dds_upload/*: a 4096 x 4096 BC1 or BC3 DDS with its full mip chain, generated here, read by
//   readDds from its bytes into mapped GPU-visible storage (the memory GpuTextureAllocator hands
//   out), against a memcpy of its level bytes into the same mapped memory. The two alternate,
//   and `speed_vs_memcpy` is the ratio of their medians (1 = as fast as the copy). The `_new`
//   rows take fresh storage from GpuTextureAllocator per read, as a load does.
// - bc_decode/*: the CPU decoder a glTF export runs (loaders/texture/decode_bc*.cpp) on a
//   1024 x 1024 texture of pseudo-random blocks, against a memcpy of the decoded size; MB/s counts
//   the RGBA8 bytes written, the figure an export's time follows.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <memory>

#include <benchmark/benchmark.h>

#include "bench_context.h"
#include "texture/texture.h"
#include "vk/gpu_texture.h"

namespace horde::bench {

namespace {
constexpr uint32_t kDdsHeaderBytes = 128;

void fillRandom(std::span<std::byte> bytes) {
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (std::byte& b : bytes) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b = std::byte(x);
    }
}

std::shared_ptr<const Texture> randomBlocks(PixelFormat format, uint32_t size) {
    Texture t;
    t.file = pixelFormatName(format);
    t.format = format;
    t.width = t.height = size;
    t.levels.push_back({size, size, 0, levelBytes(format, size, size)});
    HeapTextureAllocator heap;
    fillRandom(allocateLevels(t, heap, t.levels[0].size)->bytes);
    return std::make_shared<const Texture>(std::move(t));
}

void put32(std::vector<std::byte>& out, uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(std::byte(v >> (8 * i)));
}

// A DDS file: the 128-byte header (DXT1 or DXT5, every mip level) and pseudo-random blocks.
std::vector<std::byte> ddsFile(PixelFormat format, uint32_t size) {
    const uint32_t mips = uint32_t(std::bit_width(size));
    uint64_t payload = 0;
    for (uint32_t m = 0; m < mips; ++m) payload += levelBytes(format, std::max(size >> m, 1u), std::max(size >> m, 1u));
    std::vector<std::byte> out;
    out.reserve(kDdsHeaderBytes + size_t(payload));
    for (char c : std::string_view("DDS ")) out.push_back(std::byte(c));
    for (uint32_t v : {124u, 0x1007u | 0x20000u, size, size, uint32_t(levelBytes(format, size, size)), 0u, mips}) put32(out, v);
    for (int i = 0; i < 11; ++i) put32(out, 0);
    put32(out, 32);
    put32(out, 0x4);
    for (char c : std::string_view(format == PixelFormat::BC1 ? "DXT1" : "DXT5")) out.push_back(std::byte(c));
    for (int i = 0; i < 5; ++i) put32(out, 0);
    put32(out, 0x401008);
    for (int i = 0; i < 4; ++i) put32(out, 0);
    out.resize(kDdsHeaderBytes + size_t(payload));
    fillRandom(std::span(out).subspan(kDdsHeaderBytes));
    return out;
}

// Storage for every read from one mapped buffer of the kind GpuTextureStorage uses, its pages
// touched once: the timing holds the reader alone, not the allocation or first-touch faults.
class MappedArena final : public TextureAllocator {
  public:
    MappedArena(Device& device, uint64_t capacity)
        : buffer_(device, capacity, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryUse::Upload, "dds upload arena") {
        std::memset(buffer_.mapped(), 0, size_t(capacity));
    }
    std::unique_ptr<TextureStorage> allocate(uint64_t size, std::string_view) override {
        auto storage = std::make_unique<TextureStorage>();
        storage->bytes = {static_cast<std::byte*>(buffer_.mapped()), size_t(size)};
        return storage;
    }
    void* mapped() const { return buffer_.mapped(); }

  private:
    Buffer buffer_;
};

double median(std::vector<double> values) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    return values[values.size() / 2];
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// `read` once per iteration, timed; then, untimed by the benchmark but timed here, the baseline
// `copy`: both meet the same caches and the same machine load.
template <class Read, class Copy>
void alternate(benchmark::State& state, Read read, Copy copy) {
    std::vector<double> readSeconds, copySeconds;
    for (auto _ : state) {
        auto start = std::chrono::steady_clock::now();
        if (!read()) return;
        readSeconds.push_back(secondsSince(start));
        state.PauseTiming();
        start = std::chrono::steady_clock::now();
        copy();
        copySeconds.push_back(secondsSince(start));
        state.ResumeTiming();
    }
    state.counters["speed_vs_memcpy"] = median(copySeconds) / median(readSeconds);
}

void registerDdsUpload(Context& context, PixelFormat format, bool freshStorage) {
    const uint32_t size = context.quick ? 256 : 4096;
    auto file = std::make_shared<std::vector<std::byte>>(ddsFile(format, size));
    const size_t payload = file->size() - kDdsHeaderBytes;
    const std::string name = std::string("dds_upload/") + pixelFormatName(format) + "_" + std::to_string(size) +
                             (freshStorage ? "_new" : "");
    auto* b = benchmark::RegisterBenchmark(name.c_str(), [&context, file, payload, freshStorage](benchmark::State& state) {
        MappedArena arena(*context.device, payload);
        GpuTextureAllocator gpu(*context.device);
        TextureAllocator& allocator = freshStorage ? static_cast<TextureAllocator&>(gpu) : arena;
        alternate(
            state,
            [&] {
                Result<Texture> t = readDds("bench.dds", *file, allocator);
                if (!t) {
                    state.SkipWithError(t.error().message.c_str());
                    ++context.failures;
                    return false;
                }
                benchmark::DoNotOptimize(t->bytes.data());
                return true;
            },
            [&] {
                std::memcpy(arena.mapped(), file->data() + kDdsHeaderBytes, payload);
                benchmark::DoNotOptimize(arena.mapped());
            });
        state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(payload));
        state.counters["file_bytes"] = double(file->size());
    });
    b->Unit(benchmark::kMillisecond);
    if (context.quick) b->Iterations(1);
}
} // namespace

void registerTextureBenchmarks(Context& context) {
    for (PixelFormat format : {PixelFormat::BC1, PixelFormat::BC3})
        for (bool fresh : {false, true}) registerDdsUpload(context, format, fresh);

    const uint32_t size = context.quick ? 64 : 1024;
    const double rgbaBytes = double(size) * size * 4;
    for (PixelFormat format : {PixelFormat::BC1, PixelFormat::BC3, PixelFormat::BC5, PixelFormat::BC7}) {
        auto texture = randomBlocks(format, size);
        auto* b = benchmark::RegisterBenchmark((std::string("bc_decode/") + pixelFormatName(format)).c_str(), [texture, rgbaBytes](benchmark::State& state) {
            std::vector<uint8_t> from(size_t(rgbaBytes), 1);
            alternate(
                state,
                [&] {
                    Result<std::vector<uint8_t>> rgba = decodeRgba8(*texture);
                    benchmark::DoNotOptimize(rgba.value().data());
                    return true;
                },
                [&] {
                    std::vector<uint8_t> to(from.size()); // the decoder allocates its output too
                    std::memcpy(to.data(), from.data(), from.size());
                    benchmark::DoNotOptimize(to.data());
                });
            state.counters["MBps"] = benchmark::Counter(rgbaBytes * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
        });
        b->Unit(benchmark::kMillisecond);
        if (context.quick) b->Iterations(1);
    }
    auto* copy = benchmark::RegisterBenchmark("bc_decode/memcpy_baseline", [rgbaBytes](benchmark::State& state) {
        std::vector<uint8_t> from(size_t(rgbaBytes), 1);
        for (auto _ : state) {
            std::vector<uint8_t> to(from.size());
            std::memcpy(to.data(), from.data(), from.size());
            benchmark::DoNotOptimize(to.data());
        }
        state.counters["MBps"] = benchmark::Counter(rgbaBytes * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
    });
    copy->Unit(benchmark::kMillisecond);
    if (context.quick) copy->Iterations(1);
}

} // namespace horde::bench
