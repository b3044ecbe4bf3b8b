#pragma once
// Star Wars: The Old Republic GAWB (.gr2 version 4) geometry and skeleton files. A creature is a
// mesh file plus a skeleton file (type 2) given as LoadOptions::skeleton. SWTOR animation files
// are not read; a model plays clips of any format whose joint names match its bones. The
// folder's one internal header, in reading order: the GAWB container (file.cpp), the load
// (load.cpp), the decoders of meshes, their vertices and skeletons (decode_*.cpp), what a file
// is without decoding it (survey.cpp), and the writer (write.cpp) with its encoder
// (write_file.cpp). The entry is format.cpp.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "model/mesh_storage.h"
#include "model/model.h"
#include "core/result.h"
#include "format.h"
#include "reader.h"

namespace horde::swtor {

// ---- The GAWB container (file.cpp) ----

// What the decoders and the writer share: the GAWB header and section sizes, strings reached
// through offsets, row-vector matrices, packed normals and half floats.
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
// pieces table; real files copy each once, and four times the file's size (and 1 MiB) leaves
// room for names referenced from several places.
Budget copyBudget(const Reader& r);

// Reads a uint32 string offset and returns the NUL-terminated string it points at, charged to
// `copies`; the reader moves past the offset only.
std::string readName(Reader& r, std::string_view field, Budget& copies);

// A row-vector 4x4 matrix (translation in floats 12-14) as the column-vector glm matrix that
// does the same: the file's rows are glm's columns, so the floats load in order.
glm::mat4 readMatrix(Reader& r, std::string_view field);

// Y up; sizes in decimetres (the Slicers' importer scales by 10 to reach metres). Faces wind
// counter-clockwise in a right-handed frame, as Blender builds them from the file unchanged.
// The reader gives models these axes and the writer converts into them.
Axes fileAxes();

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

// ---- The load (load.cpp) ----

// A mesh file (with options.skeleton, whose bones it binds to) or a skeleton file alone:
// skeleton bones become the nodes, each skinned mesh gets a skin over its own bone list
// (matched to the skeleton by name), attachments become socket nodes.
Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator);

// ---- Meshes (decode_mesh.cpp, decode_vertices.cpp) ----

// A GAWB file's mesh headers, pieces, per-mesh bone lists and material names, checked against
// the file size before anything is allocated; then one mesh's vertices and indices decoded
// straight into engine storage.
struct Piece {
    uint32_t firstTriangle = 0;
    uint32_t triangles = 0;
    int32_t material = -1; // into the material-name table, -1 for none
};

struct MeshInfo {
    std::string name;
    uint16_t mask = 0;        // vertex-format bits (above)
    uint16_t vertexSize = 0;
    uint32_t numVertices = 0;
    uint32_t numIndices = 0;
    uint32_t offsetVertices = 0;
    uint32_t offsetIndices = 0;
    std::vector<Piece> pieces;
    std::vector<std::string> bones; // the mesh's own bone list, which vertex bone indices index
};

// Check r.ok() after each.
std::vector<MeshInfo> readMeshes(Reader& r, const Header& h);
std::vector<std::string> readMaterialNames(Reader& r, const Header& h);

uint32_t uvSetCount(uint16_t mask);
// Storage for `m`; `skinned` keeps the skin bytes (false when there is no skeleton to bind to).
MeshLayout layoutFor(const MeshInfo& m, bool skinned);
// Decodes into arrays allocated from layoutFor(m, ...). Vertex bone indices stay indices into
// m.bones. A mesh without normals gets area-weighted face normals.
bool decodeMesh(Reader& r, const MeshInfo& m, MeshArrays& a);

// GAWB's interleaved vertices into the engine's separate streams: decodes the `m.numVertices` vertices in `vertices` (the bytes at m.offsetVertices) into `a`;
// joints and weights only when `a` has those streams. Fails through `r`, at the offending byte,
// when a weighted slot names a bone past the mesh's bone list.
bool decodeVertices(Reader& r, const MeshInfo& m, std::span<const std::byte> vertices, MeshArrays& a);

// ---- Skeletons (decode_skeleton.cpp) ----

// The skeleton section of a skeleton file (type 2) and the attachment table any GAWB file may
// carry, decoded into plain records; load.cpp turns them into nodes and sockets.
struct Bone {
    std::string name;
    int32_t parent = -1;        // precedes the bone (checked)
    glm::mat4 boneToParent{1};  // rest local transform
    glm::mat4 rootToBone{1};    // inverse bind: model space -> bone space
};

struct Attachment {
    std::string name;
    std::string bone;
    glm::mat4 transform{1};     // relative to the bone
};

// Check r.ok() after each.
std::vector<Bone> readBones(Reader& r, const Header& h);
std::vector<Attachment> readAttachments(Reader& r, const Header& h);

// ---- The survey (survey.cpp) ----

// A mesh or a skeleton, by its header's type (Format::survey).
Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes);

// ---- The writer (write.cpp, write_file.cpp) ----

// Writes the meshes to `path` and, when any mesh is skinned, the skeleton beside it
// (skeletonPathFor(path)), which it reports.
Result<Companions> write(const Model& model, const std::filesystem::path& path);

// body.gr2 -> body_skeleton.gr2 in the same folder.
std::filesystem::path skeletonPathFor(const std::filesystem::path& meshPath);

// Encodes a GAWB version 4 file from plain records: sections in the order the spec lists them,
// each 16-byte aligned, strings pooled after the bone lists, every offset field listed in the
// cached-offsets table, an empty BNRY block, the per-mesh boxes and the EGCD trailer.
struct Box {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
};

struct PieceOut {
    uint32_t firstTriangle = 0;
    uint32_t triangles = 0;
    int32_t material = -1;
    int32_t index = -1;
    Box box;
};

struct MeshBoneOut {
    std::string name;
    Box box;
};

struct MeshOut {
    std::string name;
    uint32_t flags = 0;
    uint16_t mask = 0;
    uint32_t vertexCount = 0;
    std::vector<std::byte> vertices; // vertexCount * vertexSizeFor(mask) bytes
    std::vector<uint16_t> indices;
    std::vector<PieceOut> pieces;
    std::vector<MeshBoneOut> bones;
    Box box;
};

struct BoneOut {
    std::string name;
    int32_t parent = -1;
    glm::mat4 boneToParent{1.0f};
    glm::mat4 rootToBone{1.0f};
};

struct AttachmentOut {
    std::string name;
    std::string bone;
    glm::mat4 transform{1.0f};
};

struct FileOut {
    uint32_t type = 0;
    std::vector<MeshOut> meshes;
    std::vector<std::string> materials;
    std::vector<BoneOut> bones;
    std::vector<AttachmentOut> attachments;
    Box box;
};

std::vector<std::byte> encode(const FileOut& file);

} // namespace horde::swtor
