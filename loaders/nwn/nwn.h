#pragma once
// Neverwinter Nights MDL: a model holds geometry, skins and animations in one file, and inherits
// animations through a chain of supermodels. One extension holds two encodings: compiled
// (binary) and ASCII text. The folder's one internal header, in reading order: the binary
// container (file.cpp), the load (load.cpp, load_supermodel.cpp), the decoders of the node tree,
// controllers, meshes and animations (decode_*.cpp), the ASCII text (text.cpp) and its decoders
// (decode_ascii*.cpp), what a file is without decoding it (survey.cpp), and the writers
// (write.cpp with its plan write_plan.cpp, write_ascii.cpp). The entries are format.cpp.
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "core/result.h"
#include "core/text.h"
#include "model/model.h"
#include "format.h"
#include "reader.h"

namespace horde::nwn {

// ---- The container (file.cpp) ----

// The binary MDL container: a 12-byte header, then the model data (structures, addressed by
// offsets from its start, 0 = null) and the raw data (vertex streams, addressed by offsets from
// its start, 0xFFFFFFFF = null). Every structure offset the decoders use is listed here.
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
// Dangly extension (nwnexplorer CNwnMdlDanglyMeshNode): constraints (model-data float array,
// one per vertex), displacement, tightness, period.
constexpr size_t kDanglyConstraints = 0x270, kDanglyDisplacement = 0x27C;
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
    // charges it to the file's reads (kReadBudgetPerByte).
    bool seekModelArray(uint32_t offset, uint64_t count, uint64_t elementSize, std::string_view field);
    // Seeks to `count` elements of `elementSize` bytes at a raw-data offset (not null), charged
    // like seekModelArray.
    bool seekRawArray(uint32_t offset, uint64_t count, uint64_t elementSize, std::string_view field);

    Array array(std::string_view field);
    std::string name(size_t width, std::string_view field) { return r_.fixedString(width, field); }

  private:
    bool inside(size_t begin, uint64_t bytes, size_t regionBegin, size_t regionSize, std::string_view field,
                std::string_view region);

    Reader r_;
    Budget reads_;
    size_t modelSize_ = 0, rawBegin_ = 0, rawSize_ = 0;
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

// Z up, right-handed, counter-clockwise fronts, a metre a unit (both encodings): the readers give
// models these axes and the writers convert into them.
Axes fileAxes();

// The material a mesh node names by its bitmap: the texture of that name (the game opens .dds,
// else .tga), the node's diffuse colour as base colour, its alpha (below 1: blended). The first
// node naming a bitmap decides its colours (docs/formats/nwn.md).
void addMaterial(Model& model, const std::string& bitmap, glm::vec3 diffuse, float alpha);
// A mesh node's mesh, with storage for `layout` (16-bit indices where its vertex count allows),
// and where the node's vertices go (both encodings): a skin's are given in the skin node's space,
// and horde keeps skinned vertices in model space.
struct NodeMesh {
    Mesh mesh;
    glm::mat4 place{1.0f}; // the node's vertex space -> the mesh's
    glm::mat3 turn{1.0f};  // the same for normals

    glm::vec3 position(glm::vec3 p) const { return glm::vec3(place * glm::vec4(p, 1.0f)); }
    glm::vec3 normal(glm::vec3 n) const {
        glm::vec3 m = turn * n;
        return glm::length(m) > 0.0f ? glm::normalize(m) : m;
    }
};
NodeMesh startMesh(const std::string& node, uint32_t index, MeshLayout layout,
                   const std::vector<glm::mat4>& restModel, MeshAllocator& allocator);
// What the writers put in a mesh node for its material: the base colour as diffuse (white
// when the model holds no material of that name).
glm::vec4 materialColour(const Model& model, const std::string& material);
std::string hex(uint32_t value);

// ---- The load (load.cpp, load_supermodel.cpp) ----

// The model's geometry, meshes and animations, then the clips its supermodels add.
Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes, const LoadOptions& options,
                        MeshAllocator& allocator);
// The animations of another MDL (either encoding), bound to `target` by node name (for --anim).
Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target);

// Every node's rest model transform (parents precede children).
std::vector<glm::mat4> restTransforms(const Model& model);

// What a node of these kinds is, as Model::extras (both encodings).
void reportNode(uint32_t flags, const std::string& name, Model& model);

// The model's animation scale, kept for --anim files bound to it later.
constexpr const char* kAnimationScaleExtra = "animation scale";

