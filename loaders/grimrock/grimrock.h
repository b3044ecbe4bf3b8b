#pragma once
// Legend of Grimrock: MDL1 models (node tree, mesh entities, lights) and ANIM animation files,
// which bind to a model's nodes by name. The folder's one internal header, in reading order:
// the file's basic types and axes (file.cpp, file_axes.cpp), the model (load.cpp) and its mesh
// entities (decode_mesh_scan.cpp, decode_mesh.cpp), animations (decode_anim.cpp), what a file
// is without decoding it (survey.cpp), and the writer (write.cpp, write_anim.cpp). The entry is
// format.cpp.
#include <array>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/reference.h"
#include "model/model.h"
#include "byte_writer.h"
#include "core/result.h"
#include "format.h"
#include "reader.h"

namespace horde::grimrock {

// ---- The file (file.cpp, file_axes.cpp) ----

// Vertex array slots of a MeshData, in file order.
enum VertexArraySlot : int {
    kPosition = 0, kNormal = 1, kTangent = 2, kBitangent = 3, kColor = 4, kTexcoord0 = 5, kTexcoord1 = 6,
    kBoneIndex = 13, kBoneWeight = 14, kVertexArrays = 15
};
enum DataType : int32_t { kByte = 0, kInt16 = 1, kInt32 = 2, kFloat32 = 3 };

// Y up, left-handed, clockwise front faces: what the game's D3D-style renderer uses.
Axes fileAxes();

// Whether the file opens with `magic` ("MDL1" a model, "ANIM" an animation): magic alone tells
// them apart, as .model and .animation are names other games use too.
bool hasMagic(std::span<const std::byte> bytes, const char* magic);

// int32 length + bytes, no terminator.
std::string readString(Reader& r, std::string_view field);
// Three basis columns then the translation: p' = x*baseX + y*baseY + z*baseZ + translation.
glm::mat4 readMat4x3(Reader& r, std::string_view field);

// Grimrock's strings (an int32 length, no terminator) and Mat4x3 on top of the plain writer.
struct Output : ByteWriter {
    void string(std::string_view s) {
        i32(int32_t(s.size()));
        text(s);
    }
    void mat4x3(const glm::mat4& m) {
        for (int c = 0; c < 4; ++c) vec3(glm::vec3(m[c]));
    }
    Status save(const std::filesystem::path& path) const { return saveBytes(bytes, path); }
};

// Moves a model from its own axes into Grimrock's (Y up, left-handed, clockwise front faces)
// for writing, so that horde shows the written file exactly as it showed the source: for a
// right-handed model this mirrors Z, which also turns counter-clockwise fronts clockwise.
struct Conversion {
    glm::dmat3 axes{1.0};     // a signed permutation: source axes -> file axes
    double units = 1.0;       // source units -> file units (each side's metres per unit)
    bool flipWinding = false; // when the source's front faces would come out reversed

    glm::vec3 point(glm::vec3 p) const { return glm::vec3(axes * glm::dvec3(p) * units); }
    glm::vec3 direction(glm::vec3 v) const { return glm::vec3(axes * glm::dvec3(v)); }
    // A transform conjugated into file axes and units: what maps file-space points as the source
    // mapped its own.
    glm::dmat4 transform(const glm::dmat4& m) const;
    TrsD trs(const TrsD& source) const;
};

Conversion toFileAxes(const Axes& source);
// The other way: from Grimrock's axes into `target`'s, for animation keys bound to a model that
// came from another format.
Conversion fromFileAxes(const Axes& target);

// ---- The model (load.cpp) ----

// Decodes an MDL1 model file: nodes, mesh entities (into the allocator's storage) and lights,
// then gives its materials their definitions (applyMaterials). An ANIM file is refused with a
// word on how to pass it.
Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator);

// ---- Mesh entities (decode_mesh_scan.cpp, decode_mesh.cpp) ----

