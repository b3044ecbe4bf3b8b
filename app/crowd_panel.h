#pragma once
// The window's overlay panel (Dear ImGui): each pass's GPU time over the last frames as a rolling
// stacked graph, what the GPU drew (visible, levels, own and shared poses, dropped), and the
// controls: crowd size, LOD error, technique, skinning, precision, influences, textures, MSAA,
// the level tint and freezing the culling camera. The keys change the same state.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "crowd/crowd_settings.h"
#include "crowd/frame_stats.h"
#include "render/crowd_scene.h"

namespace horde {

// What the controls change: the crowd's settings (the window makes the scene again when a change
// needs it, CrowdScene::update; the swapchain too for another sample count), and the window's own
// state.
struct WindowControls {
    CrowdSettings crowd;
    std::vector<Behaviour> behaviours; // what the overlay offers: loop, wander, and a file given
    bool paused = false, tintLevels = false, freeze = false, showOverlay = true;
};

// The last frames' pass times in a ring of fixed size: adding one allocates nothing.
class PassHistory {
  public:
    static constexpr size_t kFrames = 240;
    void add(const PassTimes& times);
    void clear() { size_ = 0; }
    size_t size() const { return size_; }
    // The i-th oldest frame kept.
    const PassTimes& at(size_t i) const { return frames_[(next_ + kFrames - size_ + i) % kFrames]; }

  private:
    std::array<PassTimes, kFrames> frames_{};
    size_t next_ = 0, size_ = 0;
};

// The panel for one frame: `counts` and `median` describe the frames since the last title update,
// `maxSamples` is the most samples per pixel the device draws.
// `states`: the behaviour's state names, in its counts' order.
void drawCrowdPanel(WindowControls& controls, const PassHistory& history, const FrameCounts& counts,
                    const PassTimes& median, uint32_t maxSamples, std::span<const std::string> states);

} // namespace horde
