#pragma once
// Per-frame statistics: GPU milliseconds per pass from timestamp queries, CPU milliseconds to
// record and submit, and the throughput they imply.
#include <string>
#include <vector>

#include "render/crowd.h"

namespace horde {

struct FrameStats {
    std::vector<PassTimes> gpu; // frames whose timestamps came back
    std::vector<double> cpuMs;  // record + submit, per frame
    uint64_t skinnedVerticesPerFrame = 0;

    PassTimes medianGpu() const;
    double medianCpuMs() const;
    double skinnedVerticesPerSecond() const; // over the median GPU frame time
    std::string summary() const;
};

} // namespace horde
