#pragma once
// Index arrays go from the file into their stream in one pass that also checks that every
// index names a vertex: copied when the widths match, narrowed when a 32-bit file's mesh fits
// 16-bit indices.
#include <cstddef>
#include <cstdint>
#include <span>

namespace horde {

// Files at least this large decode into far more than a last-level cache holds: decoders write
// their streams with streaming stores, which leave the caches to the bytes still to be read.
constexpr size_t kStreamingFileBytes = 16u << 20;

// A 16-byte streaming store needs its destination aligned to 16 bytes.
inline bool aligned16(const void* p) { return (reinterpret_cast<uintptr_t>(p) & 15) == 0; }

// Each reads out.size() little-endian indices of the named width from `in` (at least that many
// bytes) and returns true when all are below `vertexCount`; on false the caller looks for the
// first bad index in `in` to name it. `stream`: write around the caches. Narrowing needs
// vertexCount <= 65536.
bool copyIndices16(std::span<uint16_t> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream);
bool copyIndices32(std::span<uint32_t> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream);
bool narrowIndices32(std::span<uint16_t> out, std::span<const std::byte> in, uint32_t vertexCount, bool stream);

} // namespace horde
