#include "grimrock/grimrock.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/decompose.h"
#include "model/validate.h"

namespace horde::grimrock {

namespace {
// Node: name length + Mat4x3 + parent + type.
constexpr uint64_t kMinNodeBytes = 4 + 48 + 4 + 4;

enum EntityType : int32_t { kNone = -1, kMesh = 0, kLight = 1 };

// LightEntity: light type, colour, range, spot angle, spot sharpness, cast-shadow flag. horde
// does not light scenes from model files, so the light is reported, not used.
void readLight(Reader& r, const std::string& at, const std::string& node, Model& model) {
    int32_t type = r.i32(at + ".light.type");
    glm::vec3 colour = r.vec3(at + ".light.color");
    float range = r.f32(at + ".light.range");
    float angle = r.f32(at + ".light.spotAngle");
    float sharpness = r.f32(at + ".light.spotSharpness");
    bool shadow = r.u8(at + ".light.castShadow") != 0;
    if (!r.ok()) return;
    char detail[256];
    std::snprintf(detail, sizeof detail, "type %d, colour (%g, %g, %g), range %g, spot angle %g, spot sharpness %g, %s",
                  int(type), double(colour.r), double(colour.g), double(colour.b), double(range), double(angle),
                  double(sharpness), shadow ? "casts shadows" : "no shadows");
    model.extras.push_back(Extra{"light", node, detail});
}

bool readNode(Reader& r, uint32_t index, uint32_t nodeCount, Model& model, MeshAllocator& allocator) {
    std::string at = "nodes[" + std::to_string(index) + "]";
    Node node;
    node.name = readString(r, at + ".name");
    size_t matrixAt = r.offset();
    glm::mat4 local = readMat4x3(r, at + ".localToParent");
    size_t parentAt = r.offset();
    node.parent = r.i32(at + ".parent");
    size_t typeAt = r.offset();
    int32_t type = r.i32(at + ".type");
    if (!r.ok()) return false;
    if (!finite(local)) return r.failAt(matrixAt, at + ".localToParent", "is not finite");
    if (index == 0 && node.parent != -1)
        return r.failAt(parentAt, at + ".parent", "the first node is the root; its parent must be -1, not " + std::to_string(node.parent));
    if (node.parent < -1 || node.parent >= int32_t(index))
        return r.failAt(parentAt, at + ".parent", "parent " + std::to_string(node.parent) + " does not precede the node");
    SplitTransform trs = splitTransform(local);
    if (trs.sheared)
        model.warnings.push_back("node '" + node.name + "': local transform has shear, which TRS cannot hold; kept its nearest rotation and scale");
    node.translation = trs.translation;
    node.rotation = trs.rotation;
    node.scale = trs.scale;
    model.nodes.push_back(node);

    switch (type) {
    case kNone: return true;
    case kMesh: {
        MeshScan scan = scanMeshEntity(r, nodeCount);
        return r.ok() && decodeMesh(r, scan, index, model, allocator);
    }
    case kLight: readLight(r, at, node.name, model); return r.ok();
    default:
        return r.failAt(typeAt, at + ".type", "entity type " + std::to_string(type) + " is not -1 (none), 0 (mesh) or 1 (light)");
    }
}

Result<Model> decodeModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                          MeshAllocator& allocator) {
    Reader r(bytes, path.string());
    r.expect("MDL1", "magic");
    int32_t version = r.i32("version");
    if (r.ok() && version != 2) r.failAt(4, "version", "version " + std::to_string(version) + " is not 2");
    int32_t count = r.i32("numNodes");
    if (r.ok() && count < 1) r.failAt(8, "numNodes", "count " + std::to_string(count) + " is not positive");
    r.fits(uint64_t(std::max(count, 0)), kMinNodeBytes, "numNodes");
    if (!r.ok()) return r.error();

    Model model;
    model.format = "grimrock";
    model.axes = fileAxes();
    model.nodes.reserve(size_t(count));
    for (uint32_t i = 0; i < uint32_t(count); ++i)
        if (!readNode(r, i, uint32_t(count), model, allocator)) return r.error();
    if (r.remaining() > 0)
        model.warnings.push_back(std::to_string(r.remaining()) + " bytes after the last node were ignored");
    return model;
}
} // namespace

Result<Model> readModel(const std::filesystem::path& path, std::span<const std::byte> bytes,
                        const LoadOptions& options, MeshAllocator& allocator) {
    if (hasMagic(bytes, "ANIM"))
        return Error{path.string() + ": offset 0 (0x0): magic: a Grimrock animation, not a model; pass it "
                                     "with --anim next to its .model"};
    Result<Model> model = decodeModel(path, bytes, allocator);
    if (!model) return model;
    if (Status st = applyMaterials(*model, options); !st) return st.error();
    return model;
}

} // namespace horde::grimrock
