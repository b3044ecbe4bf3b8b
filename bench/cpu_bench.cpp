// The CPU reference's throughput, for scale: it is double precision and single-threaded, the
// oracle rather than a fast path.
#include <benchmark/benchmark.h>

#include <memory>

#include "anim/motion_bounds.h"
#include "anim/reference.h"
#include "bench_context.h"

namespace horde::bench {

void registerCpuBenchmarks(Context& context) {
    benchmark::RegisterBenchmark("cpu_reference/sample_and_pose", [&context](benchmark::State& state) {
        Model& model = context.monster({});
        std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size());
        double t = 0.0;
        for (auto _ : state) {
            sampleLocals(model, &model.clips[0], t, locals);
            localToModel(model, locals, models);
            benchmark::DoNotOptimize(models.data());
            t += 0.01;
        }
        state.counters["joints_per_s"] = benchmark::Counter(double(model.nodes.size()), benchmark::Counter::kIsIterationInvariantRate);
    })->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("cpu_reference/skin", [&context](benchmark::State& state) {
        Model& model = context.monster({});
        const Mesh& mesh = model.meshes[0];
        std::vector<glm::dmat4> locals(model.nodes.size()), models(model.nodes.size()), palette;
        sampleLocals(model, &model.clips[0], 0.3, locals);
        localToModel(model, locals, models);
        meshPalette(model, mesh, models, palette);
        std::vector<glm::dvec3> positions(mesh.vertexCount()), normals(mesh.vertexCount());
        for (auto _ : state) {
            skinMesh(mesh, palette, positions, normals);
            benchmark::DoNotOptimize(positions.data());
        }
        state.counters["vertices_per_s"] = benchmark::Counter(double(mesh.vertexCount()), benchmark::Counter::kIsIterationInvariantRate);
    })->Unit(benchmark::kMicrosecond);
    // A load-time cost: both clips of the standard monster, posed by the reference (in plain
    // memory, as a loader's copy for the CPU would be).
    HeapMeshAllocator heap;
    auto monster = std::make_shared<Model>(buildMonster(heap, {}));
    auto* bounds = benchmark::RegisterBenchmark("cpu_reference/motion_bounds", [monster](benchmark::State& state) {
        for (auto _ : state) benchmark::DoNotOptimize(motionBounds(*monster).sphere.radius);
    });
    bounds->Unit(benchmark::kMillisecond);
    if (context.quick) bounds->Iterations(1);
}

} // namespace horde::bench
