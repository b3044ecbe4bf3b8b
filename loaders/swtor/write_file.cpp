#include "swtor/swtor.h"

#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "byte_writer.h"

namespace horde::swtor {

namespace {
// Little-endian output that remembers every offset field it patches, for the cached-offsets
// table, and every string offset it still owes.
struct Output : ByteWriter {
    void align() { zeros((16 - bytes.size() % 16) % 16); }
    void matrix(const glm::mat4& m) {
        for (int row = 0; row < 4; ++row)
            for (int k = 0; k < 4; ++k) f32(m[row][k]);
    }
    void box(const Box& b, bool homogeneous) {
        for (const glm::vec3& v : {b.min, b.max}) {
            f32(v.x), f32(v.y), f32(v.z);
            if (homogeneous) f32(1.0f);
        }
    }
    // A placeholder for an offset field, filled in by pointer() once the target is placed.
    uint32_t slot() {
        uint32_t at = pos();
        u32(0);
        return at;
    }
    void pointer(uint32_t at, uint32_t value) {
        patch32(at, value);
        if (value != 0) pointers.emplace_back(at, value);
    }
    // A string-offset slot, resolved when the string pool is written.
    void name(const std::string& text) { names.emplace_back(slot(), text); }
    void writeStrings() {
        std::map<std::string, uint32_t> pooled;
        for (const auto& [at, value] : names) {
            auto [it, added] = pooled.try_emplace(value, pos());
            if (added) text(value), u8(0);
            pointer(at, it->second);
        }
        align();
    }

    std::vector<std::pair<uint32_t, uint32_t>> pointers;
    std::vector<std::pair<uint32_t, std::string>> names;
};

constexpr uint32_t kOffsetBnryField = 0x0C, kNumCachedField = 0x10;
constexpr uint32_t kEgcdUnknown = 5; // what the Slicers' exporter writes there
} // namespace

std::vector<std::byte> encode(const FileOut& file) {
    Output out;
    out.bytes.reserve(4096);
    out.put(std::array<char, 4>{'G', 'A', 'W', 'B'});
    out.u32(kMajorVersion);
    out.u32(kMinorVersion);
    out.u32(0); // offsetBNRY, patched at the end
    out.u32(0); // numCachedOffsets, patched at the end
    out.u32(file.type);
    out.u16(uint16_t(file.meshes.size()));
    out.u16(uint16_t(file.materials.size()));
    out.u16(uint16_t(file.bones.size()));
    out.u16(uint16_t(file.attachments.size()));
    out.zeros(16);
    out.box(file.box, true);
    const uint32_t offsetCached = out.slot(), offsetMeshes = out.slot(), offsetMaterials = out.slot(),
                   offsetBones = out.slot(), offsetAttachments = out.slot();
    out.align();

    struct MeshSlots {
        uint32_t vertices, pieces, indices, bones;
    };
    std::vector<MeshSlots> slots(file.meshes.size());
    if (!file.meshes.empty()) out.pointer(offsetMeshes, out.pos());
    for (size_t i = 0; i < file.meshes.size(); ++i) {
        const MeshOut& m = file.meshes[i];
        out.name(m.name);
        out.u32(m.flags);
        out.u16(uint16_t(m.pieces.size()));
        out.u16(uint16_t(m.bones.size()));
        out.u16(m.mask);
        out.u16(uint16_t(vertexSizeFor(m.mask)));
        out.u32(m.vertexCount);
        out.u32(uint32_t(m.indices.size()));
        slots[i].vertices = out.slot();
        slots[i].pieces = out.slot();
        slots[i].indices = out.slot();
        slots[i].bones = out.slot();
    }
    out.align();
    for (size_t i = 0; i < file.meshes.size(); ++i) {
        if (!file.meshes[i].pieces.empty()) out.pointer(slots[i].pieces, out.pos());
        for (const PieceOut& p : file.meshes[i].pieces) {
            out.u32(p.firstTriangle);
            out.u32(p.triangles);
            out.i32(p.material);
            out.i32(p.index);
            out.box(p.box, true);
        }
    }
    if (!file.materials.empty()) out.pointer(offsetMaterials, out.pos());
    for (const std::string& material : file.materials) out.name(material);
    out.align();
    if (!file.attachments.empty()) out.pointer(offsetAttachments, out.pos());
    for (const AttachmentOut& a : file.attachments) {
        out.name(a.name);
        out.name(a.bone);
        out.matrix(a.transform);
    }
    out.align();
    if (!file.bones.empty()) out.pointer(offsetBones, out.pos());
    for (const BoneOut& b : file.bones) {
        out.name(b.name);
        out.i32(b.parent);
        out.matrix(b.boneToParent);
        out.matrix(b.rootToBone);
    }
    out.align();
    for (size_t i = 0; i < file.meshes.size(); ++i) {
        if (file.meshes[i].vertexCount) out.pointer(slots[i].vertices, out.pos());
        out.bytes.insert(out.bytes.end(), file.meshes[i].vertices.begin(), file.meshes[i].vertices.end());
        out.align();
    }
    for (size_t i = 0; i < file.meshes.size(); ++i) {
        if (!file.meshes[i].indices.empty()) out.pointer(slots[i].indices, out.pos());
        for (uint16_t index : file.meshes[i].indices) out.u16(index);
        out.align();
    }
    for (size_t i = 0; i < file.meshes.size(); ++i) {
        if (!file.meshes[i].bones.empty()) out.pointer(slots[i].bones, out.pos());
        for (const MeshBoneOut& b : file.meshes[i].bones) {
            out.name(b.name);
            out.box(b.box, false);
        }
        out.align();
    }
    out.writeStrings();

    // The cached-offsets table lists itself first, then every offset field in file order.
    out.pointer(offsetCached, out.pos());
    std::vector<std::pair<uint32_t, uint32_t>> table = out.pointers;
    std::sort(table.begin(), table.end());
    out.patch32(kNumCachedField, uint32_t(table.size()));
    for (const auto& [at, value] : table) {
        out.u32(at);
        out.u32(value);
    }
    out.align();

    // An empty collision block (length 0), the per-mesh boxes, then the trailer.
    const uint32_t bnry = out.pos();
    out.u32(0);
    out.align();
    for (const MeshOut& m : file.meshes) out.box(m.box, false);
    out.u32(0);
    out.put(std::array<char, 4>{'E', 'G', 'C', 'D'});
    out.u32(kEgcdUnknown);
    out.u32(bnry);
    out.patch32(kOffsetBnryField, bnry);
    return std::move(out.bytes);
}

} // namespace horde::swtor