// Supermodels: a model names the model it inherits animations from, which may name its own.
// Clips the model does not define itself (by name, case-insensitively) are taken from the
// first model in the chain that has them, their positions multiplied by the animation scales
// of the models below it in the chain.
constexpr int kMaxSupermodelChain = 32;

// `<name>.mdl` (any letter case) beside `model`, else in a search path; empty when absent.
std::filesystem::path findSupermodel(const std::filesystem::path& model, const std::string& name,
                                     const std::vector<std::filesystem::path>& searchPaths);

// A supermodel that cannot be found is a warning (its clips are missing); one that cannot be
// read, or a chain that loops, is an error.
Status inheritClips(const std::filesystem::path& path, const ModelHeader& header, const LoadOptions& options, Model& model);

// ---- The node tree (decode_nodes.cpp) ----

// A geometry's node tree, walked through the child pointer arrays in pre-order (the order the
// skin's bone table counts in). The geometry header's node count is not used: it includes the
// supermodel's nodes.
struct RawNode {
    uint32_t offset = 0; // model-data offset of the node header
    int32_t parent = -1;
    std::string name;
    uint32_t flags = 0;
    Array controllerKeys, controllerData;
};

constexpr uint32_t kMaxDepth = 1024;

// Fails on a child pointer that reaches a node twice (a cycle or a shared child), on nesting
// deeper than kMaxDepth, and on more nodes than the model data can hold.
bool walkTree(File& file, uint32_t root, std::vector<RawNode>& nodes);

// Size of the node structure its flags describe (header plus every extension).
size_t nodeSize(uint32_t flags);

// ---- Controllers (decode_controllers.cpp) ----

// Controllers: the keyed properties of a node. Position (3 values), orientation (quaternion
// x, y, z, w) and scale (1 value, uniform) become horde channels; the others (lights,
// emitters, mesh colours) are skipped. A node's rest TRS in the model geometry is the first
// key of each of its controllers (a static controller is one key at time 0).
struct Track {
    ChannelPath path = ChannelPath::Translation;
    Interpolation interpolation = Interpolation::Linear;
    std::vector<float> times;
    std::vector<glm::vec4> values; // CubicSpline: in-tangent, value, out-tangent per key

    glm::vec4 first() const { return values[interpolation == Interpolation::CubicSpline ? 1 : 0]; }
};

bool readTracks(File& file, const RawNode& node, std::vector<Track>& tracks);

// Bezier keys store, per key, the value, the incoming control point and the outgoing control
// point. Each segment is a cubic Bezier in the normalized segment time s; its Hermite form has
// end slopes 3(out_k - v_k) and 3(v_k+1 - in_k+1) per unit s, i.e. per second divided by the
// segment length: the glTF tangents, exactly. End keys get zero tangents on their open side.
// `controls` holds value, in-control, out-control per key; returns in-tangent, value, out-tangent.
std::vector<glm::vec4> bezierToCubicSpline(const std::vector<float>& times, const std::vector<glm::vec4>& controls);

// ---- Meshes (decode_mesh.cpp) ----

// Mesh nodes: trimesh, skin, dangly and animmesh nodes become horde meshes; AABB walkmeshes and
// meshes with render 0 are checked and reported (Model::extras) but not drawn.
//
// `restModel`: every node's rest model transform (skin vertices are stored in their node's
// space and moved to model space here; joints' inverse binds come from the rest pose).
bool decodeMesh(File& file, const std::vector<RawNode>& nodes, uint32_t index, const std::vector<glm::mat4>& restModel,
                Model& model, MeshAllocator& allocator);

// ---- Animations (decode_anim.cpp) ----

// Animations: each is a geometry of its own (usually dummy nodes holding controllers) with a
// length, a transition time, an animation root and events. Its nodes bind to the model's nodes
// by name, case-insensitively. Position keys are absolute local positions; clips played on
// another model (inherited from a supermodel, or passed with --anim) have them multiplied by
// that model's animation scale.
//
// Decodes every animation of `file` (header already read) against `target`'s nodes. Binding
// findings (unmatched nodes) go to target.warnings, lengths and events to target.extras.
bool decodeClips(File& file, const ModelHeader& header, float positionScale, Model& target,
                 std::vector<Clip>& clips);

// ---- ASCII MDL: the text (text.cpp) ----

// An MDL whose first 32-bit word is not zero is ASCII text (xoreos decides the same way).
bool isAscii(std::span<const std::byte> bytes);

// Where a token starts (1-based), for errors found after its line was read.
struct TextAt {
    uint32_t line = 0, column = 0;
};

