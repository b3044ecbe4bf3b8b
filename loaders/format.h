#pragma once
// What one file format implements (loaders/<id>/format.cpp) and what every format shares: the
// options of a load, the cap on the storage a decode may ask for, what a writer reports, the
// kinds of file a folder holds, and the finish step every decoded model goes through. Includes
// no format; the front door that picks one, loader.h, does.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"
#include "core/result.h"

namespace horde {

// What a decoder may allocate for mesh storage (and, separately, for animation keys): at most
// kStoragePerInputByte bytes per byte of its input, plus kStorageSlack. A Grimrock vertex can sit
// in one byte of the file and take 80 bytes of storage; anything far beyond that means a count or
// a shared structure was trusted. glTF checks it as it decodes (meshes placed on many nodes are
// stored once per node); the other formats stay within it by checking every count against the
// bytes that hold its elements, and NWN and SWTOR also what structures pointing at the same bytes
// add up to (a Budget of the reader, reader.h). The fuzz targets hold every decode to it.
constexpr uint64_t kStoragePerInputByte = 128;
constexpr uint64_t kStorageSlack = uint64_t(1) << 20;

class TextureLibrary;

struct LoadOptions {
    std::filesystem::path skeleton;                 // formats whose skeleton is a separate file
    std::vector<std::filesystem::path> anims;       // animation files bound to the model's nodes
    std::vector<std::filesystem::path> searchPaths; // where referenced files (supermodels, textures) may be
    std::vector<std::filesystem::path> materials;   // material definition files (Grimrock's defineMaterial Lua)
    // Reads each texture file once across every model loaded with it; null: a library per load.
    TextureLibrary* textures = nullptr;
};

// The files a writer put beside the one it was given: loading that file with this skeleton and
// these animation files gives the model back whole (but what `warnings` names). Empty for
// formats of one file.
struct Companions {
    std::filesystem::path skeleton;
    std::vector<std::filesystem::path> anims;
    // What the written files hold differently from the model, each named (docs/formats/<id>.md
    // says why the format cannot hold it); empty when they hold it whole.
    std::vector<std::string> warnings;
};

// What a file of a folder is (survey.h). model: draws on its own (Grimrock .model, NWN .mdl,
// glTF). mesh: geometry whose skeleton is another file (EMI .meshb, SWTOR mesh .gr2). skeleton:
// EMI .sklb, SWTOR skeleton .gr2. animation: Grimrock .animation, EMI .animb. texture: .dds .tga
// .png .jpg (counted; read by the materials work). other: anything else (scripts, sounds, glTF's
// .bin), skipped.
enum class FileKind { Model, Mesh, Skeleton, Animation, Texture, Other };

// An extension a format's files carry (lower case, with the dot) and the kind of file it names
// before the file is read.
struct FileExtension {
    std::string_view extension;
    FileKind kind;
};

struct FileSurvey; // survey.h

// What the pairing of an asset folder (app/folders) asks of a format: the rules themselves are
// the same for every format (docs/formats/<id>.md, "Folders", says which apply to which).
struct FolderRule {
    // Files pair only within a family: formats whose files mix (NWN's two encodings share
    // supermodels) name one family.
    const char* family = "";
    const char* name = ""; // how notes name the family's files: "no Grimrock model ..."
    // Where the names an animation keys must all be found: among the nodes of a model of the
    // family (each such model plays it), or among those of the skeleton paired with a mesh.
    enum class Animations { None, ModelNodes, SkeletonNodes } animations = Animations::None;
    bool ignoreCase = false;  // those names match ignoring case
    bool supermodels = false; // a model's survey names its supermodel, a model file of that stem
    // Models whose stem starts with this (ignoring case) hold animations for others to inherit
    // as their supermodel, not a creature of their own: a folder crowd leaves them out. Null: none.
    const char* animationModels = nullptr;
    // The skeleton file the format's writer puts beside mesh file `mesh`: a mesh that needs a
    // skeleton takes the one of that name (ignoring case) first, when it fits. Null: no such name.
    std::filesystem::path (*skeletonFor)(const std::filesystem::path& mesh) = nullptr;
};

// What a model read from a format's file holds that its source did not, recognised exactly: the
// nodes the format's writer or reader adds (docs/formats/<id>.md). `horde validate` reports them
// as a mapping, not as differences.
struct AddedNodes {
    std::vector<bool> added;      // per node of the read model: one the format added
    int32_t root = -1;            // an added root above the source's roots; -1 when there is none
    std::vector<uint32_t> pieces; // added nodes holding further pieces of their parent node's mesh
    // The format cuts meshes into pieces, each skin listing only the bones its piece weighs:
    // validate joins them back into the source's meshes (even a lone skinned piece, whose joints
    // it numbers as the source's mesh does).
    bool joinPieces = false;
    std::string note; // the mapping in words, for the hierarchy check; empty when nothing was added
};

// A format's entry. `detect` looks at the bytes (and name). `readModel` decodes a model, reading
// options.skeleton itself where the format keeps skeletons apart. `readClips` (may be null)
// decodes an animation file and binds it to `target`'s nodes by name. `write` (may be null)
// writes a model in the format; formats of several files derive their names from `path` and
// report them. Each folder names its functions the same: <id>::readModel, <id>::readClips,
// <id>::write, <id>::survey.
struct Format {
    const char* id;
    const char* description;
    bool (*detect)(const std::filesystem::path& path, std::span<const std::byte> bytes);
    Result<Model> (*readModel)(const std::filesystem::path& path, std::span<const std::byte> bytes,
                               const LoadOptions& options, MeshAllocator& allocator);
    Result<std::vector<Clip>> (*readClips)(const std::filesystem::path& path,
                                           std::span<const std::byte> bytes, Model& target);
    Result<Companions> (*write)(const Model& model, const std::filesystem::path& path);
    const char* extension = nullptr; // of the main file the writer writes, e.g. ".model"
    // Extensions the game's engine opens in place of the one a texture name carries, in the order
    // it tries them (texture/texture.h findTextureFile).
    std::span<const std::string_view> textureSubstitutes{};
    // Every extension the format's files carry: a file with one of them that no format detects is
    // a broken file of this format, not someone else's (survey.h).
    std::span<const FileExtension> extensions{};
    // The kind of a file `detect` accepted and the names it points at, read without decoding the
    // file, with the decoder's checks on what it reads (<id>/survey.cpp). Null: a model that
    // points at nothing.
    Result<FileSurvey> (*survey)(const std::filesystem::path& path,
                                 std::span<const std::byte> bytes) = nullptr;
    FolderRule folders{}; // how its files pair in an asset folder
    // What a model read from the format holds beyond `source`, the model it was written from.
    // Null: nothing.
    AddedNodes (*addedNodes)(const Model& source, const Model& read) = nullptr;
};

// Every format's last step, after its decode and the clips bound to it: binds weightless
// vertices rigidly and computes bounds (finalizeMeshes), then checks the model's invariants
// (validateModel), the error naming `path`. loadModel and the fuzz targets both run it.
Status finishModel(const std::filesystem::path& path, Model& model);

} // namespace horde
