#include "nwn/nwn.h"

#include <array>
#include <cstring>
#include <fstream>
#include <limits>

namespace horde::nwn {

namespace {
class Blob {
  public:
    size_t reserve(size_t n) {
        size_t at = data.size();
        data.resize(at + n);
        return at;
    }
    template <class T> void set(size_t at, T value) { std::memcpy(data.data() + at, &value, sizeof(T)); }
    template <class T> size_t append(const std::vector<T>& values) {
        size_t at = reserve(values.size() * sizeof(T));
        if (!values.empty()) std::memcpy(data.data() + at, values.data(), values.size() * sizeof(T));
        return at;
    }
    void name(size_t at, size_t width, const std::string& text) {
        std::memcpy(data.data() + at, text.data(), std::min(text.size(), width - 1));
    }
    void array(size_t at, size_t offset, size_t count) {
        set(at, uint32_t(count == 0 ? 0 : offset));
        set(at + 4, uint32_t(count));
        set(at + 8, uint32_t(count));
    }
    std::vector<std::byte> data;
};

struct Controller {
    int32_t type;
    int16_t rows, timeIndex, dataIndex;
    int8_t columns;
};

struct Controllers {
    std::vector<Controller> keys;
    std::vector<float> data;
};

Status add(Controllers& c, int32_t type, int columns, const std::vector<float>& times, const std::vector<float>& values) {
    constexpr size_t limit = std::numeric_limits<int16_t>::max();
    if (times.size() > limit || c.data.size() + times.size() + values.size() > limit)
        return Error{"nwn: a node's controllers need more than 32767 floats (the format's indices are 16-bit)"};
    Controller k{type, int16_t(times.size()), int16_t(c.data.size()), 0, int8_t(columns)};
    c.data.insert(c.data.end(), times.begin(), times.end());
    k.dataIndex = int16_t(c.data.size());
    c.data.insert(c.data.end(), values.begin(), values.end());
    c.keys.push_back(k);
    return Ok{};
}

Status addChannel(Controllers& out, const Channel& ch, const AxisChange& change) {
    KeyRows rows = channelRows(ch, change);
    return add(out, rows.type, rows.columns | (rows.bezier ? kBezierFlag : 0), rows.times, rows.values);
}

class Emitter {
  public:
    Emitter(const Model& model, const Plan& plan) : model_(model), plan_(plan) {}

    Status emit(const std::filesystem::path& path);

  private:
    Result<uint32_t> node(uint32_t index, const std::vector<Controllers>& controllers, bool geometry);
    void mesh(size_t at, const PlannedNode& n);
    void skin(size_t at, const PlannedNode& n);
    void dangly(size_t at, const PlannedNode& n);
    Result<uint32_t> animation(const Clip& clip);

