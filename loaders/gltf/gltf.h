#pragma once
// glTF 2.0 (.glb and .gltf with embedded or external buffers), read and written through
// tinygltf. See docs/formats/gltf.md for what is kept, how axes are converted and where glTF
// cannot say exactly what a horde clip does. The folder's one internal header, in reading order:
// the parse, the extensions read beside it and the checked views of its buffers (file.cpp,
// file_container.cpp, file_extensions.cpp, file_accessor.cpp), the decompressors
// (decode_meshopt.cpp, decode_draco.cpp), the load (load.cpp), meshes and animations
// (decode_mesh.cpp, decode_anim.cpp), and the writer (write.cpp) with its axes
// (write_frame.cpp). The entry is format.cpp.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json_fwd.hpp>
#include <tiny_gltf.h>

#include "core/result.h"
#include "format.h"
#include "model/model.h"
#include "reader.h"

namespace horde::gltf {

// ---- The file (file.cpp, file_container.cpp, file_accessor.cpp) ----

// Right-handed, Y up, counter-clockwise fronts, in metres: horde's world itself. The reader gives
// models these axes and the writer converts into them.
Axes fileAxes();

// EXT_meshopt_compression on one bufferView: where its compressed bytes are and the layout they
// decompress to (count elements of byteStride bytes, the bufferView's own byteLength).
struct MeshoptView {
    enum class Mode : uint8_t { Attributes, Triangles, Indices };
    enum class Filter : uint8_t { None, Octahedral, Quaternion, Exponential };
    uint32_t buffer = 0;
    uint64_t byteOffset = 0, byteLength = 0, count = 0;
    uint32_t byteStride = 0;
    Mode mode = Mode::Attributes;
    Filter filter = Filter::None;
};

// KHR_draco_mesh_compression on one primitive: the bufferView of its Draco stream and the Draco
// attribute id of each glTF attribute the stream holds.
struct DracoPrimitive {
    int bufferView = -1;
    std::map<std::string, uint32_t> attributes;
    // The primitive's indices accessor (-1: none). tinygltf refuses a primitive whose indices
    // accessor has no bufferView, as Draco's have none: it is shown the primitive without it,
    // and parse() puts it back.
    int indices = -1;
};

// What horde reads of the extensions a file uses, from its JSON with exact integer types
// (tinygltf keeps extension objects as loosely typed values), checked as glTF 2.0 and each
// extension require (file_extensions.cpp).
struct Extensions {
    std::vector<std::optional<MeshoptView>> meshopt;               // per bufferView
    std::vector<std::vector<std::optional<DracoPrimitive>>> draco; // per mesh, per primitive
    // Per buffer: a placeholder that holds no bytes, only room for what compressed bufferViews
    // decompress to (EXT_meshopt_compression's fallback buffers, and buffers without a uri but
    // a GLB's first).
    std::vector<bool> placeholder;
};

// The file as horde reads it: tinygltf's parse and the extensions beside it.
struct File {
    tinygltf::Model gltf;
    Extensions extensions;
};

// tinygltf's parse of a .glb or .gltf held in memory, after the checks below, with the
// extensions horde reads. Images keep their encoded bytes (decodeMaterials decodes them);
// external buffers are read only from the model's own folder; placeholder buffers are not read
// at all (their data stays empty).
Result<File> parse(const std::filesystem::path& path, std::span<const std::byte> bytes);

// Before tinygltf (file_container.cpp), so that errors name the byte offset or the JSON path and
// the field in words: a GLB's header and chunks (a file cut short says where it ends) and its
// JSON chunk; a .gltf's JSON. Each JSON is checked for syntax (its byte offset, line and column),
// for the properties glTF 2.0 requires of the objects horde reads, and for the extensions it
// requires (file_extensions.cpp). `handed` is what tinygltf is given in place of the file when
// it could not take the file as written (see Extensions); empty: the file itself.
struct Prepared {
    Extensions extensions;
    std::vector<unsigned char> handed;
};
Result<Prepared> prepare(const std::filesystem::path& path, std::span<const std::byte> bytes, bool binary);

// ---- Extensions (file_extensions.cpp) ----

// Every entry of extensionsRequired must be one horde reads (the rest are refused by name), and
// the compression extensions' objects must say what their specifications require; the error
// names the file and the JSON path. `binary`: a .glb, whose first buffer without a uri is its
// binary chunk.
Result<Extensions> readExtensions(const std::string& file, const nlohmann::json& doc, bool binary);
// The document tinygltf can take: Draco primitives without their indices, placeholder buffers
// as one byte of data; false when the file needs no change.
bool handedDocument(nlohmann::json& doc, const Extensions& extensions);

// The bytes behind every bufferView (file_accessor.cpp): its buffer's own, checked against the
// buffer, or for one with EXT_meshopt_compression decompressed (decode_meshopt.cpp) into scratch
// memory of the bufferView's size, charged to `decompressed` before it is allocated and kept
// until release(): meshoptimizer writes the interleaved layout of the bufferView, which the
// decoders then read into horde's own arrays as they read a plain one.
class BufferViews {
  public:
    BufferViews(const File& file, Budget& decompressed) : file_(file), decompressed_(decompressed) {}
    const tinygltf::Model& gltf() const { return file_.gltf; }
    const Extensions& extensions() const { return file_.extensions; }
    // What decompressing may allocate in all (Draco's meshes are charged to it too).
    Budget& decompressed() { return decompressed_; }

