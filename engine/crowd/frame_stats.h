#pragma once
// Per-frame statistics: GPU milliseconds per pass from timestamp queries, what the GPU chose to
// draw (visible instances, levels, triangles, skinned vertices), CPU milliseconds to record and
// submit, and the throughput they imply.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "crowd/behaviour.h"
#include "shaders/gpu_types.h"

namespace horde {

struct PassTimes {
    double cullMs = 0, sampleMs = 0, poseMs = 0, skinMs = 0, drawMs = 0;
    double totalMs() const { return cullMs + sampleMs + poseMs + skinMs + drawMs; }
};

// Shader invocations of one pass, from a pipeline-statistics query.
struct Invocations {
    uint64_t vertex = 0, fragment = 0, compute = 0;
};
// Per pass, where the device has the queries (cull counts budget, assign and plan too).
struct PassInvocations {
    Invocations cull, sample, pose, skin, draw;
};

// What the GPU decided in one frame, read back after it finished.
struct FrameCounts {
    uint32_t instances = 0;
    uint32_t visible = 0;
    std::array<uint32_t, HORDE_MAX_LEVELS> perLevel{}; // drawn (instance, mesh) pairs per level
    uint64_t triangles = 0;
    uint64_t skinnedVertices = 0; // by the skin pass (compute) or the draw (vertex technique)
    uint32_t ownPoses = 0, sharedPoses = 0;
    uint32_t sharedBlends = 0; // of the shared: instances in a cross-fade given a shared blend
    BehaviourCounts behaviour;
    uint32_t impostors = 0; // visible instances drawn as impostors (their poses are among the shared)
    uint32_t fading = 0;    // of those, instances drawn as meshes too, fading from one to the other
    uint32_t dropped = 0;   // instances seen but not drawn: the vertex pool could not hold them
    std::vector<std::vector<uint32_t>> listCounts; // per model, per (mesh, level): instances drawn
    struct Model {
        uint32_t instances = 0, visible = 0, dropped = 0;
        std::array<uint32_t, HORDE_MAX_LEVELS> perLevel{}; // drawn (instance, mesh) pairs per level
    };
    std::vector<Model> models; // the same, per model of the crowd
};

struct FrameStats {
    std::vector<PassTimes> gpu;      // frames whose timestamps came back
    std::vector<FrameCounts> counts; // beside each of them
    std::vector<PassInvocations> invocations; // beside each of them, where the device counts them
    std::vector<double> cpuMs;       // record + submit, per frame
    std::vector<std::string> states; // the behaviour's state names (its counts' order)

    // One finished frame's times, counts and (where counted) invocations.
    void add(const PassTimes& times, FrameCounts frameCounts,
             const std::optional<PassInvocations>& passInvocations = std::nullopt);
    // The invocations of the frame with the median GPU time (nothing where not counted).
    std::optional<PassInvocations> medianInvocations() const;
    // "invocations: ..." for the headless output, or empty where not counted.
    std::string invocationsLine() const;
    // A line of its own when the first frame took more than twice the median (a driver's first
    // use of its pipelines: lavapipe compiles shaders as they are first run), else empty.
    std::string firstFrameLine() const;
    PassTimes medianGpu() const;
    double medianCpuMs() const;
    FrameCounts medianCounts() const;        // the counts of the frame with the median GPU time
    double skinnedVerticesPerSecond() const; // over the median GPU frame
    std::string summary() const;
    // A line of its own when the median frame dropped instances, else empty.
    std::string droppedLine() const;
    // One line per frame for the headless table.
    std::string frameLine(size_t frame) const;
    static std::string frameHeader();
    // {"frames":[{gpu_ms:{cull,sample,pose,skin,draw,total}, cpu_ms, instances, visible,
    //  levels:[...], triangles, skinned_vertices, own_poses, shared_poses, shared_blends, dropped,
    //  behaviour:{states:{NAME:count}, transitions, blending, moved},
    //  invocations:{cull,sample,pose,skin,draw: {vertex,fragment,compute}} (where counted)}],
    //  "median":{...}}
    std::string json() const;
};

} // namespace horde
