#pragma once
// What the Grimrock decoders and writers share: the file's axes, its basic types (strings,
// Mat4x3) and the split of a Mat4x3 into the engine's rest TRS.
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "asset/model.h"
#include "byte_writer.h"
#include "reader.h"

namespace horde::grimrock {

// Vertex array slots of a MeshData, in file order.
enum VertexArraySlot : int {
    kPosition = 0, kNormal = 1, kTangent = 2, kBitangent = 3, kColor = 4, kTexcoord0 = 5, kTexcoord1 = 6,
    kBoneIndex = 13, kBoneWeight = 14, kVertexArrays = 15
};
enum DataType : int32_t { kByte = 0, kInt16 = 1, kInt32 = 2, kFloat32 = 3 };

// Y up, left-handed, clockwise front faces: what the game's D3D-style renderer uses.
Axes fileAxes();

// int32 length + bytes, no terminator.
std::string readString(Reader& r, std::string_view field);
// Three basis columns then the translation: p' = x*baseX + y*baseY + z*baseZ + translation.
glm::mat4 readMat4x3(Reader& r, std::string_view field);


// Grimrock's strings (an int32 length, no terminator) and Mat4x3 on top of the plain writer.
struct Output : ByteWriter {
    void string(std::string_view s) {
        i32(int32_t(s.size()));
        text(s);
    }
    void mat4x3(const glm::mat4& m) {
        for (int c = 0; c < 4; ++c) vec3(glm::vec3(m[c]));
    }
    Status save(const std::filesystem::path& path) const { return saveBytes(bytes, path); }
};

} // namespace horde::grimrock
