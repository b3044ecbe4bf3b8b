// KHR_draco_mesh_compression: a primitive's Draco stream decoded by Draco (Debian's libdraco),
// checked against the primitive's accessors, and read through views of Draco's own arrays, so
// the decoders copy each value once, into the allocator's storage.
#include "gltf/gltf.h"

#include <algorithm>
#include <new>
#include <type_traits>

#include <draco/compression/decode.h>

namespace horde::gltf {

// The triangles are read in place as unsigned ints: three point indices a face, each a wrapped
// uint32_t and nothing else.
static_assert(sizeof(draco::Mesh::Face) == 3 * sizeof(uint32_t) &&
              std::is_standard_layout_v<draco::PointIndex>);

struct DracoMesh::Decoded {
    std::unique_ptr<draco::Mesh> mesh;
    std::map<std::string, const draco::PointAttribute*> attributes; // by glTF attribute name
    // Where Draco shares one value between several points (an explicit map), the value row of
    // each point: the views read through it.
    std::map<std::string, std::vector<uint32_t>> rows;
};

namespace {
int componentTypeOf(draco::DataType type) {
    switch (type) {
    case draco::DT_INT8:
        return TINYGLTF_COMPONENT_TYPE_BYTE;
    case draco::DT_UINT8:
        return TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
    case draco::DT_INT16:
        return TINYGLTF_COMPONENT_TYPE_SHORT;
    case draco::DT_UINT16:
        return TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
    case draco::DT_UINT32:
        return TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    case draco::DT_FLOAT32:
        return TINYGLTF_COMPONENT_TYPE_FLOAT;
    default:
        return 0; // no glTF component type
    }
}

// Draco's values of one attribute lie within its buffer, and every point names one of them.
Status checkAttribute(const draco::PointAttribute& a, uint32_t points, const std::string& fail) {
    const size_t element = componentSize(componentTypeOf(a.data_type())) * a.num_components();
    if (element == 0)
        return Error{fail + "its values are of Draco type " + std::to_string(int(a.data_type())) +
                     ", which no glTF componentType is"};
    const size_t values = a.size();
    const size_t bytes = a.buffer() ? a.buffer()->data_size() : 0;
    if (a.byte_stride() < int64_t(element) || a.byte_offset() < 0 || (points > 0 && values == 0) ||
        (values > 0 &&
         (size_t(a.byte_offset()) > bytes || element > bytes - size_t(a.byte_offset()) ||
          (values - 1) > (bytes - size_t(a.byte_offset()) - element) / size_t(a.byte_stride()))))
        return Error{fail + "its values do not fit the buffer Draco decoded them into"};
    if (a.is_mapping_identity() ? values < points : a.indices_map_size() < points)
        return Error{fail + "has values for fewer than its " + std::to_string(points) + " points"};
    return Ok{};
}
} // namespace

DracoMesh::DracoMesh(std::unique_ptr<Decoded> decoded) : decoded_(std::move(decoded)) {}
DracoMesh::DracoMesh(DracoMesh&&) noexcept = default;
DracoMesh& DracoMesh::operator=(DracoMesh&&) noexcept = default;
DracoMesh::~DracoMesh() = default;

Result<DracoMesh> DracoMesh::decode(BufferViews& views, const tinygltf::Primitive& primitive,
                                    const DracoPrimitive& draco, const std::string& field) {
    const std::string ext = field + ": KHR_draco_mesh_compression";
    Result<std::span<const unsigned char>> stream = views.bytes(draco.bufferView, ext);
    if (!stream) return stream.error();
    const std::string at = ext + ": bufferView " + std::to_string(draco.bufferView) + " (" +
                           std::to_string(stream->size()) + " bytes): ";
    auto decoded = std::make_unique<Decoded>();
    try {
        draco::DecoderBuffer buffer;
        buffer.Init(reinterpret_cast<const char*>(stream->data()), stream->size());
        draco::StatusOr<draco::EncodedGeometryType> type = draco::Decoder::GetEncodedGeometryType(&buffer);
        if (!type.ok())
            return Error{at + "not a Draco stream (Draco: " + type.status().error_msg_string() + ")"};
        if (type.value() != draco::TRIANGULAR_MESH)
            return Error{at + "holds a point cloud, not a triangle mesh"};
        draco::Decoder decoder;
        draco::StatusOr<std::unique_ptr<draco::Mesh>> mesh = decoder.DecodeMeshFromBuffer(&buffer);
        if (!mesh.ok() || !mesh.value())
            return Error{at + "the stream does not decode (Draco: " +
                         (mesh.ok() ? std::string("no mesh") : mesh.status().error_msg_string()) + ")"};
        decoded->mesh = std::move(mesh).value();
    } catch (const std::bad_alloc&) {
        return Error{at + "the stream asks Draco for more memory than there is"};
    }
    const draco::Mesh& mesh = *decoded->mesh;
    const uint32_t points = mesh.num_points();
    const uint64_t corners = uint64_t(mesh.num_faces()) * 3;
    const tinygltf::Model& gltf = views.gltf();
    // What Draco holds, charged before the rows are made: a mesh placed on many nodes is decoded
    // once, but a file may repeat a stream under many meshes.
    uint64_t held = corners * sizeof(uint32_t);
    for (const auto& [name, id] : draco.attributes) {
        const draco::PointAttribute* a = mesh.GetAttributeByUniqueId(id);
        const std::string fail = at + name + " (Draco attribute " + std::to_string(id) + "): ";
        if (!a) return Error{fail + "not in the stream"};
        if (Status st = checkAttribute(*a, points, fail); !st) return st.error();
        // readExtensions checked that the primitive has every attribute the extension names.
        const int index = primitive.attributes.at(name);
        if (index < 0 || size_t(index) >= gltf.accessors.size())
            return Error{fail + "accessor " + std::to_string(index) + " does not exist"};
        if (gltf.accessors[size_t(index)].count != points)
            return Error{fail + "accessor " + std::to_string(index) + " has count " +
                         std::to_string(gltf.accessors[size_t(index)].count) + ", the stream decodes to " +
                         std::to_string(points) + " points"};
        held += (a->buffer() ? a->buffer()->data_size() : 0) +
                (a->is_mapping_identity() ? 0 : uint64_t(points) * sizeof(uint32_t));
        decoded->attributes.emplace(name, a);
    }
    if (draco.indices >= 0 && size_t(draco.indices) >= gltf.accessors.size())
        return Error{at + "indices accessor " + std::to_string(draco.indices) + " does not exist"};
    if (draco.indices >= 0 && gltf.accessors[size_t(draco.indices)].count != corners)
        return Error{at + "indices accessor " + std::to_string(draco.indices) + " has count " +
                     std::to_string(gltf.accessors[size_t(draco.indices)].count) +
                     ", the stream decodes to " + std::to_string(mesh.num_faces()) + " triangles"};
    if (!views.decompressed().take(held))
        return Error{at + std::to_string(held) + " " + views.decompressed().reason()};
    for (const auto& [name, a] : decoded->attributes) {
        if (a->is_mapping_identity()) continue;
        std::vector<uint32_t>& rows = decoded->rows[name];
        rows.resize(points);
        for (uint32_t p = 0; p < points; ++p) {
            rows[p] = a->mapped_index(draco::PointIndex(p)).value();
            if (rows[p] >= a->size())
                return Error{at + name + ": point " + std::to_string(p) + " names value " +
                             std::to_string(rows[p]) + " of " + std::to_string(a->size())};
        }
    }
    return DracoMesh(std::move(decoded));
}

bool DracoMesh::holds(const std::string& attribute) const {
    return decoded_->attributes.count(attribute) > 0;
}

Result<AccessorView> DracoMesh::attribute(const tinygltf::Model& gltf, const std::string& name, int accessor,
                                          int type, std::initializer_list<int> componentTypes,
                                          const std::string& field) const {
    auto fail = [&](const std::string& why) {
        return Error{field + ": accessor " + std::to_string(accessor) + " (KHR_draco_mesh_compression) " +
                     why};
    };
    const tinygltf::Accessor& a = gltf.accessors[size_t(accessor)];
    if (a.type != type)
        return fail("has type " + std::to_string(a.type) + ", expected " + std::to_string(type));
    if (std::find(componentTypes.begin(), componentTypes.end(), a.componentType) == componentTypes.end())
        return fail("has unsupported componentType " + std::to_string(a.componentType));
    const draco::PointAttribute& values = *decoded_->attributes.at(name);
    const int componentType = componentTypeOf(values.data_type());
    const int components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    // "The accessors ... must match the decompressed data."
    if (componentType != a.componentType || values.num_components() != components)
        return fail("has componentType " + std::to_string(a.componentType) + " and " +
                    std::to_string(components) + " components; the stream decodes " +
                    std::to_string(int(values.num_components())) + " components of componentType " +
                    std::to_string(componentType));
    auto rows = decoded_->rows.find(name);
    const unsigned char* base = values.buffer() ? values.buffer()->data() + values.byte_offset() : nullptr;
    return AccessorView::rows(base, size_t(values.byte_stride()), decoded_->mesh->num_points(), components,
                              componentType, a.normalized,
                              rows == decoded_->rows.end() ? nullptr : rows->second.data());
}

AccessorView DracoMesh::triangles() const {
    const draco::Mesh& mesh = *decoded_->mesh;
    const auto* base = mesh.num_faces()
                           ? reinterpret_cast<const unsigned char*>(&mesh.face(draco::FaceIndex(0))[0])
                           : nullptr;
    return AccessorView::rows(base, sizeof(uint32_t), size_t(mesh.num_faces()) * 3, 1,
                              TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, false);
}

} // namespace horde::gltf
