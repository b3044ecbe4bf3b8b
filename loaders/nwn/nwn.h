#pragma once
// The binary MDL container: a 12-byte header, then the model data (structures, addressed by
// offsets from its start, 0 = null) and the raw data (vertex streams, addressed by offsets from
// its start, 0xFFFFFFFF = null). Every structure offset the decoders use is listed here.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "reader.h"

namespace horde::nwn {

constexpr uint32_t kRawNull = 0xFFFFFFFFu;
constexpr size_t kFileHeaderSize = 12;

// Model header (starts with a geometry header).
constexpr size_t kGeomName = 0x08, kGeomRootNode = 0x48, kGeomNodeCount = 0x4C, kGeomType = 0x6C;
constexpr size_t kGeometryHeaderSize = 0x70;
constexpr size_t kModelClassification = 0x72, kModelAnimations = 0x78, kModelBoundsMin = 0x88,
                 kModelRadius = 0xA0, kModelAnimationScale = 0xA4, kModelSupermodel = 0xA8, kModelHeaderSize = 0xE8;
// Animation header (starts with a geometry header).
constexpr size_t kAnimLength = 0x70, kAnimTransition = 0x74, kAnimRoot = 0x78, kAnimEvents = 0xB8,
                 kAnimHeaderSize = 0xC4, kEventSize = 0x24;

// Node header.
constexpr size_t kNodePart = 0x1C, kNodeName = 0x20, kNodeChildren = 0x48, kNodeControllerKeys = 0x54,
                 kNodeControllerData = 0x60, kNodeFlags = 0x6C, kNodeHeaderSize = 0x70;
constexpr uint32_t kHasHeader = 0x1, kHasLight = 0x2, kHasEmitter = 0x4, kHasCamera = 0x8, kHasReference = 0x10,
                   kHasMesh = 0x20, kHasSkin = 0x40, kHasAnim = 0x80, kHasDangly = 0x100, kHasAABB = 0x200,
                   kHasUnknown = 0x400, kKnownFlags = 0x7FF;

// Mesh header, from the start of the node.
constexpr size_t kMeshFaces = 0x78, kMeshDiffuse = 0xAC, kMeshRender = 0xDC, kMeshTexture0 = 0xE8,
                 kMeshIndexCounts = 0x204, kMeshIndexLists = 0x210, kMeshTriangleMode = 0x224,
                 kMeshVertices = 0x22C, kMeshVertexCount = 0x230, kMeshTextureCount = 0x232, kMeshUV = 0x234,
                 kMeshNormals = 0x244, kMeshColors = 0x248, kMeshEnd = 0x270;
constexpr size_t kFaceSize = 0x20, kFaceIndices = 0x1A;
constexpr uint8_t kTriangleList = 3, kTriangleStrip = 4;
// Skin extension, from the start of the node.
constexpr size_t kSkinWeights = 0x27C, kSkinBoneRefs = 0x280, kSkinNodeToBone = 0x284, kSkinNodeToBoneCount = 0x288,
                 kSkinQBoneRefInv = 0x28C, kSkinTBoneRefInv = 0x298, kSkinConstantIndices = 0x2A4,
                 kSkinBoneNodes = 0x2B0, kSkinEnd = 0x2D4, kSkinBones = 17;
// Other node extensions, from the start of the node.
constexpr size_t kLightEnd = 0xCC, kEmitterEnd = 0x148, kReferenceEnd = 0xB4, kDanglyEnd = 0x288,
                 kAnimMeshEnd = 0x2A8, kAABBRoot = 0x270, kAABBEnd = 0x274;
constexpr size_t kEmitterUpdate = 0x88, kEmitterRender = 0xA8, kEmitterTexture = 0xE8, kReferenceModel = 0x70,
                 kLightPriority = 0xB0;

// Controllers.
constexpr size_t kControllerSize = 12;
constexpr int32_t kPosition = 8, kOrientation = 20, kScale = 36;
constexpr uint8_t kBezierFlag = 0x10;

// (pointer, used, allocated): the pointer is a model-data offset.
struct Array {
    uint32_t offset = 0;
    uint32_t count = 0;
};

// Structures point at each other by offset, so a forged file can make many of them share one
// array (every node the same controller data, every mesh the same vertex list, every animation
// the same node tree) and a decoder read the same bytes over and over. Every array read is
// charged against this many times the file's size; past it the file fails, so decoding stays
// linear in the file's size. Real files read each array once or twice.
constexpr uint64_t kReadBudgetPerByte = 8;

// The two regions of one file, each bounds-checked on its own.
class File {
  public:
    File(std::span<const std::byte> bytes, const std::filesystem::path& path);

    // Checks the header against the file size; false (with the reader's error) when they disagree.
    bool open();

    Reader& reader() { return r_; }
    bool ok() const { return r_.ok(); }
    Error error() const { return r_.error(); }
    size_t modelSize() const { return modelSize_; }

    // Seeks to `offset` bytes into the structure at model-data offset `base`; the structure must
    // be `size` bytes long and lie inside the model data.
    bool seekStruct(uint32_t base, size_t size, size_t offset, std::string_view field);
    // Seeks to `offset` bytes into the model header (at model-data offset 0).
    bool seekModelHeader(size_t offset, std::string_view field);
    // Seeks to an array of `count` elements of `elementSize` bytes at a model-data offset, and
    // charges it to the read budget (kReadBudgetPerByte).
    bool seekModelArray(uint32_t offset, uint64_t count, uint64_t elementSize, std::string_view field);
    // Seeks to `count` elements of `elementSize` bytes at a raw-data offset (not null), charged
    // like seekModelArray.
    bool seekRawArray(uint32_t offset, uint64_t count, uint64_t elementSize, std::string_view field);

    Array array(std::string_view field);
    std::string name(size_t width, std::string_view field) { return r_.fixedString(width, field); }

  private:
    bool inside(size_t begin, uint64_t bytes, size_t regionBegin, size_t regionSize, std::string_view field,
                std::string_view region);
    bool charge(uint64_t bytes, std::string_view field);

    Reader r_;
    size_t modelSize_ = 0, rawBegin_ = 0, rawSize_ = 0;
    uint64_t budget_ = 0;
};

// What the decoders use from the model header.
struct ModelHeader {
    std::string name;
    uint32_t root = 0;
    Array animations;
    float animationScale = 1.0f;
    std::string supermodel; // empty when the file names none ("NULL")
};
bool readModelHeader(File& file, ModelHeader& header);

std::string lower(std::string_view s);
std::string hex(uint32_t value);

} // namespace horde::nwn
