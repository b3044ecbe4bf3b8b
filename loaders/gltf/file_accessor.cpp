#include "gltf/gltf.h"

#include <algorithm>
#include <cstring>

namespace horde::gltf {

namespace {
template <class T> T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
} // namespace

size_t componentSize(int componentType) {
    switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
        return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
        return 4;
    default:
        return 0;
    }
}

Result<std::span<const unsigned char>> BufferViews::bytes(int index, const std::string& field) {
    const tinygltf::Model& gltf = file_.gltf;
    const std::string at = field + ": bufferView " + std::to_string(index);
    if (index < 0 || size_t(index) >= gltf.bufferViews.size()) return Error{at + " out of range"};
    const tinygltf::BufferView& bv = gltf.bufferViews[size_t(index)];
    const std::vector<bool>& placeholder = file_.extensions.placeholder;
    const std::optional<MeshoptView>& meshopt = file_.extensions.meshopt[size_t(index)];
    if (!meshopt) {
        if (bv.buffer < 0 || size_t(bv.buffer) >= gltf.buffers.size())
            return Error{at + " names buffer " + std::to_string(bv.buffer) + " out of range"};
        if (placeholder[size_t(bv.buffer)])
            return Error{
                at + " reads buffer " + std::to_string(bv.buffer) +
                ", a placeholder without data: only bufferViews compressed with EXT_meshopt_compression "
                "may name it"};
        const std::vector<unsigned char>& data = gltf.buffers[size_t(bv.buffer)].data;
        if (bv.byteOffset > data.size() || bv.byteLength > data.size() - bv.byteOffset)
            return Error{at + " (offset " + std::to_string(bv.byteOffset) + ", length " +
                         std::to_string(bv.byteLength) + ") runs past its buffer of " +
                         std::to_string(data.size()) + " bytes"};
        return std::span(data.data() + bv.byteOffset, bv.byteLength);
    }
    if (auto held = held_.find(index); held != held_.end())
        return std::span<const unsigned char>(held->second);
    const MeshoptView& m = *meshopt;
    const std::string ext = at + ": EXT_meshopt_compression";
    if (m.buffer >= gltf.buffers.size())
        return Error{ext + ": buffer " + std::to_string(m.buffer) + " out of range"};
    if (placeholder[m.buffer])
        return Error{ext + ": names buffer " + std::to_string(m.buffer) +
                     ", a placeholder without data, for its compressed bytes"};
    const std::vector<unsigned char>& data = gltf.buffers[m.buffer].data;
    if (m.byteOffset > data.size() || m.byteLength > data.size() - m.byteOffset)
        return Error{ext + ": the compressed bytes (offset " + std::to_string(m.byteOffset) + ", length " +
                     std::to_string(m.byteLength) + ") run past buffer " + std::to_string(m.buffer) + " of " +
                     std::to_string(data.size()) + " bytes"};
    // readExtensions checked count * byteStride against the bufferView's byteLength (no overflow).
    const uint64_t size = m.count * m.byteStride;
    if (!decompressed_.take(size))
        return Error{ext + ": " + std::to_string(size) + " " + decompressed_.reason()};
    std::vector<unsigned char> out(size);
    if (Status st = decodeMeshopt(m, std::span(data.data() + m.byteOffset, m.byteLength), out, ext); !st)
        return st.error();
    return std::span<const unsigned char>(held_.emplace(index, std::move(out)).first->second);
}

AccessorView AccessorView::rows(const unsigned char* base, size_t stride, size_t count, int components,
                                int componentType, bool normalized, const uint32_t* rows) {
    AccessorView v;
    v.count = count;
    v.components = components;
    v.componentType = componentType;
    v.normalized = normalized;
    v.componentSize_ = componentSize(componentType);
    v.base_ = base;
    v.stride_ = stride;
    v.rows_ = rows;
    return v;
}

float AccessorView::get(size_t i, int c) const {
    const unsigned char* p = element(i) + size_t(c) * componentSize_;
    switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
        return load<float>(p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return normalized ? float(*p) / 255.0f : float(*p);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        float v = float(load<uint16_t>(p));
        return normalized ? v / 65535.0f : v;
    }
    case TINYGLTF_COMPONENT_TYPE_BYTE: {
        float v = float(load<int8_t>(p));
        return normalized ? std::max(v / 127.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_SHORT: {
        float v = float(load<int16_t>(p));
        return normalized ? std::max(v / 32767.0f, -1.0f) : v;
    }
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
        return float(load<uint32_t>(p));
    }
    return 0.0f;
}

uint32_t AccessorView::integer(size_t i, int c) const {
    const unsigned char* p = element(i) + size_t(c) * componentSize_;
    switch (componentSize_) {
    case 1:
        return *p;
    case 2:
        return load<uint16_t>(p);
    default:
        return load<uint32_t>(p);
    }
}

glm::vec4 AccessorView::vec4(size_t i, float w) const {
    glm::vec4 v(0.0f, 0.0f, 0.0f, w);
    for (int c = 0; c < std::min(components, 4); ++c)
        v[c] = get(i, c);
    return v;
}

Result<AccessorView> view(BufferViews& views, int index, int type, std::initializer_list<int> componentTypes,
                          const std::string& field) {
    const tinygltf::Model& model = views.gltf();
    auto fail = [&](const std::string& why) {
        return Error{field + ": accessor " + std::to_string(index) + " " + why};
    };
    if (index < 0 || size_t(index) >= model.accessors.size()) return fail("does not exist");
    const tinygltf::Accessor& a = model.accessors[index];
    if (a.type != type)
        return fail("has type " + std::to_string(a.type) + ", expected " + std::to_string(type));
    if (std::find(componentTypes.begin(), componentTypes.end(), a.componentType) == componentTypes.end())
        return fail("has unsupported componentType " + std::to_string(a.componentType));
    if (a.sparse.isSparse) return fail("is sparse (not supported)");
    AccessorView v;
    v.count = a.count;
    v.components = tinygltf::GetNumComponentsInType(uint32_t(a.type));
    v.componentType = a.componentType;
    v.normalized = a.normalized;
    v.componentSize_ = componentSize(a.componentType);
    // glTF "Accessors": without a bufferView every element is zero, and its count is backed by
    // no bytes at all. horde reads neither sparse accessors nor such arrays of zeros.
    if (a.bufferView < 0) {
        if (a.count > 0)
            return fail("has no bufferView (" + std::to_string(a.count) +
                        " zeros); horde reads only accessors backed by a buffer");
        return v;
    }
    Result<std::span<const unsigned char>> data =
        views.bytes(a.bufferView, field + ": accessor " + std::to_string(index));
    if (!data) return data.error();
    const tinygltf::BufferView& bv = model.bufferViews[size_t(a.bufferView)];
    size_t element = v.componentSize_ * size_t(v.components);
    v.stride_ = bv.byteStride ? bv.byteStride : element;
    if (v.stride_ < element)
        return fail("byteStride " + std::to_string(bv.byteStride) + " is smaller than its element");
    // count, offset and stride come from the file: check in a way that cannot overflow.
    if (a.byteOffset > data->size())
        return fail("byteOffset " + std::to_string(a.byteOffset) + " is past its bufferView");
    size_t room = data->size() - a.byteOffset;
    if (a.count > 0 && (room < element || (a.count - 1) > (room - element) / v.stride_))
        return fail("count " + std::to_string(a.count) + " runs past its bufferView (" +
                    std::to_string(room) + " bytes)");
    v.base_ = data->data() + a.byteOffset;
    return v;
}

} // namespace horde::gltf
