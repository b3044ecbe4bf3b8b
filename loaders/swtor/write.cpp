// Model -> a SWTOR mesh file and, when a mesh is skinned, its skeleton file. Every node but the
// sockets becomes a bone; sockets become attachments. Static meshes are baked into model space
// (a GAWB mesh has no node of its own).
#include "swtor/swtor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/packing.hpp>
#include <glm/gtc/quaternion.hpp>

#include "model/axes.h"
#include "model/split.h"
#include "byte_writer.h"

namespace horde::swtor {

namespace {
constexpr uint32_t kFlagsSkinned = 0, kFlagsStatic = 128; // what the Slicers' exporter writes
constexpr size_t kMaxMeshBones = 256;                     // vertex bone indices are bytes
constexpr uint32_t kMaxVertices = 65536;                  // indices are uint16; larger meshes are split
constexpr size_t kMaxTableEntries = 0xFFFF;               // header and mesh counts are uint16

glm::mat4 localMatrix(const Node& n) {
    return glm::translate(glm::mat4(1.0f), n.translation) * glm::mat4_cast(n.rotation) * glm::scale(glm::mat4(1.0f), n.scale);
}

// From the model's axes and units to the file's: points go through `to`; transforms are
// conjugated, so they map file points as the source's mapped its own.
struct Frame {
    explicit Frame(const Axes& source) {
        const Axes file = fileAxes();
        const glm::mat4 axes = glm::inverse(axesToWorld(file)) * axesToWorld(source);
        to = glm::scale(glm::mat4(1.0f), glm::vec3(source.metresPerUnit / file.metresPerUnit)) * axes;
        from = glm::inverse(to);
        clockwiseFronts = frontFaceClockwise(source) != frontFaceClockwise(file);
    }
    glm::mat4 conjugate(const glm::mat4& m) const { return to * m * from; }
    glm::mat4 to, from;
    bool clockwiseFronts; // the source's front faces wind the other way once in the file's axes
};

std::vector<glm::mat4> restModel(const Model& model) {
    std::vector<glm::mat4> out(model.nodes.size());
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& n = model.nodes[i];
        out[i] = n.parent < 0 ? localMatrix(n) : out[n.parent] * localMatrix(n);
    }
    return out;
}

// Bytes that sum to exactly 255 (largest remainder), so a full weight survives as 1.
std::array<uint8_t, 4> quantizeWeights(glm::vec4 w) {
    float sum = w.x + w.y + w.z + w.w;
    std::array<uint8_t, 4> out{};
    if (!(sum > 0.0f)) return out;
    std::array<float, 4> exact{};
    int total = 0;
    for (int k = 0; k < 4; ++k) {
        exact[k] = std::max(w[k], 0.0f) / sum * 255.0f;
        out[k] = uint8_t(std::floor(exact[k]));
        total += out[k];
    }
    std::array<int, 4> order{0, 1, 2, 3};
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return exact[a] - std::floor(exact[a]) > exact[b] - std::floor(exact[b]); });
    for (int k = 0; total < 255 && k < 4; ++k, ++total) ++out[order[k]];
    return out;
}

