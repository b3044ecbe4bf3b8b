#pragma once
// What the SWTOR decoders and writer share: the GAWB header and section sizes, strings reached
// through offsets, row-vector matrices, and the split of a bone matrix into the engine's TRS.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "asset/model.h"
#include "reader.h"

namespace horde::swtor {

constexpr uint32_t kMajorVersion = 4; // 5 is the 64-bit layout of game update 7.2.1 and later
constexpr uint32_t kMinorVersion = 3;
constexpr size_t kHeaderEnd = 0x64;   // end of the last header field; sections start at 0x70
constexpr size_t kSectionsStart = 0x70;
constexpr size_t kMeshHeaderSize = 40;
constexpr size_t kPieceSize = 48;
constexpr size_t kBoneSize = 136;
constexpr size_t kMeshBoneSize = 28;
constexpr size_t kAttachmentSize = 72;
constexpr size_t kCachedOffsetSize = 8;
constexpr size_t kTrailerSize = 12;   // "EGCD", unknown, offsetBNRY

constexpr uint32_t kTypeSkeleton = 2;
constexpr uint32_t kTypeCount = 3;    // 0 geometry, 1 geometry with a .clo cloth file, 2 skeleton

// Vertex-format mask bits, in the order their fields follow the position in a vertex.
constexpr uint16_t kPosition = 0x1;
constexpr uint16_t kSkin = 0x100;        // 4 weight bytes then 4 bone-index bytes
constexpr uint16_t kNormalTangent = 0x2; // 4 normal bytes then 4 tangent bytes
constexpr uint16_t kTangentFrame = 0x4 | 0x8; // set beside 0x2 by the Slicers' exporter; no bytes of their own
constexpr uint16_t kColour = 0x10;
constexpr uint16_t kUvSets[3] = {0x20, 0x40, 0x80};
constexpr uint16_t kKnownMask = kPosition | kSkin | kNormalTangent | kTangentFrame | kColour | 0x20 | 0x40 | 0x80;

// Bytes one vertex takes under `mask` (the mask must be within kKnownMask).
uint32_t vertexSizeFor(uint16_t mask);

struct Header {
    uint32_t offsetBnry = 0;
    uint32_t numCachedOffsets = 0;
    uint32_t type = 0;
    uint16_t numMeshes = 0, numMaterials = 0, numBones = 0, numAttachments = 0;
    uint32_t offsetCachedOffsets = 0, offsetMeshHeaders = 0, offsetMaterialNames = 0, offsetBones = 0,
             offsetAttachments = 0;
};

// Reads and checks the fixed header (magic, version, type). Check r.ok() after.
Header readHeader(Reader& r);

// Checks the parts horde skips so that a damaged file is still refused: the cached-offsets
// table (entries inside the file; a stale value is only warned about), the BNRY/LTLE collision
// block and the EGCD trailer, which repeats the BNRY offset.
bool checkSkippedSections(Reader& r, const Header& h, std::vector<std::string>& warnings);

// Seeks to a table of `count` entries of `size` bytes at `offset`, failing unless it lies after
// the header and inside the file. Empty tables pass whatever their offset.
bool seekTable(Reader& r, uint32_t offset, uint64_t count, uint64_t size, std::string_view field);

// What one walk over a file's tables may copy out of it. Headers point at names and tables by
// offset, so a forged file can point every bone at one long name, or every mesh at one large
// pieces table; real files copy each once, and four times the file's size leaves room for
// names referenced from several places.
class CopyBudget {
  public:
    explicit CopyBudget(const Reader& r) : left_(4 * uint64_t(r.size()) + (uint64_t(1) << 20)) {}
    // Fails through `r`, at `at`, once the walk would copy more than the budget.
    bool charge(Reader& r, size_t at, uint64_t bytes, std::string_view field);

  private:
    uint64_t left_;
};

// Reads a uint32 string offset and returns the NUL-terminated string it points at, charged to
// `budget`; the reader moves past the offset only.
std::string readName(Reader& r, std::string_view field, CopyBudget& budget);

// A row-vector 4x4 matrix (translation in floats 12-14) as the column-vector glm matrix that
// does the same: the file's rows are glm's columns, so the floats load in order.
glm::mat4 readMatrix(Reader& r, std::string_view field);


// Normal and tangent components are bytes: (b - 127) / 127. The writer's rounding to them.
uint8_t packUnit(float v);

// An IEEE half as a float, without branches: the half's exponent and
// mantissa shifted into a float's and rescaled by 2^112 (the exponent bias difference), which
// also turns half subnormals into exact float normals.
inline float halfToFloat(uint16_t h) {
    uint32_t magnitude = uint32_t(h & 0x7FFFu) << 13;
    float value;
    std::memcpy(&value, &magnitude, 4);
    value *= 0x1p112f;
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits = (h & 0x7C00u) == 0x7C00u ? 0x7F800000u | magnitude : bits; // infinity, or NaN with its payload
    bits |= uint32_t(h & 0x8000u) << 16;
    std::memcpy(&value, &bits, 4);
    return value;
}

} // namespace horde::swtor
