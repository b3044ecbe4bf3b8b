#pragma once
// ASCII case folding for names read from files and paths: file systems, Lua tables and game
// formats compare names ignoring case in ASCII only, whatever the locale.
#include <filesystem>
#include <string>
#include <string_view>

namespace horde {

std::string asciiLower(std::string_view text);
// The path's extension with its dot, lower case (".mdl").
std::string lowerExtension(const std::filesystem::path& path);

} // namespace horde