glm::vec3 perpendicular(glm::vec3 a) {
    glm::vec3 other = std::abs(a.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    return glm::normalize(glm::cross(a, other));
}

glm::vec3 unit(glm::vec3 v) { return glm::length(v) > 0.0f ? glm::normalize(v) : glm::vec3(0, 1, 0); }

struct BoxBuilder {
    Box box{glm::vec3(std::numeric_limits<float>::max()), glm::vec3(std::numeric_limits<float>::lowest())};
    bool any = false;
    void add(glm::vec3 p) {
        box.min = glm::min(box.min, p);
        box.max = glm::max(box.max, p);
        any = true;
    }
    Box get() const { return any ? box : Box{}; }
};

struct VertexBytes {
    std::vector<std::byte>& out;
    template <class T> void put(T v) {
        const auto* raw = reinterpret_cast<const std::byte*>(&v);
        out.insert(out.end(), raw, raw + sizeof(T));
    }
    void u8(uint8_t v) { put(v); }
};

class MeshWriter {
  public:
    MeshWriter(const Model& model, const std::vector<glm::mat4>& rest, const Frame& frame, FileOut& file)
        : model_(model), rest_(rest), frame_(frame), file_(file) {}

    // A mesh too large for 16-bit indices becomes several GAWB meshes, "<name>.0", "<name>.1"...
    Status add(const Mesh& mesh) {
        for (const Submesh& s : mesh.submeshes)
            if (s.firstIndex % 3 != 0 || s.indexCount % 3 != 0)
                return Error{"swtor writer: mesh '" + mesh.name + "' submesh '" + s.material + "' does not start and end on whole triangles"};
        if (mesh.vertexCount() <= kMaxVertices) return addPart(mesh);
        HeapMeshAllocator heap;
        for (const Mesh& part : splitMesh(mesh, kMaxVertices, heap))
            if (Status st = addPart(part); !st) return st;
        return Ok{};
    }

  private:
    Status addPart(const Mesh& mesh) {
        const MeshArrays& a = mesh.arrays();
        const uint32_t n = mesh.vertexCount();
        const std::string where = "swtor writer: mesh '" + mesh.name + "'";
        if (mesh.submeshes.size() > kMaxTableEntries) return Error{where + " has more than 65535 submeshes"};
        MeshOut out;
        out.name = mesh.name;
        out.vertexCount = n;
        const bool skinned = mesh.skinned();
        out.flags = skinned ? kFlagsSkinned : kFlagsStatic;
        out.mask = kPosition | kNormalTangent | (skinned ? kSkin : 0);
        for (uint32_t s = 0; s < std::min(mesh.layout().uvSets, 2u); ++s) out.mask |= kUvSets[s];

        // Static meshes are placed by their node; GAWB vertices are in model space.
        const glm::mat4 node = skinned ? glm::mat4(1.0f) : rest_[mesh.node];
        const glm::mat4 place = frame_.to * node;
        const glm::mat3 normalPlace = glm::transpose(glm::inverse(glm::mat3(place)));
        // The bitangent's sign turns with any mirror; the winding with the node's mirror and
        // with the source's own winding convention (axes mirrors keep fronts facing out).
        const bool mirrored = glm::determinant(glm::mat3(place)) < 0.0f;
        const bool reverse = (glm::determinant(glm::mat3(node)) < 0.0f) != frame_.clockwiseFronts;

        std::vector<int32_t> local;
        std::vector<BoxBuilder> boneBoxes;
        if (skinned) {
            const Skin& skin = model_.skins[mesh.skin];
            // The bone list holds only the joints some vertex is weighted to, so that larger
            // skeletons still fit the byte indices.
            std::vector<bool> used(skin.joints.size(), false);
            for (uint32_t v = 0; v < n; ++v)
                for (int k = 0; k < 4; ++k)
                    if (a.weights[v][k] > 0.0f) used[a.joints[v][k]] = true;
            local.assign(skin.joints.size(), -1);
            for (size_t j = 0; j < used.size(); ++j)
                if (used[j]) {
                    local[j] = int32_t(out.bones.size());
                    out.bones.push_back({model_.nodes[skin.joints[j]].name, {}});
                }
            if (out.bones.size() > kMaxMeshBones)
                return Error{where + " is weighted to " + std::to_string(out.bones.size()) + " bones; GAWB vertex bone indices are bytes (256 at most)"};
            boneBoxes.resize(out.bones.size());
        }

        out.vertices.reserve(size_t(n) * vertexSizeFor(out.mask));
        VertexBytes b{out.vertices};
        BoxBuilder box;
        std::vector<glm::vec3> placed(n);
        for (uint32_t v = 0; v < n; ++v) {
            placed[v] = glm::vec3(place * glm::vec4(a.positions[v], 1.0f));
            box.add(placed[v]);
            b.put(placed[v]);
            if (skinned) {
                std::array<uint8_t, 4> w = quantizeWeights(a.weights[v]);
                for (uint8_t q : w) b.u8(q);
                for (int k = 0; k < 4; ++k) {
                    int32_t bone = w[k] > 0 ? local[a.joints[v][k]] : 0;
                    if (w[k] > 0) boneBoxes[bone].add(placed[v]);
                    b.u8(uint8_t(bone));
                }
            }
            glm::vec3 normal = unit(normalPlace * a.normals[v]);
            for (int k = 0; k < 3; ++k) b.u8(packUnit(normal[k]));
            b.u8(255); // padding, as the Slicers' exporter writes it
            glm::vec3 tangent = a.tangents.empty() ? perpendicular(normal) : unit(glm::mat3(place) * glm::vec3(a.tangents[v]));
            bool positive = a.tangents.empty() || (a.tangents[v].w >= 0.0f) != mirrored;
            for (int k = 0; k < 3; ++k) b.u8(packUnit(tangent[k]));
            b.u8(positive ? 255 : 0);
            if (out.mask & kUvSets[0]) b.put(glm::u16vec2(glm::packHalf1x16(a.uv0[v].x), glm::packHalf1x16(a.uv0[v].y)));
            if (out.mask & kUvSets[1]) b.put(glm::u16vec2(glm::packHalf1x16(a.uv1[v].x), glm::packHalf1x16(a.uv1[v].y)));
        }
        out.box = box.get();
        for (size_t k = 0; k < out.bones.size(); ++k) out.bones[k].box = boneBoxes[k].get();

        out.indices.resize(mesh.indexCount());
        for (size_t i = 0; i < out.indices.size(); ++i) out.indices[i] = uint16_t(a.index(i));
        if (reverse)
            for (size_t i = 0; i + 2 < out.indices.size(); i += 3) std::swap(out.indices[i + 1], out.indices[i + 2]);

        for (const Submesh& s : mesh.submeshes) {
            PieceOut p;
            p.firstTriangle = s.firstIndex / 3;
            p.triangles = s.indexCount / 3;
            if (!s.material.empty()) {
                p.material = materialIndex(s.material);
                p.index = int32_t(out.pieces.size());
            }
            BoxBuilder pieceBox;
            for (uint32_t i = s.firstIndex; i < s.firstIndex + s.indexCount; ++i) pieceBox.add(placed[out.indices[i]]);
            p.box = pieceBox.get();
            out.pieces.push_back(p);
        }
        file_.meshes.push_back(std::move(out));
        return Ok{};
    }

    int32_t materialIndex(const std::string& name) {
        auto it = std::find(file_.materials.begin(), file_.materials.end(), name);
        if (it != file_.materials.end()) return int32_t(it - file_.materials.begin());
        file_.materials.push_back(name);
        return int32_t(file_.materials.size() - 1);
    }

    const Model& model_;
    const std::vector<glm::mat4>& rest_;
    const Frame& frame_;
    FileOut& file_;
};

// Socket nodes that an attachment can hold: a parent, and nothing hanging from or bound to them.
std::vector<bool> socketNodes(const Model& model) {
    std::vector<bool> socket(model.nodes.size(), false);
    for (const Extra& e : model.extras) {
        int32_t n = e.kind == "socket" ? findNode(model, e.node) : -1;
        if (n >= 0 && model.nodes[n].parent >= 0) socket[n] = true;
    }
    for (const Node& node : model.nodes)
        if (node.parent >= 0) socket[node.parent] = false;
    for (const Skin& skin : model.skins)
        for (uint32_t j : skin.joints) socket[j] = false;
    for (const Mesh& mesh : model.meshes) socket[mesh.node] = false;
    return socket;
}

Result<FileOut> skeletonFile(const Model& model, const std::vector<glm::mat4>& rest, const Frame& frame) {
    const std::vector<bool> socket = socketNodes(model);
    std::vector<const glm::mat4*> inverseBind(model.nodes.size(), nullptr);
    for (const Skin& skin : model.skins)
        for (size_t j = 0; j < skin.joints.size(); ++j) {
            const glm::mat4*& seen = inverseBind[skin.joints[j]];
            if (seen && *seen != skin.inverseBind[j])
                return Error{"swtor writer: node '" + model.nodes[skin.joints[j]].name +
                             "' has different inverse binds in two skins; a SWTOR skeleton keeps one per bone"};
            seen = &skin.inverseBind[j];
        }
    FileOut file;
    file.type = kTypeSkeleton;
    std::vector<int32_t> boneOf(model.nodes.size(), -1);
    std::set<std::string> names;
    BoxBuilder box;
    for (size_t i = 0; i < model.nodes.size(); ++i) {
        const Node& node = model.nodes[i];
        if (socket[i]) {
            file.attachments.push_back({node.name, model.nodes[node.parent].name, frame.conjugate(localMatrix(node))});
            continue;
        }
        if (!names.insert(node.name).second)
            return Error{"swtor writer: node name '" + node.name + "' appears twice; SWTOR binds meshes to bones by name"};
        boneOf[i] = int32_t(file.bones.size());
        BoneOut bone;
        bone.name = node.name;
        bone.parent = node.parent < 0 ? -1 : boneOf[node.parent];
        bone.boneToParent = frame.conjugate(localMatrix(node));
        bone.rootToBone = frame.conjugate(inverseBind[i] ? *inverseBind[i] : glm::inverse(rest[i]));
        box.add(glm::vec3(frame.to * rest[i][3]));
        file.bones.push_back(std::move(bone));
    }
    if (file.bones.size() > kMaxTableEntries || file.attachments.size() > kMaxTableEntries)
        return Error{"swtor writer: more than 65535 bones or sockets"};
    file.box = box.get();
    return file;
}
} // namespace

