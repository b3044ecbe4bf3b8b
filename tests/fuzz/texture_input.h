#pragma once
// What a texture fuzz target does with one input, shared with the regression test so that a kept
// crash replays exactly: the bytes read as a texture file of one kind (named by its extension,
// since TGA and BioWare's DDS are told by name), and the result held to the readers' promises.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace horde::fuzz {

// The texture kinds with a fuzz target: dds (Microsoft's and BioWare's), tga, png, jpeg.
bool isTextureKind(std::string_view kind);

// Reads `bytes` as a file of `kind`. Empty when the reader kept its promises: an error naming the
// file, or levels that lie inside the texture's bytes, within format.h's storage cap, each
// decoding on the CPU (decodeRgba8; BC7 has no decoder); otherwise what was broken.
std::string exerciseTexture(std::string_view kind, std::span<const std::byte> bytes);

} // namespace horde::fuzz
