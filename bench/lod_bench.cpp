// What building a LOD chain costs at load, per source vertex, for the monster at three sizes. The
// monster is built in plain memory: the chain reads positions and weights many times, and a
// device's mapped memory may be uncached for the CPU.
#include <ctime>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>

#include "anim/reference.h"
#include "bench_context.h"
#include "model/lod.h"

namespace horde::bench {

namespace {
// CPU time, so that other work on a shared machine does not count.
double threadSeconds() {
    timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}
} // namespace

void registerLodBenchmarks(Context& context) {
    std::vector<std::pair<const char*, MonsterParams>> sizes = {{"small", MonsterParams{4, 12, 4}}};
    if (!context.quick) {
        sizes.push_back({"standard", MonsterParams{}});
        sizes.push_back({"large", MonsterParams{8, 32, 12}});
    }
    HeapMeshAllocator heap;
    for (const auto& [label, params] : sizes) {
        auto model = std::make_shared<Model>(buildMonster(heap, params));
        auto run = [model](benchmark::State& state) {
            const Mesh& mesh = model->meshes[0];
            const std::vector<glm::vec3> positions = restPoseVertices(*model)[0];
            LodChain chain;
            const double start = threadSeconds();
            for (auto _ : state) {
                chain = buildLodChain(mesh, positions);
                benchmark::DoNotOptimize(chain.indices.data());
            }
            state.counters["ns_per_vertex"] =
                (threadSeconds() - start) * 1e9 / double(state.iterations()) / double(mesh.vertexCount());
            state.counters["vertices"] = double(mesh.vertexCount());
            state.counters["levels"] = double(chain.levels.size());
            uint32_t coarsest = 0;
            for (const Submesh& s : chain.levels.back().submeshes) coarsest += s.indexCount / 3;
            state.counters["coarsest_triangles"] = double(coarsest);
        };
        auto* b = benchmark::RegisterBenchmark((std::string("lod_build/") + label).c_str(), run);
        b->Unit(benchmark::kMillisecond);
        if (context.quick) b->Iterations(1);
    }
}

} // namespace horde::bench
