#pragma once
// Every format horde reads, in the order detection tries them: the loader (loader.h) and the
// survey of a folder's files (survey.h) both walk this list, and neither includes the other.
#include <span>
#include <string_view>

#include "format.h"

namespace horde {

// Each format's entry, in loaders/<id>/format.cpp.
const Format& grimrockFormat();
const Format& emiFormat();
const Format& gltfFormat();
const Format& swtorFormat();
const Format& nwnFormat();
const Format& nwnAsciiFormat();

std::span<const Format* const> formats();
const Format* findFormat(std::string_view id);

} // namespace horde