    const Model& model_;
    const Plan& plan_;
    Blob data_, raw_;
    glm::vec3 boundsMin_{std::numeric_limits<float>::max()}, boundsMax_{std::numeric_limits<float>::lowest()};
};

Result<uint32_t> Emitter::node(uint32_t index, const std::vector<Controllers>& controllers, bool geometry) {
    const PlannedNode& n = plan_.nodes[index];
    const bool isMesh = geometry && n.piece >= 0;
    const bool isSkin = isMesh && model_.meshes[size_t(n.mesh)].skinned();
    const bool isDangly = isMesh && !isSkin && model_.meshes[size_t(n.mesh)].dangly.has_value();
    const uint32_t flags =
        kHasHeader | (isMesh ? kHasMesh : 0u) | (isSkin ? kHasSkin : 0u) | (isDangly ? kHasDangly : 0u);
    const size_t at = data_.reserve(nodeSize(flags));
    data_.set(at + kNodePart, uint32_t(index));
    data_.name(at + kNodeName, 32, n.name);
    data_.set(at + kNodeFlags, flags);
    const Controllers& c = controllers[index];
    size_t keys = data_.reserve(c.keys.size() * kControllerSize);
    for (size_t k = 0; k < c.keys.size(); ++k) {
        const Controller& key = c.keys[k];
        size_t o = keys + k * kControllerSize;
        data_.set(o, key.type);
        data_.set(o + 4, key.rows);
        data_.set(o + 6, key.timeIndex);
        data_.set(o + 8, key.dataIndex);
        data_.set(o + 10, key.columns);
    }
    data_.array(at + kNodeControllerKeys, keys, c.keys.size());
    data_.array(at + kNodeControllerData, data_.append(c.data), c.data.size());
    if (isMesh) mesh(at, n);
    if (isSkin) skin(at, n);
    if (isDangly) dangly(at, n);
    size_t children = data_.reserve(n.children.size() * 4);
    data_.array(at + kNodeChildren, children, n.children.size());
    for (size_t i = 0; i < n.children.size(); ++i) {
        Result<uint32_t> child = node(n.children[i], controllers, geometry);
        if (!child) return child.error();
        data_.set(children + 4 * i, *child);
    }
    return uint32_t(at);
}

void Emitter::mesh(size_t at, const PlannedNode& n) {
    const Mesh& mesh = model_.meshes[size_t(n.mesh)];
    const MeshPiece& piece = plan_.pieces[size_t(n.piece)];
    const MeshArrays& a = mesh.arrays();
    const AxisChange& c = plan_.change;
    std::vector<glm::vec3> positions, normals;
    std::vector<glm::vec2> uvs;
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(std::numeric_limits<float>::lowest()), sum(0.0f);
    const size_t self = size_t(&n - plan_.nodes.data());
    const glm::mat4 space = pieceSpace(model_, plan_, self);
    for (uint32_t v : piece.vertices) {
        positions.push_back(glm::vec3(space * glm::vec4(c.point(a.positions[v]), 1.0f)));
        normals.push_back(turnNormal(space, c.direction(a.normals[v])));
        if (mesh.layout().uvSets > 0) uvs.push_back(a.uv0[v]);
        lo = glm::min(lo, positions.back());
        hi = glm::max(hi, positions.back());
        sum += positions.back();
        glm::vec3 inModel(plan_.restModel[self] * glm::vec4(positions.back(), 1.0f));
        boundsMin_ = glm::min(boundsMin_, inModel);
        boundsMax_ = glm::max(boundsMax_, inModel);
    }
    size_t faces = data_.reserve(piece.indices.size() / 3 * kFaceSize);
    for (size_t f = 0; f < piece.indices.size() / 3; ++f) {
        size_t o = faces + f * kFaceSize;
        glm::vec3 p0 = positions[piece.indices[3 * f]], p1 = positions[piece.indices[3 * f + 1]],
                  p2 = positions[piece.indices[3 * f + 2]];
        glm::vec3 normal = glm::cross(p1 - p0, p2 - p0);
        normal = glm::length(normal) > 0.0f ? glm::normalize(normal) : glm::vec3(0, 0, 1);
        data_.set(o, normal);
        data_.set(o + 12, -glm::dot(normal, p0));
        data_.set(o + 16, int32_t(0));
        for (int k = 0; k < 3; ++k) {
            data_.set(o + 20 + 2 * k, int16_t(-1));
            data_.set(o + kFaceIndices + 2 * k, piece.indices[3 * f + k]);
        }
    }
    data_.array(at + kMeshFaces, faces, piece.indices.size() / 3);
    data_.set(at + 0x84, lo);
    data_.set(at + 0x90, hi);
    data_.set(at + 0x9C, glm::length(hi - lo) * 0.5f);
    data_.set(at + 0xA0, sum / float(positions.size()));
    data_.set(at + kMeshDiffuse, glm::vec3(materialColour(model_, piece.material)));
    data_.set(at + kMeshDiffuse + 12, glm::vec3(0.2f));
    data_.set(at + 0xD0, 1.0f);                 // shininess
    data_.set(at + 0xD4, uint32_t(1));          // shadow
    data_.set(at + kMeshRender, uint32_t(1));
    data_.name(at + kMeshTexture0, 64, piece.material.empty() ? "NULL" : piece.material);
    data_.set(at + 0x21C, kRawNull);
    data_.set(at + kMeshTriangleMode, kTriangleList);
    data_.set(at + kMeshVertices, uint32_t(raw_.append(positions)));
    data_.set(at + kMeshVertexCount, uint16_t(positions.size()));
    data_.set(at + kMeshTextureCount, uint16_t(uvs.empty() ? 0 : 1));
    for (size_t slot = 0; slot < 4; ++slot) data_.set(at + kMeshUV + 4 * slot, kRawNull);
    if (!uvs.empty()) data_.set(at + kMeshUV, uint32_t(raw_.append(uvs)));
    data_.set(at + kMeshNormals, uint32_t(raw_.append(normals)));
    for (size_t slot = kMeshColors; slot < 0x264; slot += 4) data_.set(at + slot, kRawNull);
    if (mesh.layout().colors) {
        std::vector<std::array<uint8_t, 4>> colours; // R, G, B, A bytes, round(c * 255) as the compiler
        for (uint32_t v : piece.vertices) {
            glm::vec4 q = glm::clamp(a.colors[v], 0.0f, 1.0f) * 255.0f + 0.5f;
            colours.push_back({uint8_t(q.r), uint8_t(q.g), uint8_t(q.b), uint8_t(q.a)});
        }
        data_.set(at + kMeshColors, uint32_t(raw_.append(colours)));
    }
}

void Emitter::skin(size_t at, const PlannedNode& n) {
    const MeshPiece& piece = plan_.pieces[size_t(n.piece)];
    const size_t self = size_t(&n - plan_.nodes.data());
    data_.set(at + kSkinWeights, uint32_t(raw_.append(piece.weights)));
    data_.set(at + kSkinBoneRefs, uint32_t(raw_.append(piece.boneRefs)));
    std::vector<int16_t> nodeToBone(plan_.nodes.size(), -1);
    for (size_t b = 0; b < piece.bones.size(); ++b) nodeToBone[piece.bones[b]] = int16_t(b);
    data_.set(at + kSkinNodeToBone, uint32_t(data_.append(nodeToBone)));
    data_.set(at + kSkinNodeToBoneCount, uint32_t(nodeToBone.size()));
    // Inverse binds: skin-node space -> each node's space, rotation as w, x, y, z.
    std::vector<glm::vec4> q;
    std::vector<glm::vec3> t;
    for (size_t i = 0; i < plan_.nodes.size(); ++i) {
        glm::mat4 inverse = glm::inverse(plan_.restModel[i]) * plan_.restModel[self];
        glm::quat r = glm::normalize(glm::quat_cast(glm::mat3(inverse)));
        q.push_back(glm::vec4(r.w, r.x, r.y, r.z));
        t.push_back(glm::vec3(inverse[3]));
    }
    data_.array(at + kSkinQBoneRefInv, data_.append(q), q.size());
    data_.array(at + kSkinTBoneRefInv, data_.append(t), t.size());
    for (size_t b = 0; b < kSkinBones; ++b)
        data_.set(at + kSkinBoneNodes + 2 * b, int16_t(b < piece.bones.size() ? int16_t(piece.bones[b]) : -1));
}

void Emitter::dangly(size_t at, const PlannedNode& n) {
    const Dangly& d = *model_.meshes[size_t(n.mesh)].dangly;
    std::vector<float> constraints;
    for (uint32_t v : plan_.pieces[size_t(n.piece)].vertices) constraints.push_back(d.constraints[v]);
    data_.array(at + kDanglyConstraints, data_.append(constraints), constraints.size());
    data_.set(at + kDanglyDisplacement, d.displacement);
    data_.set(at + kDanglyDisplacement + 4, d.tightness);
    data_.set(at + kDanglyDisplacement + 8, d.period);
}

Result<uint32_t> Emitter::animation(const Clip& clip) {
    std::vector<Controllers> controllers(plan_.nodes.size());
    for (const Channel& ch : clip.channels)
        if (Status st = addChannel(controllers[plan_.fileIndex[ch.node]], ch, plan_.change); !st) return st.error();
    size_t at = data_.reserve(kAnimHeaderSize);
    data_.name(at + kGeomName, 64, clip.name);
    data_.set(at + kGeomNodeCount, uint32_t(plan_.nodes.size()));
    data_.set(at + kGeomType, uint8_t(5));
    data_.set(at + kAnimLength, clip.duration);
    data_.set(at + kAnimTransition, transitionOf(clip));
    data_.name(at + kAnimRoot, 64, plan_.nodes[0].name);
    Result<uint32_t> root = node(0, controllers, false);
    if (!root) return root.error();
    data_.set(at + kGeomRootNode, *root);
    return uint32_t(at);
}

Status Emitter::emit(const std::filesystem::path& path) {
    const size_t header = data_.reserve(kModelHeaderSize);
    std::vector<Controllers> rest(plan_.nodes.size());
    for (size_t i = 0; i < plan_.nodes.size(); ++i) {
        const PlannedNode& n = plan_.nodes[i];
        add(rest[i], kPosition, 3, {0.0f}, {n.translation.x, n.translation.y, n.translation.z});
        add(rest[i], kOrientation, 4, {0.0f}, {n.rotation.x, n.rotation.y, n.rotation.z, n.rotation.w});
        if (n.scale != 1.0f) add(rest[i], kScale, 1, {0.0f}, {n.scale});
    }
    Result<uint32_t> root = node(0, rest, true);
    if (!root) return root.error();
    std::vector<uint32_t> clips;
    for (const Clip& clip : model_.clips) {
        Result<uint32_t> at = animation(clip);
        if (!at) return at.error();
        clips.push_back(*at);
    }
    data_.name(header + kGeomName, 64, plan_.name);
    data_.set(header + kGeomRootNode, *root);
    data_.set(header + kGeomNodeCount, uint32_t(plan_.nodes.size()));
    data_.set(header + kGeomType, uint8_t(2));
    data_.set(header + 0x71, uint8_t(1));
    data_.set(header + kModelClassification, uint8_t(4)); // character
    data_.set(header + 0x73, uint8_t(1));                  // fogged
    data_.array(header + kModelAnimations, data_.append(clips), clips.size());
    if (boundsMin_.x > boundsMax_.x) boundsMin_ = boundsMax_ = glm::vec3(0.0f);
    data_.set(header + kModelBoundsMin, boundsMin_);
    data_.set(header + kModelBoundsMin + 12, boundsMax_);
    data_.set(header + kModelRadius, glm::length(boundsMax_ - boundsMin_) * 0.5f);
    data_.set(header + kModelAnimationScale, 1.0f);
    data_.name(header + kModelSupermodel, 64, "NULL");
    if (data_.data.size() > 0xFFFFFFFFu || raw_.data.size() > 0xFFFFFFFEu)
        return Error{path.string() + ": the model is too large for the format's 32-bit offsets"};

    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    const uint32_t head[3] = {0, uint32_t(data_.data.size()), uint32_t(raw_.data.size())};
    file.write(reinterpret_cast<const char*>(head), sizeof head);
    file.write(reinterpret_cast<const char*>(data_.data.data()), std::streamsize(data_.data.size()));
    file.write(reinterpret_cast<const char*>(raw_.data.data()), std::streamsize(raw_.data.size()));
    if (!file) return Error{path.string() + ": cannot write"};
    return Ok{};
}
} // namespace

Result<Companions> write(const Model& model, const std::filesystem::path& path) {
    Result<Plan> plan = planModel(model, path);
    if (!plan) return plan.error();
    if (Status st = checkNameBinding(model, *plan, false); !st)
        return Error{path.string() + ": " + st.error().message};
    if (Status st = Emitter(model, *plan).emit(path); !st) return st.error();
    return Companions{}; // one file holds everything
}

} // namespace horde::nwn
