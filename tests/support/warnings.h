#pragma once
// A model's warnings less those saying a texture its materials name was not found: round trips
// of the monster name textures (its material names) that no test writes beside the model.
#include <algorithm>
#include <string>
#include <vector>

namespace horde::test {

inline std::vector<std::string> withoutMissingTextures(std::vector<std::string> warnings) {
    std::erase_if(warnings, [](const std::string& w) { return w.find("' not found beside the model or on the search paths") != std::string::npos; });
    return warnings;
}

} // namespace horde::test
