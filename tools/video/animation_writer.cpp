#include "animation_writer.h"

#include <fstream>

#include <webp/encode.h>
#include <webp/mux.h>

namespace horde {

namespace {
// Lossy quality: a crowd's many small shapes keep their outlines at this, in a tenth of the bytes.
constexpr float kQuality = 70.0f;
} // namespace

struct AnimationWriter::Encoder {
    WebPAnimEncoder* encoder = nullptr;
    WebPConfig config{};
    ~Encoder() {
        if (encoder) WebPAnimEncoderDelete(encoder);
    }
};

AnimationWriter::AnimationWriter(std::filesystem::path path, uint32_t width, uint32_t height,
                                 uint32_t frameMilliseconds, std::unique_ptr<Encoder> encoder)
    : path_(std::move(path)), width_(width), height_(height), frameMilliseconds_(frameMilliseconds),
      encoder_(std::move(encoder)) {}

AnimationWriter::~AnimationWriter() = default;

Result<std::unique_ptr<AnimationWriter>> AnimationWriter::open(const std::filesystem::path& path,
                                                               uint32_t width, uint32_t height,
                                                               uint32_t frameMilliseconds) {
    if (path.extension() != ".webp")
        return Error{path.string() + ": horde writes moving pictures as animated WebP: name it .webp"};
    auto encoder = std::make_unique<Encoder>();
    WebPAnimEncoderOptions options;
    if (!WebPAnimEncoderOptionsInit(&options) || !WebPConfigInit(&encoder->config))
        return Error{"libwebp: this build's encoder does not match its header"};
    encoder->config.quality = kQuality;
    encoder->encoder = WebPAnimEncoderNew(int(width), int(height), &options);
    if (!encoder->encoder)
        return Error{path.string() + ": libwebp cannot encode " + std::to_string(width) + "x" +
                     std::to_string(height) + " frames"};
    return std::unique_ptr<AnimationWriter>(
        new AnimationWriter(path, width, height, frameMilliseconds, std::move(encoder)));
}

Status AnimationWriter::add(std::span<const uint8_t> rgba) {
    if (rgba.size() != size_t(width_) * height_ * 4)
        return Error{path_.string() + ": a frame of the wrong size"};
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) return Error{"libwebp: cannot make a picture"};
    picture.width = int(width_);
    picture.height = int(height_);
    picture.use_argb = 1;
    Status status = Ok{};
    if (!WebPPictureImportRGBA(&picture, rgba.data(), int(width_) * 4) ||
        !WebPAnimEncoderAdd(encoder_->encoder, &picture, int(frames_ * frameMilliseconds_),
                            &encoder_->config))
        status = Error{path_.string() + ": libwebp: " + WebPAnimEncoderGetError(encoder_->encoder)};
    WebPPictureFree(&picture);
    if (status) ++frames_;
    return status;
}

Status AnimationWriter::finish() {
    // The last frame's end: a timestamp with no picture.
    WebPData data;
    WebPDataInit(&data);
    if (!WebPAnimEncoderAdd(encoder_->encoder, nullptr, int(frames_ * frameMilliseconds_), nullptr) ||
        !WebPAnimEncoderAssemble(encoder_->encoder, &data))
        return Error{path_.string() + ": libwebp: " + WebPAnimEncoderGetError(encoder_->encoder)};
    std::ofstream out(path_, std::ios::binary);
    out.write(reinterpret_cast<const char*>(data.bytes), std::streamsize(data.size));
    WebPDataClear(&data);
    if (!out) return Error{path_.string() + ": cannot write"};
    return Ok{};
}

} // namespace horde