// A cursor over ASCII MDL text, read in place line by line: no token list is built. Tokens are
// separated by spaces, tabs and CRs; '#' starts a comment that runs to the end of its line.
// Input is untrusted: any byte may appear, lines may be of any length. Errors are sticky and
// keep reader.h's shape with line and column for the offset: "file: line L, column C: field:
// reason"; after one, every read returns empty or zero.
class Text {
  public:
    Text(std::span<const std::byte> bytes, std::string file);

    // Moves to the next line that holds a token; false at the end of the text or after an error.
    bool nextLine();
    // Puts the current line back, for the next nextLine() to return again.
    void unreadLine();
    // The next token of the current line (empty at its end), taken or only looked at.
    std::string_view word();
    std::string_view peek();
    // The next token as a finite float, or as an unsigned integer; a missing token, trailing
    // junk, a value out of range or a NaN/infinity fails naming `field`.
    float number(std::string_view field);
    uint32_t integer(std::string_view field);
    // A 32-bit mask, written signed or unsigned (smoothing groups): -2147483648 is 0x80000000.
    uint32_t bits(std::string_view field);
    // A row count about to size an allocation: fails when the text left cannot hold that many
    // rows (two bytes each at the least).
    uint32_t count(std::string_view field);

    TextAt at() const; // of the next token
    bool fail(std::string_view field, std::string_view reason) { return failAt(at(), field, reason); }
    bool failAt(TextAt at, std::string_view field, std::string_view reason);
    bool ok() const { return error_.empty(); }
    Error error() const { return Error{error_}; }
    const std::string& file() const { return file_; }

    // A token as printable ASCII, cut to 40 characters, for messages.
    static std::string quote(std::string_view token);

  private:
    TextAt where(const char* p) const { return {lineNumber_, uint32_t(p - line_) + 1}; }

    const char *end_, *next_;                          // the whole text; the next line's start
    const char *line_ = nullptr, *content_ = nullptr, *cursor_ = nullptr; // current line, its end before any comment
    uint32_t lineNumber_ = 0;
    std::string file_, error_;
};

// ---- ASCII MDL: the grammar (decode_ascii.cpp) ----

// Faces index positions and texture vertices separately: three of each, a smoothing group and a
// material (walkmesh surface; not used for drawing).
struct AsciiFace {
    std::array<uint32_t, 3> v{}, t{};
    uint32_t group = 0;
};

// One `weights` row: up to four (bone, weight) pairs; bones index AsciiMesh::bones.
struct AsciiWeights {
    uint32_t count = 0;
    std::array<uint32_t, 4> bone{};
    glm::vec4 weight{0.0f};
};

struct AsciiMesh {
    std::string bitmap;
    glm::vec3 diffuse{1.0f};
    float alpha = 1.0f;
    bool render = true;
    std::vector<glm::vec3> verts, normals;
    std::array<std::vector<glm::vec2>, 2> tverts; // tverts, tverts1
    std::vector<AsciiFace> faces;
    std::vector<std::string> bones; // distinct names in `weights`, in order of first use
    std::vector<AsciiWeights> weights;
    std::vector<float> constraints; // danglymesh: per position
    glm::vec3 dangle{0.0f};         // danglymesh: displacement, tightness, period
    std::vector<glm::vec3> colors;  // vertex colours, RGB per position (alpha 1)
    TextAt facesAt, weightsAt, normalsAt, colorsAt, constraintsAt;
};

struct AsciiNode {
    std::string type, name, parent; // parent empty for NULL
    uint32_t flags = kHasHeader;    // the binary flag mask of its type (patch and unknown types: header only)
    bool unknownType = false;
    TextAt at, parentAt;
    // Single-value controllers (the rest pose in the geometry), and keyed ones.
    glm::vec3 position{0.0f};
    glm::vec4 orientation{0, 0, 0, 1}; // quaternion x, y, z, w
    float scale = 1.0f;
    uint32_t single = 0; // which single values were given: 1 position, 2 orientation, 4 scale
    std::vector<Track> tracks;
    std::unique_ptr<AsciiMesh> mesh; // trimesh, skin, danglymesh, animmesh, aabb (not in animations)
};

struct AsciiAnim {
    std::string name, root;
    float length = 0.0f, transition = 0.0f;
    std::vector<std::pair<float, std::string>> events;
    std::vector<AsciiNode> nodes;
};

struct AsciiModel {
    std::string name, supermodel; // supermodel empty for NULL
    float animationScale = 1.0f;
    std::vector<AsciiNode> nodes;
    std::vector<AsciiAnim> anims;
    // Lines whose keyword horde does not read are skipped (materials, emitter and light
    // settings, AABB trees); how many, and the first, are reported (Model::extras).
    uint32_t skipped = 0;
    TextAt firstSkipped;
    std::string firstSkippedWord;
};

