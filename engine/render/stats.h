#pragma once
// Per-frame statistics: GPU milliseconds per pass from timestamp queries, what the GPU chose to
// draw (visible instances, levels, triangles, skinned vertices), CPU milliseconds to record and
// submit, and the throughput they imply.
#include <string>
#include <vector>

#include "render/crowd_scene.h"

namespace horde {

struct FrameStats {
    std::vector<PassTimes> gpu;      // frames whose timestamps came back
    std::vector<FrameCounts> counts; // beside each of them
    std::vector<double> cpuMs;       // record + submit, per frame

    // After the slot's fence: its frame's times and counts.
    void collect(const CrowdScene& scene, uint32_t slot);
    PassTimes medianGpu() const;
    double medianCpuMs() const;
    FrameCounts medianCounts() const; // the counts of the frame with the median GPU time
    double skinnedVerticesPerSecond() const; // over the median GPU frame
    std::string summary() const;
    // One line per frame for the headless table.
    std::string frameLine(size_t frame) const;
    static std::string frameHeader();
    // {"frames":[{gpu_ms:{cull,sample,pose,skin,draw,total}, cpu_ms, instances, visible,
    //  levels:[...], triangles, skinned_vertices, own_poses, shared_poses, dropped}], "median":{...}}
    std::string json() const;
};

} // namespace horde
