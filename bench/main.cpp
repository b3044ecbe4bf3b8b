// horde_bench: decode and per-frame throughput with their baselines measured in the same run.
// `--quick` runs every benchmark once at small sizes (CI proves they all still run).
// `--assets DIR` (or HORDE_BENCH_ASSETS) adds crowd rows over DIR's animated models (or one
// model file): crowd_assets/<lod+cull|brute>/<overview|street>/<count>.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_context.h"

int main(int argc, char** argv) {
    horde::bench::Context context;
    std::vector<char*> args;
    const char* assets = std::getenv("HORDE_BENCH_ASSETS");
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--quick") == 0) {
            context.quick = true;
        } else if (std::strcmp(argv[i], "--assets") == 0) {
            if (i + 1 == argc) {
                std::fprintf(stderr, "horde_bench: --assets needs a folder or a model file\n");
                return 1;
            }
            assets = argv[++i];
        } else {
            args.push_back(argv[i]);
        }
    }
    int count = int(args.size());
    benchmark::Initialize(&count, args.data());

    horde::DeviceOptions options;
    options.validation = horde::validationByDefault();
    options.quiet = true;
    context.device = std::make_unique<horde::Device>(options);
    context.allocator = std::make_unique<horde::GpuMeshAllocator>(*context.device);
    context.copyBytesPerSecond =
        horde::bench::measureCopyBandwidth(*context.device, context.quick ? 4u << 20 : 64u << 20);
    benchmark::AddCustomContext("device", context.device->name());
    benchmark::AddCustomContext("driver", context.device->driver());
    benchmark::AddCustomContext("copy_bandwidth_GBps", std::to_string(context.copyBytesPerSecond * 1e-9));
    benchmark::AddCustomContext("mode", context.quick ? "quick" : "full");
    if (assets && *assets) {
        if (!context.loadAssets(assets)) return 2;
        benchmark::AddCustomContext("assets", assets);
    }

    horde::bench::registerDecodeBenchmarks(context);
    horde::bench::registerFrameBenchmarks(context);
    horde::bench::registerCpuBenchmarks(context);
    horde::bench::registerLodBenchmarks(context);
    horde::bench::registerTextureBenchmarks(context);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    context.crowdModels.clear();
    context.monsters.clear();
    context.unmorphedAssets.clear();
    context.assetCrowdModels.clear();
    context.assets = {};
    context.textures.reset();
    context.textureAllocator.reset();
    context.allocator.reset();
    bool clean = context.device->messages().problems() == 0 && context.failures == 0;
    context.device.reset();
    return clean ? 0 : 1;
}
