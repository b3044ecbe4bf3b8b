#pragma once
// Frames written as a moving picture a browser plays: an animated WebP (Debian's libwebp, its
// WebPAnimEncoder), lossy so that a few seconds of a crowd stay small. Frames are encoded as
// they come, so nothing holds the whole clip.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>

#include "core/result.h"

namespace horde {

class AnimationWriter {
  public:
    // `frameMilliseconds`: how long each frame shows.
    static Result<std::unique_ptr<AnimationWriter>> open(const std::filesystem::path& path, uint32_t width,
                                                         uint32_t height, uint32_t frameMilliseconds);
    ~AnimationWriter();
    AnimationWriter(const AnimationWriter&) = delete;
    AnimationWriter& operator=(const AnimationWriter&) = delete;

    // One frame, RGBA8 rows top to bottom, width x height of them.
    Status add(std::span<const uint8_t> rgba);
    // Writes the file; the writer takes no more frames.
    Status finish();
    uint32_t frames() const { return frames_; }

  private:
    struct Encoder;
    AnimationWriter(std::filesystem::path path, uint32_t width, uint32_t height, uint32_t frameMilliseconds,
                    std::unique_ptr<Encoder> encoder);
    std::filesystem::path path_;
    uint32_t width_, height_, frameMilliseconds_, frames_ = 0;
    std::unique_ptr<Encoder> encoder_;
};

} // namespace horde
