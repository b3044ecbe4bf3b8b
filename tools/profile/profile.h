#pragma once
// What `horde profile` measured: every skinning technique at every crowd size on one device, in
// one process, each run repeated in turn with the others and given with its spread. Plain data;
// profile_page.h draws it.
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

// One repeat of a run: the median of its frames.
struct ProfileSample {
    PassTimes gpu;
    FrameCounts counts;                         // of the frame with the median GPU time
    std::optional<PassInvocations> invocations; // of that frame, where the device counts them
    double cpuMs = 0.0;
};

// The least, median and greatest GPU milliseconds a frame over a run's repeats.
struct Spread {
    double min = 0.0, median = 0.0, max = 0.0;
};

// One technique at one crowd size, measured in repeats alternated with the other techniques'.
struct ProfileRun {
    Technique technique = Technique::Compute;
    SkinOptions skin;
    uint32_t count = 0;
    // The median repeat's figures (by GPU time a frame).
    PassTimes gpu;
    FrameCounts counts;
    std::optional<PassInvocations> invocations;
    double cpuMs = 0.0;
    std::vector<ProfileSample> repeats; // in the order measured

    // Takes one more repeat; the figures above become the median repeat's.
    void add(const ProfileSample& sample);
    // Over the repeats; a run made without any is one figure, its gpu's.
    Spread spread() const;
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
    uint32_t width = 0, height = 0, frames = 0, repeats = 0;
    std::vector<uint32_t> counts;
    std::vector<ProfileRun> runs; // by size, then technique
    std::vector<std::string> notes;

    // The run with the least median GPU time a frame at `count` (null when there is none).
    const ProfileRun* fastest(uint32_t count) const;
    // The fastest run at `count` where its slowest repeat beats every other run's fastest: a
    // difference larger than the spread. Null when the spreads overlap (or there is no run).
    const ProfileRun* winner(uint32_t count) const;
    // The runs at `count` whose spread reaches the fastest one's (the fastest among them).
    std::vector<const ProfileRun*> undecided(uint32_t count) const;
    // Said of the fastest run at `count`: "faster in every repeat than any other run", or "no
    // winner: within the spread of" the others within reach.
    std::string verdict(uint32_t count) const;
    nlohmann::json json() const;
};

// DIR/profile.json and DIR/index.html (profile_page.h); DIR is made when missing.
Status writeProfile(const Profile& profile, const std::filesystem::path& dir);

} // namespace horde