// Reads the whole text: from `newmodel` to `donemodel`.
bool parseAscii(Text& text, AsciiModel& model);

// ---- ASCII MDL: meshes, nodes and clips (decode_ascii_mesh.cpp, load_ascii.cpp) ----

// One vertex per distinct (position, texture vertex, smoothing group) corner, ordered by
// position index, then by first use; normals from the file when given per position, else
// area-weighted over the faces sharing the position and smoothing group.
bool decodeAsciiMesh(Text& text, const AsciiNode& node, uint32_t index, const std::vector<glm::mat4>& restModel,
                     Model& model, MeshAllocator& allocator);

// The ASCII model: nodes in pre-order (parents first, whatever their order in the file), meshes,
// clips, then the clips its supermodels add.
Result<Model> readAsciiModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                             const LoadOptions& options, MeshAllocator& allocator);
// The animations of an ASCII model bound to `target` (supermodels, --anim), and its header.
bool readAsciiClips(Text& text, float positionScale, Model& target, ModelHeader& header, std::vector<Clip>& clips);

// Binds animated nodes to a model's nodes by name, ignoring case; a keyed node that matches none
// is named in the clip's absentNodes (decode_anim.cpp; both encodings).
class NodeBinder {
  public:
    explicit NodeBinder(const Model& target);
    // Moves `tracks` into `clip` as channels of the node named `name`, positions times `scale`.
    void bind(const std::string& name, std::vector<Track>& tracks, float scale, Clip& clip);

  private:
    std::unordered_map<std::string, uint32_t> byName_;
};

// One warning for all of `clips` that key nodes the model lacks (Clip::absentNodes): once every
// clip of a model, inherited ones too, is read, or those of one --anim file. Empty when none do.
std::string absentNodesWarning(std::span<const Clip> clips);

// "clip 'x': length 1 s, transition 0.25 s, root 'r', event 'hit' at 0.5 s" (both encodings).
std::string describeClip(const std::string& name, float length, float transition, const std::string& root,
                         const std::vector<std::pair<float, std::string>>& events);

// The clips and header of an MDL in either encoding (load.cpp; supermodels).
bool readClipsOf(const std::filesystem::path& path, std::span<const std::byte> bytes, float positionScale,
                 Model& target, ModelHeader& header, std::vector<Clip>& clips, Error& error);

// ---- The survey (survey.cpp) ----

// A model naming its supermodel, in either encoding (Format::survey).
Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes);

// ---- The writer (write.cpp, write_plan.cpp) ----

// The transition time written for a clip: its own where a file gave it one, else the 0.25 s the
// game's own models mostly carry.
inline float transitionOf(const Clip& clip) {
    return clip.transition >= 0.0f ? clip.transition : 0.25f;
}

// Writes a model as a binary MDL: a root dummy named after the file, one node per model node
// (rest TRS as static controllers), each mesh as trimesh nodes (static) or skin nodes (skinned,
// split so that no skin node uses more than the 17 bones its table holds), and every clip as an
// in-file animation with keys at the clip's own times.
Result<Companions> write(const Model& model, const std::filesystem::path& path);

// Writes the same plan as ASCII text (write_ascii.cpp): one position, texture vertex and normal
// per vertex, faces naming each vertex for both, so that reading it back gives the vertices in
// the same order; rotations as axis and angle; numbers with nine significant digits (exact for
// floats).
Result<Companions> writeAscii(const Model& model, const std::filesystem::path& path);

// The writer's plan: the file's node tree in pre-order, in the file's axes, with every mesh cut
// into the pieces the format can hold. Built first so that byte emission needs no decisions.

// Source axes -> NWN axes (Z up, right-handed, counter-clockwise fronts): a signed permutation,
// and source units -> metres (the reader takes NWN files as metres).
struct AxisChange {
    glm::mat3 axes{1.0f};
    float units = 1.0f;
    float determinant = 1.0f;
    bool flipWinding = false;

    glm::vec3 point(glm::vec3 p) const { return axes * p * units; }
    glm::vec3 direction(glm::vec3 v) const { return axes * v; }
    // Conjugating a rotation by a (possibly improper) axis change is linear in the quaternion:
    // the vector part turns with the axes and takes the determinant's sign.
    glm::vec4 rotation(glm::vec4 q) const { return glm::vec4(determinant * (axes * glm::vec3(q)), q.w); }
};
AxisChange toNwnAxes(const Axes& source);

