#pragma once
// tinygltf parses the JSON and the buffers but trusts the ranges in it: every accessor is
// checked here against its bufferView and buffer before a single element is read.
#include <cstdint>
#include <string>

#include <glm/glm.hpp>
#include <tiny_gltf.h>

#include "core/result.h"

namespace horde::gltf {

// A checked view of one accessor's elements.
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

  private:
    friend Result<AccessorView> view(const tinygltf::Model&, int, int, std::initializer_list<int>,
                                     const std::string&);
    const unsigned char* base_ = nullptr; // null only when there are no elements
    size_t stride_ = 0;
    size_t componentSize_ = 0;
};

// Accessor `index` as `type` (TINYGLTF_TYPE_*) with one of `componentTypes`; the error names
// `field` (e.g. "mesh 'arm' primitive 0 POSITION").
Result<AccessorView> view(const tinygltf::Model& model, int index, int type,
                          std::initializer_list<int> componentTypes, const std::string& field);

} // namespace horde::gltf
