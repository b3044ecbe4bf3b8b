// glTF -> Model: nodes in an order where parents come first, skins, meshes (decode_mesh.cpp)
// and animations (decode_anim.cpp).
#include "gltf/gltf.h"
#include "texture/texture.h"

#include <unordered_map>

#ifndef GLM_ENABLE_EXPERIMENTAL
#define GLM_ENABLE_EXPERIMENTAL
#endif
#include <glm/gtx/matrix_decompose.hpp>

namespace horde::gltf {

namespace {

Node restOf(const tinygltf::Node& n) {
    Node node;
    node.name = n.name;
    if (n.matrix.size() == 16) {
        glm::dmat4 m;
        for (int i = 0; i < 16; ++i)
            m[i / 4][i % 4] = n.matrix[i];
        glm::dvec3 scale, translation, skew;
        glm::dvec4 perspective;
        glm::dquat rotation;
        if (glm::decompose(m, scale, rotation, translation, skew, perspective)) {
            node.translation = glm::vec3(translation);
            node.rotation = glm::quat(glm::normalize(rotation));
            node.scale = glm::vec3(scale);
        }
        return node;
    }
    if (n.translation.size() == 3)
        node.translation = glm::vec3(n.translation[0], n.translation[1], n.translation[2]);
    if (n.rotation.size() == 4)
        node.rotation =
            glm::quat(float(n.rotation[3]), float(n.rotation[0]), float(n.rotation[1]), float(n.rotation[2]));
    if (n.scale.size() == 3) node.scale = glm::vec3(n.scale[0], n.scale[1], n.scale[2]);
    return node;
}

// A node that only holds skinned meshes places nothing: glTF ignores a skinned mesh node's
// transform, and exporters (horde's among them) put such nodes at the scene root without one.
// Kept out of horde's hierarchy so a model and its glTF export have the same nodes; its meshes
// are placed on the root of their skeleton instead.
bool onlyHoldsSkin(const tinygltf::Model& gltf, size_t g, const std::vector<int32_t>& parent) {
    const tinygltf::Node& n = gltf.nodes[g];
    if (n.mesh < 0 || n.skin < 0 || size_t(n.skin) >= gltf.skins.size() ||
        gltf.skins[size_t(n.skin)].joints.empty() || parent[g] >= 0 || !n.children.empty() ||
        !n.matrix.empty() || !n.translation.empty() || !n.rotation.empty() || !n.scale.empty() ||
        !n.weights.empty())
        return false;
    for (const tinygltf::Skin& skin : gltf.skins)
        for (int j : skin.joints)
            if (j == int(g)) return false;
    for (const tinygltf::Animation& a : gltf.animations)
        for (const tinygltf::AnimationChannel& c : a.channels)
            if (c.target_node == int(g)) return false;
    return true;
}

// horde needs every parent before its children: keep the file's order when it already is, else
// walk the roots depth first. Returns the horde index of each glTF node (-1: only holds skinned
// meshes, above).
Result<std::vector<int32_t>> nodeOrder(const tinygltf::Model& gltf, Model& model) {
    size_t count = gltf.nodes.size();
    std::vector<int32_t> parent(count, -1);
    for (size_t i = 0; i < count; ++i)
        for (int child : gltf.nodes[i].children) {
            if (child < 0 || size_t(child) >= count)
                return Error{"node " + std::to_string(i) + ": child " + std::to_string(child) +
                             " out of range"};
            if (parent[child] >= 0 || size_t(child) == i)
                return Error{"node " + std::to_string(child) + ": has more than one parent"};
            parent[child] = int32_t(i);
        }
    std::vector<int32_t> order; // glTF indices in horde order
    bool sorted = true;
    for (size_t i = 0; i < count; ++i)
        sorted = sorted && parent[i] < int32_t(i);
    if (sorted) {
        for (size_t i = 0; i < count; ++i)
            order.push_back(int32_t(i));
    } else {
        std::vector<int32_t> stack;
        for (size_t i = count; i-- > 0;)
            if (parent[i] < 0) stack.push_back(int32_t(i));
        while (!stack.empty()) {
            int32_t n = stack.back();
            stack.pop_back();
            order.push_back(n);
            const std::vector<int>& children = gltf.nodes[n].children;
            for (size_t c = children.size(); c-- > 0;)
                stack.push_back(children[c]);
        }
        if (order.size() != count) return Error{"node hierarchy has a cycle"};
    }
    std::erase_if(order, [&](int32_t g) { return onlyHoldsSkin(gltf, size_t(g), parent); });
    std::vector<int32_t> hordeOf(count, -1);
    for (size_t h = 0; h < order.size(); ++h)
        hordeOf[order[h]] = int32_t(h);
    for (int32_t g : order) {
        Node node = restOf(gltf.nodes[g]);
        if (node.name.empty()) node.name = "node" + std::to_string(g);
        node.parent = parent[g] < 0 ? -1 : hordeOf[parent[g]];
        model.nodes.push_back(std::move(node));
    }
    return hordeOf;
}

Status decodeSkins(BufferViews& views, const std::vector<int32_t>& hordeOf, Model& model) {
    const tinygltf::Model& gltf = views.gltf();
    for (size_t s = 0; s < gltf.skins.size(); ++s) {
        const tinygltf::Skin& gs = gltf.skins[s];
        std::string field = "skin " + std::to_string(s);
        Skin skin;
        for (int j : gs.joints) {
            if (j < 0 || size_t(j) >= hordeOf.size())
                return Error{field + ": joint node " + std::to_string(j) + " out of range"};
            skin.joints.push_back(uint32_t(hordeOf[j]));
        }
        skin.inverseBind.assign(skin.joints.size(), glm::mat4(1.0f));
        if (gs.inverseBindMatrices >= 0) {
            Result<AccessorView> ibm = view(views, gs.inverseBindMatrices, TINYGLTF_TYPE_MAT4,
                                            {TINYGLTF_COMPONENT_TYPE_FLOAT}, field + " inverseBindMatrices");
            if (!ibm) return ibm.error();
            if (ibm->count != skin.joints.size())
                return Error{field + " inverseBindMatrices: " + std::to_string(ibm->count) +
                             " matrices for " + std::to_string(skin.joints.size()) + " joints"};
            for (size_t j = 0; j < skin.joints.size(); ++j)
                for (int c = 0; c < 16; ++c)
                    skin.inverseBind[j][c / 4][c % 4] = ibm->get(j, c);
        }
        model.skins.push_back(std::move(skin));
    }
    views.release();
    return Ok{};
}

// What a decode may allocate (format.h), from the file and every buffer it brought in (external
// .bin files, data URIs): as much for mesh storage and again for animation keys.
uint64_t allowance(std::span<const std::byte> bytes, const tinygltf::Model& gltf) {
    uint64_t input = bytes.size();
    for (const tinygltf::Buffer& buffer : gltf.buffers)
        input += buffer.data.size();
    return kStoragePerInputByte * input + kStorageSlack;
}

Budget storageBudget(std::span<const std::byte> bytes, const tinygltf::Model& gltf) {
    return Budget(allowance(bytes, gltf),
                  "more bytes of mesh storage would pass " + std::to_string(kStoragePerInputByte) +
                      " per byte of the file (every node that places a mesh, and every primitive "
                      "that repeats an accessor, is stored again)");
}

Budget keyBudget(std::span<const std::byte> bytes, const tinygltf::Model& gltf) {
    return Budget(allowance(bytes, gltf),
                  "more bytes of keys would pass " + std::to_string(kStoragePerInputByte) +
                      " per byte of the file (every channel keeps its own copy of its sampler's keys)");
}

Budget decompressedBudget(std::span<const std::byte> bytes, const tinygltf::Model& gltf) {
    return Budget(allowance(bytes, gltf),
                  "more bytes of decompressed data would pass " + std::to_string(kStoragePerInputByte) +
                      " per byte of the file (a compressed bufferView is decompressed again for "
                      "every mesh and animation that reads it)");
}

Error inFile(const std::filesystem::path& path, const Error& e) {
    return Error{path.string() + ": " + e.message};
}
} // namespace

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator) {
    Result<File> file = parse(path, bytes);
    if (!file) return file.error();
    const tinygltf::Model& gltf = file->gltf;
    Budget decompressed = decompressedBudget(bytes, gltf);
    BufferViews views(*file, decompressed);
    Model model;
    model.format = "gltf";
    model.axes = fileAxes();
    Result<std::vector<int32_t>> hordeOf = nodeOrder(gltf, model);
    if (!hordeOf) return inFile(path, hordeOf.error());
    if (Status st = decodeSkins(views, *hordeOf, model); !st) return inFile(path, st.error());
    Budget storage = storageBudget(bytes, gltf);
    if (Status st = decodeMeshes(views, *hordeOf, allocator, storage, model); !st)
        return inFile(path, st.error());
    Budget keys = keyBudget(bytes, gltf);
    Result<std::vector<Clip>> clips = decodeClips(views, *hordeOf, morphTargetsByNode(model), model.warnings, keys);
    if (!clips) return inFile(path, clips.error());
    model.clips = std::move(*clips);
    HeapTextureAllocator heap;
    decodeMaterials(gltf, path, model, options.textures ? options.textures->allocator() : heap);
    return model;
}

Result<std::vector<Clip>> readClips(const std::filesystem::path& path, std::span<const std::byte> bytes,
                                    Model& target) {
    Result<File> file = parse(path, bytes);
    if (!file) return file.error();
    // Hashed, the first of a repeated name winning as in findNode: linear in both files' nodes.
    std::unordered_map<std::string, int32_t> byName;
    for (size_t n = 0; n < target.nodes.size(); ++n)
        byName.emplace(target.nodes[n].name, int32_t(n));
    std::vector<int32_t> nodeOf;
    for (const tinygltf::Node& n : file->gltf.nodes) {
        auto found = byName.find(n.name);
        nodeOf.push_back(found == byName.end() ? -1 : found->second);
    }
    Budget decompressed = decompressedBudget(bytes, file->gltf);
    BufferViews views(*file, decompressed);
    Budget keys = keyBudget(bytes, file->gltf);
    Result<std::vector<Clip>> clips = decodeClips(views, nodeOf, morphTargetsByNode(target), target.warnings, keys);
    if (!clips) return inFile(path, clips.error());
    return clips;
}

} // namespace horde::gltf
