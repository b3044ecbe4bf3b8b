// Assembles a Model from a mesh file and, when given, its skeleton file: skeleton bones become
// the nodes, each skinned mesh gets a skin over its own bone list (matched to the skeleton by
// name), attachments become socket nodes.
#include "swtor/swtor.h"

#include <unordered_map>

#include "model/decompose.h"
#include "core/file.h"

namespace horde::swtor {

namespace {
struct SkeletonParts {
    std::vector<Bone> bones;
    std::vector<Attachment> attachments;
};

Result<SkeletonParts> readSkeletonFile(const std::filesystem::path& path, std::vector<std::string>& warnings) {
    Result<MappedFile> file = MappedFile::open(path);
    if (!file) return file.error();
    Reader r(file->bytes(), path.string());
    Header h = readHeader(r);
    if (r.ok() && h.type != kTypeSkeleton)
        r.failAt(0x14, "type", "is " + std::to_string(h.type) + "; a --skeleton file must be a skeleton file (type 2)");
    checkSkippedSections(r, h, warnings);
    SkeletonParts parts;
    parts.bones = readBones(r, h);
    parts.attachments = readAttachments(r, h);
    if (r.ok() && parts.bones.empty()) r.failAt(0x1C, "numBones", "the skeleton has no bones");
    if (!r.ok()) return r.error();
    return parts;
}

bool isCollision(const std::string& name) { return name.find("collision") != std::string::npos; }

class Builder {
  public:
    Builder(Model& model, const std::filesystem::path& path, MeshAllocator& allocator)
        : model_(model), path_(path), allocator_(allocator) {}

    void addBones(const std::vector<Bone>& bones) {
        for (const Bone& b : bones) {
            Node node = nodeFrom("bone", b.name, b.parent, b.boneToParent);
            if (!byName_.try_emplace(b.name, uint32_t(model_.nodes.size())).second)
                warn("bone name '" + b.name + "' appears twice; meshes bind to the first");
            model_.nodes.push_back(std::move(node));
            rootToBone_.push_back(b.rootToBone);
        }
    }

    // The node static meshes hang from: identity, named after the file.
    uint32_t sceneRoot() {
        if (sceneRoot_ < 0) {
            Node root;
            root.name = path_.stem().string();
            sceneRoot_ = int32_t(model_.nodes.size());
            model_.nodes.push_back(std::move(root));
        }
        return uint32_t(sceneRoot_);
    }

    Status addMesh(Reader& r, const MeshInfo& info, const std::vector<std::string>& materials, const std::string& skeletonName) {
        if (isCollision(info.name)) {
            model_.extras.push_back({"collision", "", "mesh '" + info.name + "': " + std::to_string(info.numVertices) +
                                                         " vertices, " + std::to_string(info.numIndices / 3) + " faces (not drawn)"});
            return Ok{};
        }
        const bool skinned = (info.mask & kSkin) && !rootToBone_.empty();
        if ((info.mask & kSkin) && !skinned)
            warn("mesh '" + info.name + "' is skinned but no --skeleton was given: loaded as static, in its bind pose");
        if ((info.mask & kColour)) warn("mesh '" + info.name + "' has vertex colours, which horde does not draw");
        if (uvSetCount(info.mask) > 2) warn("mesh '" + info.name + "' has a third UV set, which horde does not keep");
        if (!(info.mask & kNormalTangent)) warn("mesh '" + info.name + "' stores no normals; face normals computed");
        Mesh mesh;
        mesh.name = info.name;
        if (skinned) {
            Skin skin;
            for (size_t k = 0; k < info.bones.size(); ++k) {
                auto it = byName_.find(info.bones[k]);
                if (it == byName_.end())
                    return Error{path_.string() + ": mesh '" + info.name + "' bone list entry " + std::to_string(k) + " '" +
                                 info.bones[k] + "' is not a bone of " + skeletonName};
                skin.joints.push_back(it->second);
                skin.inverseBind.push_back(rootToBone_[it->second]);
            }
            mesh.skin = int32_t(model_.skins.size());
            model_.skins.push_back(std::move(skin));
            mesh.node = 0; // bone 0 is a root (parents precede); unweighted vertices follow it
        } else {
            mesh.node = sceneRoot();
        }
        mesh.storage = allocator_.allocate(layoutFor(info, skinned), info.name);
        if (!decodeMesh(r, info, mesh.arrays())) return r.error();
        for (const Piece& p : info.pieces)
            mesh.submeshes.push_back({p.material >= 0 ? materials[p.material] : "", p.firstTriangle * 3, p.triangles * 3});
        if (info.pieces.empty() && info.numIndices > 0) mesh.submeshes.push_back({"", 0, info.numIndices});
        model_.meshes.push_back(std::move(mesh));
        return Ok{};
    }