// A node's MeshEntity: scanned first (headers, counts and where each array lies, all checked
// against the file), then decoded straight into storage sized from the scan.
struct VertexArray {
    int32_t type = 0, dim = 0, stride = 0;
    size_t offset = 0;                 // file offset of the first vertex, for error messages
    std::span<const std::byte> data;   // vertexCount * stride bytes
    bool present() const { return stride != 0; }
};

struct Bone {
    int32_t node = 0;
    glm::mat4 invRest{1.0f};
};

struct MeshScan {
    uint32_t vertexCount = 0;
    std::array<VertexArray, 15> arrays;
    uint32_t indexCount = 0;
    size_t indicesOffset = 0;
    std::span<const std::byte> indices;
    std::vector<Submesh> segments;
    std::vector<Bone> bones;
    bool castShadow = false;
    bool skinned() const;
};

// Reads a MeshEntity up to its end; `nodeCount` bounds the bone node indices.
MeshScan scanMeshEntity(Reader& r, uint32_t nodeCount);

// Allocates the mesh and decodes every array once into it; adds the mesh (and its skin) to
// `model`. Fails through `r` with the offset of the offending value.
bool decodeMesh(Reader& r, const MeshScan& scan, uint32_t node, Model& model, MeshAllocator& allocator);

// ---- Animations (decode_anim_scan.cpp, decode_anim.cpp) ----

// An ANIM file scanned: the header and where each item's keys lie, every count checked against
// the file, no key decoded. Version 1 (Grimrock 1, the spec) stores an item's keys as one array of
// 40-byte keys (position, rotation, scale); version 2 (Grimrock 2) as three arrays, one a path,
// each with its own count. Either way each path is a track: `count` values `stride` bytes apart.
struct KeyTrack {
    int32_t count = 0;
    size_t at = 0;     // file offset of the first value
    size_t stride = 0; // bytes from one value to the next
    std::string field; // how errors name value k: field + "[k]" + member
    std::string member;
};

struct AnimItem {
    std::string node;
    std::string field; // "items[i]"
    KeyTrack position, rotation, scale;
    bool keyed() const { return position.count > 0 || rotation.count > 0 || scale.count > 0; }
};

struct AnimScan {
    int32_t version = 0;
    std::string name;
    float fps = 0.0f;
    int32_t frames = 0;
    std::vector<AnimItem> items;
};

// Reads the header and every item's counts, failing through `r` (a version other than 1 or 2, a
// negative count, a count whose values do not fit in the file).
AnimScan scanAnimation(Reader& r);

// Decodes an ANIM file into one clip bound to `target`'s nodes by name.
Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target);

// ---- The survey (survey.cpp) ----

// A model, or an animation naming the nodes it keys (Format::survey).
Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes);

// ---- The writer (write.cpp, write_anim.cpp) ----

// defineMaterial{...} blocks of a Lua script, read as data (decode_materials.cpp): each with a
// literal name becomes a Material (a later one of the same name replaces an earlier one, as the
// game's script order does); what could not be read is a warning naming file and line.
struct MaterialDefinitions {
    std::vector<Material> materials;
    std::vector<std::string> warnings;
};
MaterialDefinitions readMaterialDefinitions(const std::string& file, std::string_view text);

// Gives each of `model`'s submesh material names its definition (load_materials.cpp): from the
// --materials files in order, else from the .lua files found under the search paths. A material
// file named with --materials that cannot be read fails the load; one found by the search is
// skipped with a warning. A name no file defines is left undefined (finalizeMeshes, loadModel's
// warning); when no file defined anything, one warning says where definitions are looked for.
Status applyMaterials(Model& model, const LoadOptions& options);

// Writes a model as MDL1 and each of its clips as an ANIM file beside it (animationPath), which
// it reports.
Result<Companions> write(const Model& model, const std::filesystem::path& path);
Status writeModel(const Model& model, const Conversion& conversion, const std::filesystem::path& path);
Status writeAnimation(const Model& model, const Clip& clip, const Conversion& conversion, const std::filesystem::path& path);
// `m.model` -> `m_<clip>.animation`, the clip name reduced to characters safe in file names.
std::filesystem::path animationPath(const std::filesystem::path& modelPath, const std::string& clipName);

} // namespace horde::grimrock
