#include "gltf/gltf.h"

#include <algorithm>
#include <cstring>

namespace horde::gltf {

namespace {
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

template <class T> T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
} // namespace

float AccessorView::get(size_t i, int c) const {
    const unsigned char* p = base_ + i * stride_ + size_t(c) * componentSize_;
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
    const unsigned char* p = base_ + i * stride_ + size_t(c) * componentSize_;
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

Result<AccessorView> view(const tinygltf::Model& model, int index, int type,
                          std::initializer_list<int> componentTypes, const std::string& field) {
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
    if (size_t(a.bufferView) >= model.bufferViews.size())
        return fail("names bufferView " + std::to_string(a.bufferView) + " out of range");
    const tinygltf::BufferView& bv = model.bufferViews[a.bufferView];
    if (bv.buffer < 0 || size_t(bv.buffer) >= model.buffers.size())
        return fail("bufferView " + std::to_string(a.bufferView) + " names buffer " +
                    std::to_string(bv.buffer) + " out of range");
    const std::vector<unsigned char>& data = model.buffers[bv.buffer].data;
    if (bv.byteOffset > data.size() || bv.byteLength > data.size() - bv.byteOffset)
        return fail("bufferView " + std::to_string(a.bufferView) + " (offset " +
                    std::to_string(bv.byteOffset) + ", length " + std::to_string(bv.byteLength) +
                    ") runs past its buffer of " + std::to_string(data.size()) + " bytes");
    size_t element = v.componentSize_ * size_t(v.components);
    v.stride_ = bv.byteStride ? bv.byteStride : element;
    if (v.stride_ < element)
        return fail("byteStride " + std::to_string(bv.byteStride) + " is smaller than its element");
    // count, offset and stride come from the file: check in a way that cannot overflow.
    if (a.byteOffset > bv.byteLength)
        return fail("byteOffset " + std::to_string(a.byteOffset) + " is past its bufferView");
    size_t room = bv.byteLength - a.byteOffset;
    if (a.count > 0 && (room < element || (a.count - 1) > (room - element) / v.stride_))
        return fail("count " + std::to_string(a.count) + " runs past its bufferView (" +
                    std::to_string(room) + " bytes)");
    v.base_ = data.data() + bv.byteOffset + a.byteOffset;
    return v;
}

} // namespace horde::gltf
