#pragma once
// What `horde profile` measured: every skinning technique at every crowd size on one device, in
// one process, each run the median frame of its own. Plain data; profile_page.h draws it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/skinning.h"
#include "core/result.h"
#include "crowd/crowd_settings.h"
#include "crowd/frame_stats.h"

namespace horde {

// One technique at one crowd size.
struct ProfileRun {
    Technique technique = Technique::Compute;
    SkinOptions skin;
    uint32_t count = 0;
    PassTimes gpu;                              // the median frame's
    FrameCounts counts;                         // of the frame with the median GPU time
    std::optional<PassInvocations> invocations; // of that frame, where the device counts them
    double cpuMs = 0.0;

    // "compute-lbs-fp32-4".
    std::string name() const;
    // GPU milliseconds per thousand skinned vertices: of the whole frame, and of the skinning
    // work alone (the skin pass and the draw that reads or skins the vertices).
    double frameMsPerThousand() const;
    double skinDrawMsPerThousand() const;
};

struct Profile {
    std::string device, driver, command;
    std::vector<std::string> models;
    uint32_t width = 0, height = 0, frames = 0;
    std::vector<uint32_t> counts;
    std::vector<ProfileRun> runs; // by size, then technique
    std::vector<std::string> notes;

    // The run with the least GPU time per frame at `count` (null when there is none).
    const ProfileRun* winner(uint32_t count) const;
    nlohmann::json json() const;
};

// DIR/profile.json and DIR/index.html (profile_page.h); DIR is made when missing.
Status writeProfile(const Profile& profile, const std::filesystem::path& dir);

} // namespace horde