    // The bytes of bufferView `index`; the error names `field`, the bufferView and, for a
    // compressed one, the extension.
    Result<std::span<const unsigned char>> bytes(int index, const std::string& field);
    // Frees what was decompressed: the decoders call it once the arrays that read it are filled.
    void release() { held_.clear(); }

  private:
    const File& file_;
    Budget& decompressed_;
    std::map<int, std::vector<unsigned char>> held_; // decompressed, by bufferView
};

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

    // `count` elements of `components` values of `componentType` (TINYGLTF_COMPONENT_TYPE_*)
    // at `base`, `stride` bytes apart; element i is the one at row rows[i] when `rows` is given
    // (a Draco attribute's values are shared between the points that have them). The caller
    // has checked every row against the memory behind `base`.
    static AccessorView rows(const unsigned char* base, size_t stride, size_t count, int components,
                             int componentType, bool normalized, const uint32_t* rows = nullptr);

  private:
    friend Result<AccessorView> view(BufferViews&, int, int, std::initializer_list<int>, const std::string&);
    const unsigned char* element(size_t i) const { return base_ + (rows_ ? rows_[i] : i) * stride_; }
    const unsigned char* base_ = nullptr; // null only when there are no elements
    const uint32_t* rows_ = nullptr;
    size_t stride_ = 0;
    size_t componentSize_ = 0;
};

// The bytes of one element of `componentType`; 0 for a type glTF does not define.
size_t componentSize(int componentType);

// Accessor `index` as `type` (TINYGLTF_TYPE_*) with one of `componentTypes`; the error names
// `field` (e.g. "mesh 'arm' primitive 0 POSITION").
Result<AccessorView> view(BufferViews& views, int index, int type, std::initializer_list<int> componentTypes,
                          const std::string& field);

// ---- The decompressors (decode_meshopt.cpp, decode_draco.cpp) ----

// `compressed` decompressed into `out` (count * byteStride bytes) as `view` says, with its
// filter applied. meshoptimizer's decoders are safe on untrusted bytes (they return an error
// rather than read or write out of bounds); what they cannot take (strides, counts) was checked
// by readExtensions. The error names `field`.
Status decodeMeshopt(const MeshoptView& view, std::span<const unsigned char> compressed,
                     std::span<unsigned char> out, const std::string& field);

// A KHR_draco_mesh_compression primitive decoded by Draco: the mesh Draco built (its own
// allocations), the views of its attributes and triangles point into it.
class DracoMesh {
  public:
    // Decodes the primitive's stream and checks its points and triangles against the
    // primitive's accessors ("must match the decompressed data"); what Draco holds is charged to
    // views.decompressed(). The error names `field`, the bufferView and the extension.
    static Result<DracoMesh> decode(BufferViews& views, const tinygltf::Primitive& primitive,
                                    const DracoPrimitive& draco, const std::string& field);
    DracoMesh(DracoMesh&&) noexcept;
    DracoMesh& operator=(DracoMesh&&) noexcept;
    ~DracoMesh();

    bool holds(const std::string& attribute) const;
    // Attribute `name` (one the stream holds) as accessor `accessor` declares it: `type` with one
    // of `componentTypes`, which Draco's values must have.
    Result<AccessorView> attribute(const tinygltf::Model& gltf, const std::string& name, int accessor,
                                   int type, std::initializer_list<int> componentTypes,
                                   const std::string& field) const;
    // The corners of its triangles, as unsigned ints.
    AccessorView triangles() const;

  private:
    struct Decoded;
    explicit DracoMesh(std::unique_ptr<Decoded> decoded);
    std::unique_ptr<Decoded> decoded_;
};

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
// (format.h, kStoragePerInputByte): a mesh placed on many nodes is stored once per node. What a
// glTF mesh decompresses to is held while its nodes are decoded, then freed.
Status decodeMeshes(BufferViews& views, const std::vector<int32_t>& hordeOf, MeshAllocator& allocator,
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
void decodeMaterials(const tinygltf::Model& gltf, const std::filesystem::path& path, Model& model,
                     TextureAllocator& allocator);

// The extras key of an animation whose one channel stands in for none (write.cpp): the clip keys
// nothing, and the reader drops that channel.
inline constexpr const char* kKeysNothing = "horde_keys_nothing";

// ---- Animations (decode_anim.cpp) ----

// Every animation of `gltf` as a clip; `nodeOf` maps a glTF node index to a horde node (-1: not
// bound, an error when a channel drives it). Channels keep their keys exactly; "weights"
// channels become morph channels of as many targets as `morphTargets` (per horde node) gives the
// node's meshes, or are skipped with a warning in `warnings` where it has none. Each channel holds its own
// copy of its sampler's keys, so the keys of every channel together are charged to `keys`:
// channels sharing one large sampler must not grow memory with the square of the file.
Result<std::vector<Clip>> decodeClips(BufferViews& views, const std::vector<int32_t>& nodeOf,
                                      std::span<const uint32_t> morphTargets,
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
    // Per-axis scale factors land on the permuted axes, with their own signs.
    glm::vec3 scale(glm::vec3 s) const;
    // A model-space -> joint-space matrix with both spaces converted.
    glm::mat4 matrix(const glm::mat4& m) const;
};

Frame frameOf(const Axes& axes);

// A linear rotation channel of a clip that nlerps (RotationBlend::Nlerp) given the keys on its
// nlerp curve that glTF's slerp needs to stay within 1e-5 radians of it (write_nlerp.cpp).
void keepNlerpPace(const Clip& clip, Channel& c);

} // namespace horde::gltf
