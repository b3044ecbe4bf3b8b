#pragma once
// What a pipeline must agree on with its shaders, read from their SPIR-V rather than written twice:
// the size of the push-constant block (niagara reads its layouts the same way).
#include <cstdint>
#include <span>

namespace horde {

// Bytes from the start of the push-constant block to the end of its last member (0 when the
// shader declares none). Throws std::runtime_error on SPIR-V it cannot follow.
uint32_t pushConstantBytes(std::span<const uint32_t> spirv);

} // namespace horde
