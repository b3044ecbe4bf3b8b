#pragma once
// glTF 2.0 (.glb and .gltf with embedded or external buffers), read and written through
// tinygltf. See docs/formats/gltf.md for what is kept, how axes are converted and where glTF
// cannot say exactly what a horde clip does. The folder's one internal header, in reading order:
// the parse and the checked views of its buffers (file.cpp, file_accessor.cpp), the load
// (load.cpp), meshes and animations (decode_mesh.cpp, decode_anim.cpp), and the writer
// (write.cpp) with its axes (write_frame.cpp). The entry is format.cpp.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <tiny_gltf.h>

#include "model/model.h"
#include "core/result.h"
#include "format.h"
#include "reader.h"

namespace horde::gltf {

// ---- The file (file.cpp, file_container.cpp, file_accessor.cpp) ----

// Right-handed, Y up, counter-clockwise fronts, in metres: horde's world itself. The reader gives
// models these axes and the writer converts into them.
Axes fileAxes();

// tinygltf's parse of a .glb or .gltf held in memory, after the checks below. Images are not
// decoded; external buffers are read only from the model's own folder.
Result<tinygltf::Model> parse(const std::filesystem::path& path, std::span<const std::byte> bytes);

// Before tinygltf (file_container.cpp), so that errors name the byte offset or the JSON path and
// the field in words: a GLB's header and chunks (a file cut short says where it ends) and its
// JSON chunk, returned; a .gltf's JSON. Each JSON is checked for syntax (its byte offset, line
// and column) and for the properties glTF 2.0 requires of the objects horde reads.
Result<std::span<const std::byte>> glbJson(const std::filesystem::path& path,
                                           std::span<const std::byte> bytes);
Status checkJson(const std::filesystem::path& path, std::span<const std::byte> text);

// tinygltf parses the JSON and the buffers but trusts the ranges in it: every accessor is
// checked against its bufferView and buffer before a single element is read. A checked view
// of one accessor's elements:
class AccessorView {
  public:
    size_t count = 0;
    int components = 1; // 1 for SCALAR ... 16 for MAT4
    int componentType = 0;
    bool normalized = false;

    // Element i, component c, as float: normalized integers map to [0,1] or [-1,1] (glTF "Animations").
    float get(size_t i, int c) const;
    uint32_t getIndex(size_t i) const { return integer(i, 0); }
    uint32_t integer(size_t i, int c) const;
    glm::vec4 vec4(size_t i, float w = 0.0f) const;

  private:
    friend Result<AccessorView> view(const tinygltf::Model&, int, int, std::initializer_list<int>,
                                     const std::string&);
    const unsigned char* base_ = nullptr; // null only when there are no elements
    size_t stride_ = 0;
    size_t componentSize_ = 0;
};

// Accessor `index` as `type` (TINYGLTF_TYPE_*) with one of `componentTypes`; the error names
// `field` (e.g. "mesh 'arm' primitive 0 POSITION").
Result<AccessorView> view(const tinygltf::Model& model, int index, int type,
                          std::initializer_list<int> componentTypes, const std::string& field);

// ---- The load (load.cpp) ----

// Nodes (parents first), skins, meshes and animations of one file.
Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator);
// The file's animations bound to `target`'s nodes by name.
Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target);

// ---- Meshes (decode_mesh.cpp) ----

// Every mesh on every node that places it, in the file's mesh order (horde's export order);
// `hordeOf` maps a glTF node to its horde node. The storage asked for is charged to `storage`
// (format.h, kStoragePerInputByte): a mesh placed on many nodes is stored once per node.
Status decodeMeshes(const tinygltf::Model& gltf, const std::vector<int32_t>& hordeOf, MeshAllocator& allocator,
                    Budget& storage, Model& model);

// ---- Materials (decode_materials.cpp) ----

// A submesh's material name: the glTF material's, `material<i>` when unnamed, `default` for none.
std::string materialName(const tinygltf::Model& gltf, int material);
// Every glTF material a submesh uses: factors, alpha mode and cutoff, double-sidedness, and the
// base colour, normal, metallic-roughness and emissive textures. Images inside the file (or
// external ones parse() read) are decoded here (texture/texture.h readImage); an image named by
// URI that parse() could not read is left for resolveTextures to find on the search paths. The
// images' texels go into storage from `allocator` (the session library's when there is one).
// Submeshes of primitives without a material get glTF's default one, `default`.
void decodeMaterials(const tinygltf::Model& gltf, const std::filesystem::path& path, Model& model, TextureAllocator& allocator);

// The extras key of an animation whose one channel stands in for none (write.cpp): the clip keys
// nothing, and the reader drops that channel.
inline constexpr const char* kKeysNothing = "horde_keys_nothing";

// ---- Animations (decode_anim.cpp) ----

// Every animation of `gltf` as a clip; `nodeOf` maps a glTF node index to a horde node (-1: not
// bound, an error when a channel drives it). Channels keep their keys exactly; "weights"
// channels (morph targets) are skipped with a warning in `warnings`. Each channel holds its own
// copy of its sampler's keys, so the keys of every channel together are charged to `keys`:
// channels sharing one large sampler must not grow memory with the square of the file.
Result<std::vector<Clip>> decodeClips(const tinygltf::Model& gltf, const std::vector<int32_t>& nodeOf,
                                      std::vector<std::string>& warnings, Budget& keys);

// ---- The writer (write.cpp, write_frame.cpp) ----

// .glb when `path` ends in .glb, otherwise .gltf with the buffer embedded as a data URI.
Result<Companions> write(const Model& model, const std::filesystem::path& path);

// glTF's axes (fileAxes) are horde's world. axesToWorld() is always a signed permutation
// (Z-up turned upright, left-handed mirrored along Z), so the writer converts every vector,
// rotation, scale and matrix into glTF's frame exactly: no root node is added, the hierarchy
// stays the file's own, and a model already in glTF's axes is written bit for bit.
struct Frame {
    glm::mat3 permutation{1.0f}; // signed permutation: file axes -> glTF axes
    float determinant = 1.0f;    // -1 when the file is mirrored into glTF
    float metres = 1.0f;         // metres per file unit
    bool flipWinding = false;    // file front faces wind clockwise once in glTF's frame

    glm::vec3 point(glm::vec3 p) const { return permutation * p * metres; }
    glm::vec3 direction(glm::vec3 d) const { return permutation * d; }
    // A rotation conjugated by the permutation: its axis is a pseudo-vector.
    glm::vec4 rotation(glm::vec4 xyzw) const;
    // Per-axis scale factors land on the permuted axes, signs kept.
    glm::vec3 scale(glm::vec3 s) const;
    // A model-space -> joint-space matrix with both spaces converted.
    glm::mat4 matrix(const glm::mat4& m) const;
};

Frame frameOf(const Axes& axes);

// A linear rotation channel of a clip that nlerps (RotationBlend::Nlerp) given the keys on its
// nlerp curve that glTF's slerp needs to stay within 1e-5 radians of it (write_nlerp.cpp).
void keepNlerpPace(const Clip& clip, Channel& c);

} // namespace horde::gltf
