#include "vk/spirv_reflect.h"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace horde {

namespace {

// The few SPIR-V opcodes, decorations and storage classes a block's size depends on (SPIR-V 1.5
// specification, sections 3.20, 3.7 and 3.32).
enum : uint32_t {
    OpDecorate = 71,
    OpMemberDecorate = 72,
    OpTypeBool = 20,
    OpTypeInt = 21,
    OpTypeFloat = 22,
    OpTypeVector = 23,
    OpTypeMatrix = 24,
    OpTypeArray = 28,
    OpTypeStruct = 30,
    OpTypePointer = 32,
    OpConstant = 43,
    OpVariable = 59,
    DecorationArrayStride = 6,
    DecorationMatrixStride = 7,
    DecorationOffset = 35,
    StorageClassPushConstant = 9,
};

struct Type {
    uint32_t op = 0;
    std::vector<uint32_t> operands; // the instruction's words after its result id
};

class Module {
  public:
    explicit Module(std::span<const uint32_t> words) {
        if (words.size() < 5 || words[0] != 0x07230203u) throw std::runtime_error("SPIR-V: bad magic");
        for (size_t i = 5; i < words.size();) {
            const uint32_t count = words[i] >> 16, op = words[i] & 0xFFFFu;
            if (count == 0 || i + count > words.size())
                throw std::runtime_error("SPIR-V: truncated instruction");
            read(op, words.subspan(i + 1, count - 1));
            i += count;
        }
    }

    uint32_t pushBlock() const { return pushBlock_; }

    uint32_t size(uint32_t id) const {
        const Type& t = type(id);
        switch (t.op) {
        case OpTypeBool:
            return 4;
        case OpTypeInt:
        case OpTypeFloat:
            return t.operands.at(0) / 8;
        case OpTypeVector:
            return size(t.operands.at(0)) * t.operands.at(1);
        case OpTypeArray:
            return decoration(id, DecorationArrayStride) * constant(t.operands.at(1));
        case OpTypePointer:
            return 8;
        case OpTypeStruct: {
            uint32_t end = 0;
            for (uint32_t m = 0; m < t.operands.size(); ++m) {
                const uint32_t member = t.operands[m];
                const uint32_t bytes =
                    type(member).op == OpTypeMatrix ? matrixBytes(id, m, member) : size(member);
                end = std::max(end, memberDecoration(id, m, DecorationOffset) + bytes);
            }
            return end;
        }
        default:
            throw std::runtime_error("SPIR-V: a push-constant member of a type horde does not size");
        }
    }

  private:
    void read(uint32_t op, std::span<const uint32_t> w) {
        switch (op) {
        case OpDecorate:
            if (w.size() >= 3) decorations_[key(w[0], 0, w[1])] = w[2];
            break;
        case OpMemberDecorate:
            if (w.size() >= 4) memberDecorations_[key(w[0], w[1], w[2])] = w[3];
            break;
        case OpConstant:
            if (w.size() >= 3) constants_[w[1]] = w[2];
            break;
        case OpVariable:
            if (w.size() >= 3 && w[2] == StorageClassPushConstant) pushBlock_ = type(w[0]).operands.at(1);
            break;
        case OpTypeBool:
        case OpTypeInt:
        case OpTypeFloat:
        case OpTypeVector:
        case OpTypeMatrix:
        case OpTypeArray:
        case OpTypeStruct:
        case OpTypePointer:
            if (!w.empty()) types_[w[0]] = {op, {w.begin() + 1, w.end()}};
            break;
        default:
            break;
        }
    }
    // Members and decorations both stay below 2^16 in any module glslc writes.
    static uint64_t key(uint32_t id, uint32_t member, uint32_t decoration) {
        return uint64_t(id) << 32 | uint64_t(member & 0xFFFFu) << 16 | (decoration & 0xFFFFu);
    }
    const Type& type(uint32_t id) const {
        auto it = types_.find(id);
        if (it == types_.end()) throw std::runtime_error("SPIR-V: an undefined type");
        return it->second;
    }
    uint32_t decoration(uint32_t id, uint32_t what) const {
        auto it = decorations_.find(key(id, 0, what));
        if (it == decorations_.end()) throw std::runtime_error("SPIR-V: an array without its stride");
        return it->second;
    }
    uint32_t memberDecoration(uint32_t id, uint32_t member, uint32_t what) const {
        auto it = memberDecorations_.find(key(id, member, what));
        if (it == memberDecorations_.end())
            throw std::runtime_error("SPIR-V: a block member without its offset");
        return it->second;
    }
    uint32_t constant(uint32_t id) const {
        auto it = constants_.find(id);
        if (it == constants_.end()) throw std::runtime_error("SPIR-V: an array of unknown length");
        return it->second;
    }
    // A matrix's bytes depend on its member's stride, not only its type.
    uint32_t matrixBytes(uint32_t block, uint32_t member, uint32_t matrix) const {
        return memberDecoration(block, member, DecorationMatrixStride) * type(matrix).operands.at(1);
    }

    std::unordered_map<uint32_t, Type> types_;
    std::unordered_map<uint64_t, uint32_t> decorations_, memberDecorations_;
    std::unordered_map<uint32_t, uint32_t> constants_;
    uint32_t pushBlock_ = 0;
};

} // namespace

uint32_t pushConstantBytes(std::span<const uint32_t> spirv) {
    const Module module(spirv);
    return module.pushBlock() ? module.size(module.pushBlock()) : 0;
}

} // namespace horde