// A channel in file axes as controller rows (write_keys.cpp, both writers): per key its time,
// then `columns` values (three times that for bezier keys: value, in-control, out-control).
// Step keys become pairs of linear keys: each value is repeated at the next key's time, so the
// value jumps exactly there. Cubic-spline keys become bezier keys whose control points reproduce
// the same curve (the inverse of bezierToCubicSpline).
struct KeyRows {
    int32_t type = kPosition;
    int columns = 3;
    bool bezier = false;
    std::vector<float> times, values;
};
KeyRows channelRows(const Channel& ch, const AxisChange& change);

// The ASCII writer keeps a rotation as axis and angle, so only unit quaternions survive it: a
// cubic rotation channel is written as bezier keys when its values and control points are all
// unit length (true of every curve read from an NWN file), else resampled as linear keys.
bool rotationBezierIsExact(const Channel& ch);
// Linear (slerp) keys at the channel's key times and, within each segment, at 2^m evenly spaced
// times, m the smallest for which the angle between the resampled and the source rotation stays
// within `bound` radians at kResampleProbes - 1 evenly spaced times inside every sub-interval,
// both sampled by the CPU reference (anim/reference.h); at most kMaxResampleSteps per segment.
constexpr double kResampleBound = 1e-4;
constexpr int kResampleProbes = 16;
constexpr uint32_t kMaxResampleSteps = 1024;
Channel resampleRotation(const Channel& ch, double bound = kResampleBound);

// One piece of a mesh: at most 65535 vertices and, when skinned, at most 17 bones.
struct MeshPiece {
    std::string material;
    std::vector<uint32_t> vertices;  // source vertex of each piece vertex
    std::vector<uint16_t> indices;   // piece-local, three per triangle, in file winding
    std::vector<uint32_t> bones;     // skinned: file node index of each bone slot
    std::vector<glm::i16vec4> boneRefs; // skinned: bone slot per influence, -1 unused
    std::vector<glm::vec4> weights;  // skinned
};

struct PlannedNode {
    std::string name;
    int32_t parent = -1;
    std::vector<uint32_t> children;
    glm::vec3 translation{0.0f};
    glm::vec4 rotation{0, 0, 0, 1}; // x, y, z, w
    float scale = 1.0f;
    int32_t source = -1;  // model node, -1 for nodes the writer adds
    int32_t mesh = -1;    // source mesh of a piece node
    int32_t piece = -1;   // index into Plan::pieces
};

struct Plan {
    AxisChange change;
    std::string name;
    std::vector<PlannedNode> nodes;      // pre-order: parents first, children in order
    std::vector<uint32_t> fileIndex;     // model node -> file node
    std::vector<MeshPiece> pieces;
    std::vector<glm::mat4> restModel;    // per file node, in file axes
};

// The plan for a file at `path`: its root is named after the file (lower case, at most 31
// characters; "model" when that leaves nothing).
Result<Plan> planModel(const Model& model, const std::filesystem::path& path);

// Names may repeat in a model, as in the game's own files, but the format binds some things by
// name, to the first node of each name (ignoring case) in file order: an animation's nodes always,
// and in ASCII files (`namesBind`) a node's parent and a skin's bones too. Fails naming what a
// file could not hold: a clip keying, a node hanging from or a skin weighing a later node of a
// repeated name.
Status checkNameBinding(const Model& model, const Plan& plan, bool namesBind);

// A mesh piece sits on its mesh's node when that node holds no other piece; a node's second and
// later pieces (several materials, or more vertices or bones than one mesh node holds) become its
// children named "<node cut to 26 characters>_<k>", k from 1 (docs/formats/nwn.md; validate
// recognises exactly this).
std::string pieceNodeName(const std::string& node, size_t k);
// What the writers added that a model read back from their file shows (Format::addedNodes): the
// root named after the file, when the read model has one root and the source has no node of its
// name, and piece nodes: childless, at rest, named by pieceNodeName after a parent the source has.
AddedNodes addedNodes(const Model& source, const Model& read);
// Source mesh space -> the space of the piece's file node (in file axes): static vertices are in
// their node's space already; skinned ones (model space) move into the node's space, as the
// format stores skin vertices.
glm::mat4 pieceSpace(const Model& model, const Plan& plan, size_t node);
// A normal into that space (unchanged, bit for bit, when the space is the source's).
glm::vec3 turnNormal(const glm::mat4& space, glm::vec3 normal);

} // namespace horde::nwn
