// An ANIM file's structure, read past its keys: what readClips decodes and what the folder survey
// names, from one reading of the header and the counts, so the two can never disagree.
#include "grimrock/grimrock.h"

#include <cmath>

namespace horde::grimrock {

namespace {
constexpr size_t kVec3 = 12, kQuat = 16;
// Version 1 key: position, rotation (x, y, z, w), scale.
constexpr size_t kKeyBytes = kVec3 + kQuat + kVec3;
// An item is at least its name's length and one count.
constexpr uint64_t kMinItemBytes = 8;

// A count (`countField`) at the reader's offset, then `count` values of `size` bytes, checked
// against the bytes left and skipped.
bool readCount(Reader& r, const std::string& countField, const std::string& field, size_t size,
               int32_t& count) {
    const size_t at = r.offset();
    count = r.i32(countField);
    if (!r.ok()) return false;
    if (count < 0) return r.failAt(at, countField, "count " + std::to_string(count) + " is negative");
    return r.fits(uint64_t(count), size, field) && r.skip(size_t(count) * size, field);
}

// Version 1: one count, then the keys, each holding all three paths.
bool scanKeys(Reader& r, AnimItem& item) {
    int32_t keys = 0;
    const std::string field = item.field + ".keys";
    const size_t at = r.offset() + 4;
    if (!readCount(r, item.field + ".numKeys", field, kKeyBytes, keys)) return false;
    item.position = {keys, at, kKeyBytes, field, ".position"};
    item.rotation = {keys, at + kVec3, kKeyBytes, field, ".rotation"};
    item.scale = {keys, at + kVec3 + kQuat, kKeyBytes, field, ".scale"};
    return true;
}

// Version 2: positions, rotations and scales, each array with its own count.
bool scanTracks(Reader& r, AnimItem& item) {
    struct Path {
        KeyTrack& track;
        const char* count;
        const char* values;
        size_t size;
    };
    for (Path p : {Path{item.position, ".numPositions", ".positions", kVec3},
                   Path{item.rotation, ".numRotations", ".rotations", kQuat},
                   Path{item.scale, ".numScales", ".scales", kVec3}}) {
        const std::string field = item.field + p.values;
        const size_t at = r.offset() + 4;
        int32_t count = 0;
        if (!readCount(r, item.field + p.count, field, p.size, count)) return false;
        p.track = {count, at, p.size, field, ""};
    }
    return true;
}
} // namespace

AnimScan scanAnimation(Reader& r) {
    AnimScan scan;
    r.expect("ANIM", "magic");
    scan.version = r.i32("version");
    if (r.ok() && scan.version != 1 && scan.version != 2)
        r.failAt(4, "version",
                 "version " + std::to_string(scan.version) +
                     " is neither 1 (Legend of Grimrock) nor 2 (Legend of Grimrock 2)");
    scan.name = readString(r, "name");
    const size_t fpsAt = r.offset();
    scan.fps = r.f32("framesPerSecond");
    scan.frames = r.i32("numFrames");
    const int32_t items = r.i32("numItems");
    if (!r.ok()) return scan;
    if (!(std::isfinite(scan.fps) && scan.fps > 0.0f))
        r.failAt(fpsAt, "framesPerSecond", "rate " + std::to_string(scan.fps) + " is not positive");
    if (scan.frames < 0)
        r.failAt(fpsAt + 4, "numFrames", "count " + std::to_string(scan.frames) + " is negative");
    if (items < 0) r.failAt(fpsAt + 8, "numItems", "count " + std::to_string(items) + " is negative");
    if (!r.fits(uint64_t(std::max(items, 0)), kMinItemBytes, "numItems")) return scan;
    scan.items.reserve(size_t(items));
    for (int32_t i = 0; i < items && r.ok(); ++i) {
        AnimItem item;
        item.field = "items[" + std::to_string(i) + "]";
        item.node = readString(r, item.field + ".node");
        if (!r.ok() || !(scan.version == 1 ? scanKeys(r, item) : scanTracks(r, item))) break;
        scan.items.push_back(std::move(item));
    }
    return scan;
}

} // namespace horde::grimrock
