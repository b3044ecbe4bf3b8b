// The CPU BC decoder a glTF export runs (loaders/texture/decode_bc.cpp): a 1024 x 1024 texture
// of pseudo-random blocks per format, decoded to RGBA8, against a memcpy of the decoded size in
// the same run. MB/s counts the RGBA8 bytes written, the figure an export's time follows.
#include <cstring>
#include <memory>

#include <benchmark/benchmark.h>

#include "bench_context.h"
#include "texture/texture.h"

namespace horde::bench {

namespace {
std::shared_ptr<const Texture> randomBlocks(PixelFormat format, uint32_t size) {
    Texture t;
    t.file = pixelFormatName(format);
    t.format = format;
    t.width = t.height = size;
    t.levels.push_back({size, size, 0, levelBytes(format, size, size)});
    t.bytes.resize(size_t(t.levels[0].size));
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (std::byte& b : t.bytes) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        b = std::byte(x);
    }
    return std::make_shared<const Texture>(std::move(t));
}
} // namespace

void registerTextureBenchmarks(Context& context) {
    const uint32_t size = context.quick ? 64 : 1024;
    const double rgbaBytes = double(size) * size * 4;
    for (PixelFormat format : {PixelFormat::BC1, PixelFormat::BC3, PixelFormat::BC5}) {
        auto texture = randomBlocks(format, size);
        auto* b = benchmark::RegisterBenchmark((std::string("bc_decode/") + pixelFormatName(format)).c_str(), [texture, rgbaBytes](benchmark::State& state) {
            for (auto _ : state) {
                Result<std::vector<uint8_t>> rgba = decodeRgba8(*texture);
                benchmark::DoNotOptimize(rgba.value().data());
            }
            state.counters["MBps"] = benchmark::Counter(rgbaBytes * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
        });
        b->Unit(benchmark::kMillisecond);
        if (context.quick) b->Iterations(1);
    }
    auto* copy = benchmark::RegisterBenchmark("bc_decode/memcpy_baseline", [rgbaBytes](benchmark::State& state) {
        std::vector<uint8_t> from(size_t(rgbaBytes), 1);
        for (auto _ : state) {
            std::vector<uint8_t> to(from.size()); // the decoder allocates its output too
            std::memcpy(to.data(), from.data(), from.size());
            benchmark::DoNotOptimize(to.data());
        }
        state.counters["MBps"] = benchmark::Counter(rgbaBytes * 1e-6, benchmark::Counter::kIsIterationInvariantRate);
    });
    copy->Unit(benchmark::kMillisecond);
    if (context.quick) copy->Iterations(1);
}

} // namespace horde::bench