    void addSockets(const std::vector<Attachment>& attachments) {
        for (const Attachment& a : attachments) {
            auto it = byName_.find(a.bone);
            if (it == byName_.end()) {
                warn("attachment '" + a.name + "' names bone '" + a.bone + "', which is not loaded; kept as an extra only");
                model_.extras.push_back({"socket", "", "'" + a.name + "' on bone '" + a.bone + "' (not loaded)"});
                continue;
            }
            model_.nodes.push_back(nodeFrom("attachment", a.name, int32_t(it->second), a.transform));
            model_.extras.push_back({"socket", a.name, "on bone '" + a.bone + "'"});
        }
    }

  private:
    // A node from a local matrix; what TRS cannot hold (shear, a zero scale) is warned about.
    Node nodeFrom(const char* kind, const std::string& name, int32_t parent, const glm::mat4& local) {
        SplitTransform d = splitTransform(local);
        if (d.sheared || d.degenerate || d.projective)
            warn(std::string(kind) + " '" + name + "' has shear or a zero scale that TRS cannot hold; nearest rotation kept");
        Node node;
        node.name = name;
        node.parent = parent;
        node.translation = d.translation;
        node.rotation = d.rotation;
        node.scale = d.scale;
        return node;
    }

    void warn(const std::string& what) { model_.warnings.push_back(path_.filename().string() + ": " + what); }

    Model& model_;
    std::filesystem::path path_;
    MeshAllocator& allocator_;
    std::unordered_map<std::string, uint32_t> byName_;
    std::vector<glm::mat4> rootToBone_;
    int32_t sceneRoot_ = -1;
};
} // namespace

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator) {
    Model model;
    model.format = "swtor";
    model.axes = fileAxes();
    Reader r(bytes, path.string());
    Header h = readHeader(r);
    checkSkippedSections(r, h, model.warnings);
    std::vector<MeshInfo> meshes = readMeshes(r, h);
    std::vector<std::string> materials = readMaterialNames(r, h);
    std::vector<Attachment> attachments = readAttachments(r, h);
    // numBones counts skeleton bones only in skeleton files (the spec; the importer agrees).
    std::vector<Bone> bones = h.type == kTypeSkeleton ? readBones(r, h) : std::vector<Bone>{};
    if (!r.ok()) return r.error();
    // Each mesh's arrays fit the file on their own; meshes pointing at the same bytes would make
    // the storage grow with the square of the file's size, so together they must fit too.
    uint64_t data = 0;
    for (const MeshInfo& m : meshes) data += uint64_t(m.numVertices) * m.vertexSize + uint64_t(m.numIndices) * 2;
    if (data > bytes.size()) {
        r.failAt(h.offsetMeshHeaders, "offsetMeshHeader",
                 "the meshes' vertices and indices add up to " + std::to_string(data) + " bytes, more than the " +
                     std::to_string(bytes.size()) + "-byte file holds (meshes share data)");
        return r.error();
    }

    std::string skeletonName = "the file's own skeleton";
    if (!options.skeleton.empty()) {
        if (h.type == kTypeSkeleton) return Error{path.string() + ": is itself a skeleton file; --skeleton goes with a mesh file"};
        Result<SkeletonParts> skeleton = readSkeletonFile(options.skeleton, model.warnings);
        if (!skeleton) return skeleton.error();
        bones = std::move(skeleton->bones);
        attachments.insert(attachments.end(), skeleton->attachments.begin(), skeleton->attachments.end());
        skeletonName = "skeleton " + options.skeleton.string();
    }

    Builder builder(model, path, allocator);
    builder.addBones(bones);
    for (const MeshInfo& info : meshes)
        if (Status st = builder.addMesh(r, info, materials, skeletonName); !st) return st.error();
    builder.addSockets(attachments);
    if (model.nodes.empty()) builder.sceneRoot();
    return model;
}

} // namespace horde::swtor