std::filesystem::path skeletonPathFor(const std::filesystem::path& meshPath) {
    std::filesystem::path out = meshPath;
    out.replace_filename(meshPath.stem().string() + "_skeleton" + meshPath.extension().string());
    return out;
}

Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    const std::vector<glm::mat4> rest = restModel(model);
    FileOut meshFile;
    const Frame frame(model.axes);
    MeshWriter writer(model, rest, frame, meshFile);
    bool anySkinned = false;
    for (const Mesh& mesh : model.meshes) {
        if (Status st = writer.add(mesh); !st) return st.error();
        anySkinned = anySkinned || mesh.skinned();
    }
    if (meshFile.meshes.size() > kMaxTableEntries) return Error{"swtor writer: more than 65535 meshes"};
    if (meshFile.materials.size() > kMaxTableEntries) return Error{"swtor writer: more than 65535 materials"};
    BoxBuilder box;
    for (const MeshOut& m : meshFile.meshes)
        if (m.vertexCount > 0) box.add(m.box.min), box.add(m.box.max);
    meshFile.box = box.get();
    if (!anySkinned) {
        if (Status st = saveBytes(encode(meshFile), path); !st) return st.error();
        return Companions{};
    }
    Result<FileOut> skeleton = skeletonFile(model, rest, frame);
    if (!skeleton) return skeleton.error();
    if (Status st = saveBytes(encode(meshFile), path); !st) return st.error();
    Companions written;
    written.skeleton = skeletonPathFor(path);
    if (Status st = saveBytes(encode(*skeleton), written.skeleton); !st) return st.error();
    return written;
}

} // namespace horde::swtor
