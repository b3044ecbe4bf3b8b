#pragma once
// Escape from Monkey Island (2000) creatures: a .meshb mesh, a .sklb skeleton read through
// LoadOptions::skeleton, and .animb clips bound by bone name. Layout and decisions:
// docs/formats/emi.md. The folder's one internal header, in reading order: strings and names
// (file.cpp), which file is which (load.cpp), the skeleton (decode_skeleton.cpp), the mesh
// (decode_mesh.cpp) and its bone weights (decode_bone_infos.cpp), the clips (decode_anim.cpp),
// what a file is without decoding it (survey.cpp) and the writer (write.cpp). The entry is
// format.cpp.
#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>

#include "format.h"
#include "reader.h"

namespace horde::emi {

// ---- The files (file.cpp, load.cpp) ----

// Y up, left-handed, counter-clockwise fronts in the file, a metre a unit (docs/formats/emi.md,
// "Handedness and winding"): the reader gives models these axes and the writer converts into them.
Axes fileAxes();

// EMI's string: a uint32 length that counts the terminating NUL, then the bytes.
std::string readString(Reader& r, std::string_view field);

// Records a failure at `offset` and returns it.
inline Error failedAt(Reader& r, size_t offset, std::string_view field, std::string_view reason) {
    r.failAt(offset, field, reason);
    return r.error();
}

// EMI looks joints up by name without regard to case (ScummVM's Skeleton keeps a
// case-insensitive map). Hashed, so forged files with 65535 joints stay linear.
class NameIndex {
  public:
    NameIndex() = default;
    explicit NameIndex(const Model& model);
    // Records `name` for `node` unless the name is already taken; false when it was.
    bool add(std::string_view name, int32_t node);
    int32_t find(std::string_view name) const; // -1 when absent

  private:
    std::unordered_map<std::string, int32_t> nodes_;
};

// A .meshb (with options.skeleton when it is skinned) or a .sklb alone.
Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator);

// ---- The decoders (decode_*.cpp) ----

// Appends the skeleton's joints to model.nodes.
Status readSkeleton(const std::filesystem::path& path, std::span<const std::byte> bytes, Model& model);

// Decodes the mesh; it is skinned against model.nodes when `skinned` (a skeleton was read).
Status readMesh(const std::filesystem::path& path, std::span<const std::byte> bytes, bool skinned,
                MeshAllocator& allocator, Model& model);

// The mesh's own identity root, named after it, when the source has no node of its name and it
// holds nothing else (Format::addedNodes): readMesh adds it, as the format has no node for a mesh.
AddedNodes addedNodes(const Model& source, const Model& read);

// What the bone infos held that the four-influence streams cannot, for the model's warnings.
struct InfluenceReport {
    uint32_t reduced = 0;    // vertices that lost influences to the four strongest
    float droppedMax = 0.0f; // the largest normalized weight they lost
    uint32_t unbound = 0;    // vertices left with no weight
};

// The mesh's bone infos into its joint and weight streams, each vertex reduced to its four
// strongest influences (decode_bone_infos.cpp). `jointOf` maps the mesh's bone list to skin joints,
// -1 for a bone the skeleton lacks. False through `r`, naming the first bad entry.
bool decodeBoneInfos(Reader& r, std::span<const std::byte> infos, size_t infosAt, std::span<const int32_t> jointOf,
                     MeshArrays& a, InfluenceReport& report);

Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target);

// ---- The survey (survey.cpp) ----

// A mesh, a skeleton, or an animation naming the bones it keys, by extension (Format::survey).
Result<FileSurvey> survey(const std::filesystem::path& path, std::span<const std::byte> bytes);

// ---- The writer (write.cpp) ----

// Writes the mesh, its skeleton (skeletonPathFor) and its clips (.animb) beside it, and reports
// the two.
Result<Companions> write(const Model& model, const std::filesystem::path& path);

// mk.meshb -> mk.sklb in the same folder.
std::filesystem::path skeletonPathFor(const std::filesystem::path& meshPath);

} // namespace horde::emi
