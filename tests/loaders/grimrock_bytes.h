#pragma once
// Grimrock's fields as its files lay them out, for tests that build MDL1 and ANIM files by hand:
// a string is an int32 length and its bytes, vectors and quaternions are floats in order.
#include <cstdint>
#include <string>

#include <glm/glm.hpp>

#include "support/bytes.h"

namespace horde::test {

inline Bytes& str(Bytes& b, const std::string& s) { return b.i32(int32_t(s.size())).text(s); }
inline Bytes& vec3(Bytes& b, glm::vec3 v) { return b.f32(v.x).f32(v.y).f32(v.z); }
inline Bytes& vec3(Bytes& b, float x, float y, float z) { return vec3(b, {x, y, z}); }
inline Bytes& quat(Bytes& b, glm::vec4 q) { return b.f32(q.x).f32(q.y).f32(q.z).f32(q.w); }

} // namespace horde::test
